/**
 * GET /api/worlds/{id}/gradebook.csv: the gradebook as a file in the column layout Canvas and
 * Moodle import (db/src/game/assignments/gradebook.ts, docs/classroom.md). Small (a row per
 * student), so built whole. Like the world's CSV exports (worldExports.ts) it comes from a tRPC
 * procedure of its own, called in-process, with gradebook's access (credentials, scope, rate
 * limit), so every refusal is the same JSON error answer as the JSON route's.
 */
import type { Hono } from 'hono';
import { gradebookCsv } from '@marketcraft/db';
import { numberFromText, worldIdInput } from '@marketcraft/shared';
import { createRequestContext, type ApiServices } from './context.ts';
import { clientIpOf } from './clientIp.ts';
import { createCallerFactory, router, signedInProcedure, type ProcedureMeta } from './trpc.ts';
import { assignmentsRouter } from './routers/assignments.ts';
import { restErrorResponse } from './rest.ts';

const fileProcedures = router({
  gradebookCsv: signedInProcedure
    .meta({ access: (assignmentsRouter.gradebook._def.meta as ProcedureMeta).access })
    .input(worldIdInput)
    .query(({ ctx, input }) => gradebookCsv(ctx.db, ctx.user, input.id)),
});
const callFileProcedures = createCallerFactory(fileProcedures);

export function registerGradebookCsvRoute(app: Hono, services: ApiServices): void {
  app.get('/api/worlds/:id/gradebook.csv', async (c) => {
    const resHeaders = new Headers();
    try {
      const ctx = await createRequestContext(services, c.req.raw, resHeaders, clientIpOf(c, services.config.TRUST_PROXY_HOPS));
      const { filename, csv } = await callFileProcedures(ctx).gradebookCsv({ id: numberFromText(c.req.param('id')) ?? c.req.param('id') } as never);
      resHeaders.set('content-type', 'text/csv; charset=utf-8');
      resHeaders.set('content-disposition', `attachment; filename="${filename}"`);
      return new Response(csv, { status: 200, headers: resHeaders });
    } catch (error) {
      const { status, body, retryAfterSeconds } = restErrorResponse(error, services.logger, c.req.raw);
      resHeaders.set('content-type', 'application/json; charset=utf-8');
      if (retryAfterSeconds !== undefined) resHeaders.set('retry-after', String(retryAfterSeconds));
      return new Response(JSON.stringify(body), { status, headers: resHeaders });
    }
  });
}
