/**
 * A research purchase or a new building that waits for a turn: both read the world's week, then
 * waited for their company's row (their first write needs it) while the turn held it, and after
 * the turn committed dated the research or the building in the week the turn had closed. Now each
 * takes the company's row lock first, as every other action and the turn do, and reads the week
 * after it (docs/architecture.md, "How money stays safe").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ledgerMismatches, type Database } from '@marketcraft/db';
import { startTestApp, type TestApp, type TestPlayer } from '../../api/test/helpers/testApp.ts';
import { duringHeldTurn } from './fixtures.ts';

describe('an action that waits for the turn', () => {
  let app: TestApp;
  let db: Database;
  let player: TestPlayer;

  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    player = await app.createPlayer({ cash: 2_000_000 });
  });
  afterAll(async () => {
    await app.close();
  });

  it('a research purchase is booked and dated in the new week', { timeout: 60_000 }, async () => {
    const upgrades = await app.api<Array<{ id: number; prerequisite_id: number | null }>>('GET', '/research/upgrades', { token: player.token });
    const upgrade = upgrades.body.find((candidate) => candidate.prerequisite_id === null)!;
    const { week, answer } = await duringHeldTurn(db, () => app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: upgrade.id } }));
    expect(answer.status).toBe(200);
    const rows = await db.execute<{ week: number }>(sql`select week from transactions where company_id = ${player.companyId} and reason = 'research'`);
    expect(rows.map((row) => Number(row.week))).toEqual([week + 1]);
    const [researched] = await db.execute<{ week: number }>(sql`select researched_week as week from company_research where company_id = ${player.companyId}`);
    expect(Number(researched!.week)).toBe(week + 1);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('a new building is booked and dated in the new week', { timeout: 60_000 }, async () => {
    const [city] = await db.execute<{ id: number }>(sql`select id from cities order by id limit 1`);
    const { week, answer } = await duringHeldTurn(db, () =>
      app.api('POST', '/buildings', { token: player.token, body: { type: 'farm', city_id: Number(city!.id) } }),
    );
    expect(answer.status).toBe(200);
    const rows = await db.execute<{ week: number }>(sql`select week from transactions where company_id = ${player.companyId} and reason = 'build'`);
    expect(rows.map((row) => Number(row.week))).toEqual([week + 1]);
    const [built] = await db.execute<{ week: number }>(sql`select built_week as week from buildings where company_id = ${player.companyId}`);
    expect(Number(built!.week)).toBe(week + 1);
    expect(await ledgerMismatches(db)).toEqual([]);
  });
});
