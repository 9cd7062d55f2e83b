/**
 * GET /api/worlds/{id}/export/{kind}.csv: the instructor's CSV downloads as files (text/csv with a
 * file name), streamed: the rows come from a database cursor a batch at a time and go out as they
 * come (openWorldCsv), so the public world's ledger (an admin's export) or a big class's is never
 * built in memory. The JSON route GET /api/worlds/{id}/export/{kind} carries the same CSV as one
 * string and is bounded (MAX_JSON_EXPORT_ROWS).
 *
 * The file comes from a tRPC procedure of its own (fileProcedures), called in-process only (it is
 * not part of appRouter, so neither /trpc nor the REST table serves it): it runs the same
 * middlewares as worlds.export (credentials, session-only access, rate limits, sign-in), then the
 * instructor check, before the first byte is sent, so every refusal is a JSON error answer.
 *
 * A download holds one database connection while it lasts, at the pace its client reads. So that
 * slow or stalled downloads can never take the API's pool from the players, at most
 * EXPORT_DOWNLOADS_AT_ONCE run at once in a process (then 429, try again in a minute), and each is
 * cut off after EXPORT_DOWNLOAD_MAX_MS.
 */
import type { Hono } from 'hono';
import { openWorldCsv } from '@marketcraft/db';
import { GameError, numberFromText, worldExportSchema } from '@marketcraft/shared';
import { createRequestContext, type ApiServices } from './context.ts';
import { clientIpOf } from './clientIp.ts';
import { createCallerFactory, router, signedInProcedure, toTRPCError, type ProcedureMeta } from './trpc.ts';
import { worldsRouter } from './routers/worlds.ts';
import { restErrorResponse } from './rest.ts';

const fileProcedures = router({
  worldExport: signedInProcedure
    // worlds.export's access (session only), declared there once.
    .meta({ access: (worldsRouter.export._def.meta as ProcedureMeta).access })
    .input(worldExportSchema)
    .query(({ ctx, input }) => openWorldCsv(ctx.db, ctx.user, input.id, input.kind)),
});
const callFileProcedures = createCallerFactory(fileProcedures);

/** Streamed CSV downloads one API process serves at once (each holds a connection of its transaction pool, API_TRANSACTION_CONNECTIONS). */
export const EXPORT_DOWNLOADS_AT_ONCE = 4;
/** A download still running after this is cut off (its client stalled, or reads very slowly). */
const EXPORT_DOWNLOAD_MAX_MS = 10 * 60_000;
export const EXPORT_BUSY_MESSAGE = 'Too many CSV downloads are running right now: try again in a minute';
let downloadsRunning = 0;

export function registerWorldExportRoutes(app: Hono, services: ApiServices): void {
  app.get('/api/worlds/:id/export/:file{[a-z]+\\.csv}', async (c) => {
    const resHeaders = new Headers();
    try {
      const kind = c.req.param('file').replace(/\.csv$/, '');
      const ctx = await createRequestContext(services, c.req.raw, resHeaders, clientIpOf(c, services.config.TRUST_PROXY_HOPS));
      const { filename, lines } = await callFileProcedures(ctx).worldExport({ id: numberFromText(c.req.param('id')) ?? c.req.param('id'), kind } as never);
      if (downloadsRunning >= EXPORT_DOWNLOADS_AT_ONCE) {
        await lines.return(undefined);
        resHeaders.set('retry-after', '60');
        throw toTRPCError(new GameError('RATE_LIMITED', EXPORT_BUSY_MESSAGE, { retryAfterSeconds: 60 }));
      }
      downloadsRunning += 1;
      let finished = false;
      let cutOff: NodeJS.Timeout | undefined;
      /** Ends the download once, however it ends: done, failed, abandoned or cut off. */
      const finish = async () => {
        if (finished) return;
        finished = true;
        downloadsRunning -= 1;
        clearTimeout(cutOff);
        await lines.return(undefined).catch(() => {});
      };
      resHeaders.set('content-type', 'text/csv; charset=utf-8');
      resHeaders.set('content-disposition', `attachment; filename="${filename}"`);
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          cutOff = setTimeout(() => {
            controller.error(new Error('the CSV download took too long'));
            void finish();
          }, EXPORT_DOWNLOAD_MAX_MS);
          cutOff.unref();
        },
        // One batch of lines per pull: the download's pace sets the cursor's.
        async pull(controller) {
          try {
            let chunk = '';
            for (let count = 0; count < 500; count += 1) {
              const next = await lines.next();
              if (next.done) {
                if (chunk) controller.enqueue(encoder.encode(chunk));
                controller.close();
                await finish();
                return;
              }
              chunk += next.value;
            }
            controller.enqueue(encoder.encode(chunk));
          } catch (error) {
            if (finished) return; // cut off meanwhile
            // Headers are gone: the download breaks off (no short file passes as whole); logged once.
            services.logger.error({ err: error }, 'world export failed while streaming');
            controller.error(error);
            await finish();
          }
        },
        // The client went away: close the cursor (and give its connection back).
        async cancel() {
          await finish();
        },
      });
      return new Response(body, { status: 200, headers: resHeaders });
    } catch (error) {
      const { status, body, retryAfterSeconds } = restErrorResponse(error, services.logger, c.req.raw);
      resHeaders.set('content-type', 'application/json; charset=utf-8');
      if (retryAfterSeconds !== undefined) resHeaders.set('retry-after', String(retryAfterSeconds));
      return new Response(JSON.stringify(body), { status, headers: resHeaders });
    }
  });
}
