/**
 * A trade that waits for a turn (docs/architecture.md, "One-statement actions"): a trade's statement
 * takes its snapshot when it starts, then waits for its company's row lock while the turn holds it.
 * After the turn commits, that snapshot still reads the week the turn closed (and its prices): the
 * trade booked its ledger rows in the closed week and its market flow there too (the new week's
 * curve never saw it), at the old price. Now the statement compares the week it read with the
 * world's week after its locks and runs again when they differ. Each race is held open on the turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { companies, ledgerMismatches, shareMismatches, type Database } from '@marketcraft/db';
import { startTestApp, type TestApp, type TestPlayer } from '../../api/test/helpers/testApp.ts';
import { duringHeldTurn, worldWeek } from './fixtures.ts';

describe('a trade that waits for the turn', () => {
  let app: TestApp;
  let db: Database;
  let player: TestPlayer;
  let wheatId: number;
  let issuer: number;

  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    player = await app.createPlayer({ cash: 2_000_000 });
    const goods = await app.api<Array<{ id: number; name: string }>>('GET', '/goods', { token: player.token });
    wheatId = goods.body.find((good) => good.name === 'Wheat')!.id;
    const [bot] = await db
      .select({ id: companies.id })
      .from(companies)
      .where(and(eq(companies.isBot, true), eq(companies.status, 'active')))
      .limit(1);
    issuer = bot!.id;
  });
  afterAll(async () => {
    await app.close();
  });

  async function flowOf(week: number): Promise<number> {
    const [row] = await db.execute<{ units: number }>(sql`
      select coalesce(sum(units_bought), 0)::int as units from market_activity where world_id = 1 and product_id = ${wheatId} and week = ${week}`);
    return Number(row!.units);
  }

  it('a market purchase is booked in the new week and walks the new week’s curve', { timeout: 60_000 }, async () => {
    const week = await worldWeek(db);
    const closedWeekFlow = await flowOf(week);
    const { answer } = await duringHeldTurn(
      db,
      () => app.api('POST', '/market/trade', { token: player.token, body: { product_id: wheatId, quantity: 10, action: 'buy' } }),
      'market_activity',
    );
    expect(answer.status).toBe(200);
    const rows = await db.execute<{ week: number }>(sql`select week from transactions where company_id = ${player.companyId} and reason = 'market_buy'`);
    expect(rows.map((row) => Number(row.week))).toEqual([week + 1]);
    // The closed week's flow (which set the new price) is as the turn read it; the purchase is in the new week's.
    expect(await flowOf(week)).toBe(closedWeekFlow);
    expect(await flowOf(week + 1)).toBeGreaterThanOrEqual(10);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('a share purchase is booked in the new week on both sides', { timeout: 60_000 }, async () => {
    const { week, answer } = await duringHeldTurn(
      db,
      () => app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: issuer, shares: 10, action: 'buy' } }),
      'order by id for update', // the trade's lock of both companies (lockCompanies), held by the turn
    );
    expect(answer.status).toBe(200);
    const rows = await db.execute<{ week: number }>(sql`
      select week from transactions where reason in ('stock_buy', 'share_issue') and company_id in (${player.companyId}, ${issuer}) and counterparty_company_id in (${player.companyId}, ${issuer})`);
    expect(rows.map((row) => Number(row.week))).toEqual([week + 1, week + 1]);
    expect(await ledgerMismatches(db)).toEqual([]);
    expect(await shareMismatches(db)).toEqual([]);
  });
});
