/**
 * Prints what a first visit downloads: the scripts and styles web/dist/index.html loads or
 * preloads, minified and gzip (level 9, as a server would send them), with the JS total checked
 * against the budget of issue 25 (initial JS at most 200 KB gzip; issue 10 had 240). `npm run build` runs it after
 * `vite build`. Over budget it warns loudly but does not fail the build: `npm start` and `npm test`
 * must keep working; the warning names the fix.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_GZIP_KB = 200;
const dist = path.resolve(import.meta.dirname, '..', 'dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const files = [...new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]))];
const kb = (bytes) => (bytes / 1000).toFixed(1);
const rows = files.map((file) => {
  const content = readFileSync(path.join(dist, file));
  return { file, size: content.length, gzip: gzipSync(content, { level: 9 }).length };
});
console.log('Initial load (index.html), minified / gzip:');
for (const row of rows) console.log(`  ${row.file.padEnd(44)} ${kb(row.size).padStart(8)} kB ${kb(row.gzip).padStart(8)} kB`);
const js = rows.filter((row) => row.file.endsWith('.js')).reduce((sum, row) => sum + row.gzip, 0);
const css = rows.filter((row) => row.file.endsWith('.css')).reduce((sum, row) => sum + row.gzip, 0);
console.log(`  initial JS ${kb(js)} kB gzip (budget ${BUDGET_GZIP_KB} kB), CSS ${kb(css)} kB gzip`);
if (js / 1000 > BUDGET_GZIP_KB) {
  console.warn(
    `WARNING: initial JS is over its budget of ${BUDGET_GZIP_KB} kB gzip: lazy-load the new code (web/src/router.tsx), keep shared/ free of side effects.`,
  );
}
