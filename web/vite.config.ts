import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Dev: `npm run dev -w @marketcraft/web` serves the app with HMR and proxies /api (tRPC, REST,
 * auth, the realtime stream) to the API on :3000 (`npm start` in another terminal; API_URL overrides).
 * Build: every route is its own lazy chunk (src/router.tsx); React and the data layer are
 * long-lived vendor chunks so a release that only changes pages keeps them cached. Mantine and
 * charts (recharts, ~440 kB) are left to automatic splitting: a Mantine component only a lazy page
 * uses comes with that page. As one vendor chunk, every component any page used loaded on the
 * first visit, and the first load grew past its 240 kB budget (249.6 kB gzip; 231 kB split).
 */
export default defineConfig({
  plugins: [react()],
  // The Host header is kept (changeOrigin: false) so the API's Origin check sees this server's origin.
  server: { proxy: { '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: false } } },
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/, priority: 30 },
            { name: 'vendor-data', test: /node_modules[\\/](@tanstack|@trpc|zod)[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
});
