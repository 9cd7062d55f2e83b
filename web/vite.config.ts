import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** Text files worth compressing (source maps are only fetched by developer tools). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes `<file>.br` (brotli, best) and `<file>.gz` (gzip 9) beside each text file of the build,
 * once, so the API serves them without compressing per request (api/src/app.ts, `precompressed`).
 * node:zlib rather than a plugin: a dozen lines, and nothing to keep up to date.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'marketcraft-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const content = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, {
            params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
          }),
        );
      }
    },
  };
}

/**
 * Dev: `npm run dev -w @marketcraft/web` serves the app with HMR and proxies /api (tRPC, REST,
 * auth, the realtime stream) to the API on :3000 (`npm start` in another terminal; API_URL overrides).
 * Build: every route is its own lazy chunk (src/router.tsx); React and the data layer are
 * long-lived vendor chunks so a release that only changes pages keeps them cached. Mantine and
 * charts (recharts, ~440 kB) are left to automatic splitting: a Mantine component only a lazy page
 * uses comes with that page. As one vendor chunk, every component any page used loaded on the
 * first visit, and the first load grew past its 240 kB budget (249.6 kB gzip; 231 kB split). zod has its own chunk: only
 * forms use it (the sign-in page is lazy), so a signed-in first load does not carry it.
 */
export default defineConfig({
  plugins: [react(), precompress()],
  // The Host header is kept (changeOrigin: false) so the API's Origin check sees this server's origin.
  server: { proxy: { '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: false } } },
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'vendor-react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/,
              priority: 30,
            },
            { name: 'vendor-data', test: /node_modules[\\/](@tanstack|@trpc)[\\/]/, priority: 20 },
            // Only the forms use zod (the sign-in page and lazy pages): not part of the first load.
            { name: 'vendor-zod', test: /node_modules[\\/]zod[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
});
