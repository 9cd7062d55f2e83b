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

/** The UI libraries grouped into fewer, larger chunks (see `ui` below). */
const UI_LIBRARIES = /node_modules[\\/](@mantine|@tabler|@floating-ui)[\\/]/;
/** A page group of UI modules smaller than this (bytes, before compression) joins a neighbour. */
const UI_CHUNK_MERGE_BYTES = 20_000;

/**
 * Dev: `npm run dev -w @marketcraft/web` serves the app with HMR and proxies /api (tRPC, REST,
 * auth, the realtime stream) to the API on :3000 (`npm start` in another terminal; API_URL overrides).
 * Build: every route is its own lazy chunk (src/router.tsx); React and the data layer are
 * long-lived vendor chunks so a release that only changes pages keeps them cached. Charts (recharts,
 * ~440 kB) are left to automatic splitting, and Mantine is grouped by the pages that use it (`ui`): a
 * Mantine component only lazy pages use comes with those pages. As one vendor chunk, every component any page used loaded on the
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
            { name: 'vendor-data', test: /node_modules[\\/](@tanstack[\\/](query-core|react-query)|@trpc)[\\/]/, priority: 20 },
            // Only the forms use zod (the sign-in page and lazy pages): not part of the first load.
            { name: 'vendor-zod', test: /node_modules[\\/]zod[\\/]/, priority: 20 },
            // Mantine, the icons and popover positioning: what the first screen uses is one chunk; what
            // only pages use is grouped by the set of pages using it, groups under 20 kB merged with a
            // neighbour. Left to automatic splitting they were ~30 chunks of 1-2 kB per page, and a phone
            // on HTTP/1.1 fetches six at a time: the dashboard waited ~6 round trips for its pieces (33
            // chunks after the first load, now 22). The first screen's own group keeps the lazy groups
            // from importing each other in a circle with it (a circle ran Mantine's Button before its
            // helpers: the app stopped at 'Loading...').
            { name: 'ui-first', tags: ['$initial'], test: UI_LIBRARIES, priority: 11 },
            { name: 'ui', test: UI_LIBRARIES, entriesAware: true, entriesAwareMergeThreshold: UI_CHUNK_MERGE_BYTES, priority: 10 },
          ],
        },
      },
    },
  },
});
