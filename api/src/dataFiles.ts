/**
 * GET /api/data/worlds/{id}/weeks/{week}/{table}.csv.gz and .parquet (docs/open-data.md): one
 * weekly data file, as bytes. A finished week never changes, so each answer carries a strong ETag
 * (the file's SHA-256, as the manifest lists it) and a year-long immutable Cache-Control (private
 * for a private world's files); If-None-Match answers 304. Range requests are answered (206), so
 * DuckDB can read a Parquet file over HTTP without downloading all of it.
 *
 * The file comes from a tRPC procedure of its own (fileProcedures), called in-process only, as the
 * world exports do (api/src/worldExports.ts): credentials, the token's scope, the rate limit and
 * sign-in run as for every route, then the world's readers are checked, before any byte is sent;
 * every refusal is the JSON error of the REST routes.
 */
import type { Hono } from 'hono';
import { readDataFile } from '@marketcraft/db';
import { dataFileInput, numberFromText, type DataFileFormat } from '@marketcraft/shared';
import { createRequestContext, type ApiServices } from './context.ts';
import { clientIpOf } from './clientIp.ts';
import { createCallerFactory, router, signedInProcedure } from './trpc.ts';
import { restErrorResponse } from './rest.ts';
import { readableWorld } from './routers/data.ts';
import { matchesEtag } from './etag.ts';

const fileProcedures = router({
  dataFile: signedInProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/data/worlds/{id}/weeks/{week}/{table}.{format}' } })
    .input(dataFileInput)
    .query(async ({ ctx, input }) => {
      const world = await readableWorld(ctx, input.id);
      // A week's files are made on its first request (a transaction): on the writes' pool.
      const file = await readDataFile(ctx.writeDb ?? ctx.db, input.id, input.week, input.table, input.format);
      return { ...file, isPublic: world.kind === 'public' };
    }),
});
const callFileProcedures = createCallerFactory(fileProcedures);

const DATA_FILE_CONTENT_TYPES: Record<DataFileFormat, string> = {
  'csv.gz': 'application/gzip',
  parquet: 'application/vnd.apache.parquet',
};

/** A finished week's file never changes: a year, immutable (RFC 8246). */
const IMMUTABLE = 'max-age=31536000, immutable';

/** "prices.csv.gz" -> table and format; anything else keeps the text so the input's schema refuses it by name. */
function splitFileName(file: string): { table: string; format: string } {
  const dot = file.indexOf('.');
  return dot < 0 ? { table: file, format: '' } : { table: file.slice(0, dot), format: file.slice(dot + 1) };
}

/** The one byte range of a Range header (bytes=a-b, a-, -n) within `size`, 'unsatisfiable', or null (no usable Range: the whole file). */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: the whole file (RFC 9110 lets a server ignore Range).
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

export function registerDataFileRoutes(app: Hono, services: ApiServices): void {
  // The files are read only: another method is a 405 naming the ones they take (as for the REST routes).
  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '/api/data/worlds/:id/weeks/:week/:file', (c) => {
    c.header('Allow', 'GET, HEAD');
    return c.json({ error: `${c.req.method} is not allowed on ${c.req.path}: it takes GET` }, 405);
  });
  app.get('/api/data/worlds/:id/weeks/:week/:file', async (c) => {
    const resHeaders = new Headers();
    try {
      const ctx = await createRequestContext(services, c.req.raw, resHeaders, clientIpOf(c, services.config.TRUST_PROXY_HOPS), { calls: 1, isMutation: false });
      const { table, format } = splitFileName(c.req.param('file'));
      const idText = c.req.param('id');
      const weekText = c.req.param('week');
      const file = await callFileProcedures(ctx).dataFile({
        id: numberFromText(idText) ?? Number.NaN,
        week: numberFromText(weekText) ?? Number.NaN,
        table,
        format,
      } as never);
      const etag = `"${file.sha256}"`;
      resHeaders.set('etag', etag);
      resHeaders.set('cache-control', `${file.isPublic ? 'public' : 'private'}, ${IMMUTABLE}`);
      resHeaders.set('accept-ranges', 'bytes');
      if (matchesEtag(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers: resHeaders });
      const { id, week } = { id: Number(idText), week: Number(weekText) };
      resHeaders.set('content-type', DATA_FILE_CONTENT_TYPES[format as DataFileFormat]);
      resHeaders.set('content-disposition', `attachment; filename="marketcraft-world-${id}-week-${week}-${table}.${format}"`);
      const size = file.content.length;
      // If-Range with another validator: the file changed since the client's part (never, but the rule says whole file).
      const ifRange = c.req.header('if-range');
      const range = ifRange && ifRange !== etag ? null : byteRange(c.req.header('range'), size);
      if (range === 'unsatisfiable') {
        resHeaders.set('content-range', `bytes */${size}`);
        resHeaders.set('content-type', 'application/json; charset=utf-8');
        resHeaders.delete('content-disposition');
        return new Response(JSON.stringify({ error: `The range is outside the file (${size} bytes)` }), { status: 416, headers: resHeaders });
      }
      if (range) {
        resHeaders.set('content-range', `bytes ${range.start}-${range.end}/${size}`);
        resHeaders.set('content-length', String(range.end - range.start + 1));
        return new Response(new Uint8Array(file.content.subarray(range.start, range.end + 1)), { status: 206, headers: resHeaders });
      }
      resHeaders.set('content-length', String(size));
      return new Response(new Uint8Array(file.content), { status: 200, headers: resHeaders });
    } catch (error) {
      const { status, body, retryAfterSeconds } = restErrorResponse(error, services.logger, c.req.raw);
      for (const name of ['etag', 'cache-control', 'accept-ranges']) resHeaders.delete(name);
      resHeaders.set('content-type', 'application/json; charset=utf-8');
      if (retryAfterSeconds !== undefined) resHeaders.set('retry-after', String(retryAfterSeconds));
      return new Response(JSON.stringify(body), { status, headers: resHeaders });
    }
  });
}
