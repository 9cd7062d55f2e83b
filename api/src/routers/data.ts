/**
 * Open data (docs/open-data.md): the manifest of a world's weekly data files. The files themselves
 * are binary answers served by api/src/dataFiles.ts through the same middlewares. Any signed-in
 * reader of the world may read them (a personal token with the read scope): the public world for
 * everyone, a private world for its players and instructors only (404 to anyone else).
 */
import { dataManifest, getWorld } from '@marketcraft/db';
import { dataManifestInput, type WorldView } from '@marketcraft/shared';
import { router, signedInProcedure } from '../trpc.ts';
import type { RequestContext } from '../context.ts';

/** The world, or 404 unless the caller may read it (a token is never an admin: docs/api.md, "Worlds"). */
export function readableWorld(ctx: Pick<RequestContext, 'db' | 'apiToken'> & { user: { id: number; isAdmin: boolean } }, worldId: number): Promise<WorldView> {
  return getWorld(ctx.db, { id: ctx.user.id, isAdmin: ctx.apiToken ? false : ctx.user.isAdmin }, worldId);
}

export const dataRouter = router({
  manifest: signedInProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/data/worlds/{id}/manifest.json',
        summary: "The world's weekly data files: every table with its columns and units, and each finished week's files with their rows, size and SHA-256",
      },
    })
    .input(dataManifestInput)
    .query(async ({ ctx, input }) => {
      await readableWorld(ctx, input.id);
      // Missing files are made here (a transaction): on the writes' pool, not the reads' small one.
      return dataManifest(ctx.writeDb ?? ctx.db, input.id);
    }),
});
