import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Dev: `npm run dev -w @marketcraft/web` serves the app with HMR and proxies /api (tRPC, REST,
 * auth, the realtime stream) to the API on :3000 (`npm start` in another terminal; API_URL overrides).
 * Build: every route is its own lazy chunk (src/router.tsx); third-party code is split into a few
 * long-lived vendor chunks so a release that only changes pages keeps them cached. Charts
 * (recharts, ~440 kB) are left to automatic splitting: only the lazy chart components pull them in.
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
            { name: 'vendor-mantine', test: /node_modules[\\/](@mantine[\\/](core|hooks|notifications|store)|@floating-ui|react-remove-scroll[^\\/]*|react-number-format|react-textarea-autosize|use-callback-ref|use-sidecar|tslib|get-nonce|detect-node-es|react-style-singleton|aria-hidden|type-fest)[\\/]/, priority: 20 },
            { name: 'vendor-data', test: /node_modules[\\/](@tanstack|@trpc|zod)[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
});
