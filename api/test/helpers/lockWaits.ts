import { sql } from 'drizzle-orm';
import type { Database } from '@marketcraft/db';

/**
 * Resolves once a statement of this test's database whose text contains `queryText` (any, when
 * empty) waits for a row lock (pg_stat_activity), so a test can let the transaction holding the
 * lock commit only then; throws after about 10 seconds.
 */
export async function untilAStatementWaitsForALock(db: Database, queryText = ''): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const [waiting] = await db.execute<{ count: number }>(sql`
      select count(*)::int as count from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query like ${`%${queryText}%`}`);
    if (Number(waiting!.count) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no statement with "${queryText}" waited for a lock`);
}
