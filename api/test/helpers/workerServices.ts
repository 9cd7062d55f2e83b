/**
 * The API's worker services done by the worker's own code against the test's database: a fork
 * replayed and a turn run in-process, as the worker's queue would (for tests that follow a fork or
 * a turn through the API without a running worker).
 */
import type { TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { runTurn } from '../../../worker/src/turn/index.ts';
import { replayFork } from '../../../worker/src/replay/fork.ts';
import type { ApiServices } from '../../src/context.ts';

export function workerServices(database: TestDatabase): Promise<Partial<ApiServices>> {
  return Promise.resolve({
    forkWorld: async (forkId: number) => ({ week: (await replayFork(database.db, forkId)).week }),
    advanceTurn: async (worldId: number) => {
      const result = await runTurn(database.db, { worldId, nextTurnAt: () => null });
      if (result.status !== 'advanced') throw new Error(`no turn: ${result.reason}`);
      return { week: result.newWeek };
    },
  });
}
