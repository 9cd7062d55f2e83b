/**
 * The worker's log of each turn: one JSON line with the week, every phase's duration, the counts
 * (companies, buildings, store sales) and the outcome; a failed turn logs its error once, with the
 * stack, and is rolled back (pg-boss retries it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { memoryLogger } from '@marketcraft/db/testing/memoryLogger.ts';
import { TURN_QUEUE } from '@marketcraft/shared/queues.ts';
import { loadWorkerConfig } from '../src/config.ts';
import { startTurnWorker, type TurnWorker } from '../src/queue.ts';
import { PHASES } from '../src/turn/index.ts';
import { createCompany, createTurnWorld, insertBuilding, worldWeek } from './fixtures.ts';
import { startSender, waitFor } from './helpers.ts';

describe('turn logs', () => {
  let database: TestDatabase;
  let worker: TurnWorker;
  const { logger, lines } = memoryLogger('worker');
  let failNextTurn = true;

  beforeAll(async () => {
    database = await createTestDatabase();
    const world = await createTurnWorld(database.db);
    const company = await createCompany(database.db, { name: `Logged ${world.tag}`, cashCents: 10_000_000 });
    await insertBuilding(database.db, { companyId: company, type: 'farm', cityId: world.farmCityId, employees: 5, recipeId: world.farmRecipeId });
    const config = loadWorkerConfig({ DATABASE_URL: database.url, TURN_SCHEDULE_ENABLED: '0', TURN_RETRY_DELAY_SECONDS: '1' });
    worker = await startTurnWorker(config, {
      logger,
      pollingIntervalSeconds: 0.5,
      hooks: {
        afterPhase: (phase) => {
          if (phase === 'costs' && failNextTurn) {
            failNextTurn = false;
            throw new Error('costs phase blew up');
          }
        },
      },
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await database.drop();
  });

  it('logs a failed turn once with its stack, then the retried turn with its phases, counts and outcome', async () => {
    const week = await worldWeek(database.db);
    const sender = await startSender(database.url);
    try {
      await sender.send(TURN_QUEUE, { week });
      await waitFor(async () => (await worldWeek(database.db)) === week + 1, 60_000, 'the retried turn');
    } finally {
      await sender.stop({ graceful: false, close: true });
    }
    const failed = lines.filter((line) => line.outcome === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 50, name: 'worker', week });
    expect(failed[0]!.err).toMatchObject({ message: 'costs phase blew up' });
    expect(failed[0]!.err.stack).toContain('turnLog.integration.test.ts');

    const advanced = lines.filter((line) => line.outcome === 'advanced');
    expect(advanced).toHaveLength(1);
    expect(advanced[0]).toMatchObject({ level: 30, week, newWeek: week + 1 });
    expect(Object.keys(advanced[0]!.phases)).toEqual([...PHASES]);
    expect(Object.values(advanced[0]!.phases).every((ms) => typeof ms === 'number')).toBe(true);
    expect(advanced[0]!.counts.companies).toBeGreaterThanOrEqual(26); // ours and the seeded bots
    expect(advanced[0]!.counts.buildings).toBeGreaterThanOrEqual(1);
    expect(advanced[0]!.counts).toHaveProperty('storeSalesCompanies');
    expect(advanced[0]!.counts).toHaveProperty('storeSalesCents');
    expect(typeof advanced[0]!.durationMs).toBe('number');
  });
});
