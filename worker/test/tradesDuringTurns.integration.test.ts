/**
 * Share trades while turns run (a drill finding: trades locked share_records and then the company
 * rows, the turn the companies and then share_records; PostgreSQL counted deadlocks, a trade
 * answered 500 and the turn failed). Now both take the company rows first, in id order: players
 * trading each other's shares and the bots' through the HTTP API during three turns get no 5xx,
 * every turn advances, and PostgreSQL records no deadlock. Since the worlds table, the turn's lock
 * on the world row is FOR NO KEY UPDATE (a trade's ledger insert checks its foreign key to the world
 * with FOR KEY SHARE), and the turn reads cash only after it holds the company locks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { companies, ledgerMismatches } from '@marketcraft/db';
import { startTestApp, type TestApp, type TestPlayer } from '../../api/test/helpers/testApp.ts';
import { runTurn } from '../src/turn/index.ts';
import { worldWeek } from './fixtures.ts';

describe('share trades during turns', () => {
  let app: TestApp;
  let players: TestPlayer[];
  let listed: number[];

  beforeAll(async () => {
    app = await startTestApp();
    players = await Promise.all(Array.from({ length: 6 }, () => app.createPlayer({ cash: 2_000_000 })));
    const bots = await app.database.db
      .select({ id: companies.id })
      .from(companies)
      .where(and(eq(companies.isBot, true), eq(companies.status, 'active')))
      .limit(4);
    listed = [...bots.map((bot) => bot.id), ...players.map((player) => player.companyId)];
  });
  afterAll(async () => {
    await app.close();
  });

  async function deadlocks(): Promise<number> {
    await app.database.db.execute(sql`select pg_stat_clear_snapshot()`);
    const [row] = await app.database.db.execute<{ deadlocks: number }>(sql`select deadlocks from pg_stat_database where datname = current_database()`);
    return Number(row?.deadlocks ?? 0);
  }

  it('no 5xx, every turn advances, no deadlock', { timeout: 120_000 }, async () => {
    const deadlocksBefore = await deadlocks();
    const statuses = new Map<number, number>();
    let trading = true;
    const traders = players.map(async (player, index) => {
      let step = index;
      while (trading) {
        step += 1;
        const target = listed[step % listed.length]!;
        if (target === player.companyId) continue;
        const response = await app.api('POST', '/stocks/trade', {
          token: player.token,
          body: { company_id: target, shares: 1 + (step % 5), action: step % 3 === 0 ? 'sell' : 'buy' },
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) throw new Error(`trade answered ${response.status}: ${JSON.stringify(response.body)}`);
      }
    });
    // Each turn starts once four more trades have gone through since the last one, so trades are in
    // flight when it starts and go on while it runs, however fast the turn is on this machine.
    const traded = () => statuses.get(200) ?? 0;
    const results = [];
    try {
      for (let turn = 0; turn < 3; turn += 1) {
        const before = traded();
        while (traded() < before + 4) await new Promise((resolve) => setTimeout(resolve, 10));
        const week = await worldWeek(app.database.db);
        results.push(await runTurn(app.database.db, { week }));
      }
    } finally {
      trading = false;
    }
    await Promise.all(traders);
    expect(results.map((result) => result.status)).toEqual(['advanced', 'advanced', 'advanced']);
    console.info(`[trades during turns] answers by status: ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(traded()).toBeGreaterThanOrEqual(12);
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    // Statistics reach pg_stat_database within a second of a backend going idle.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await deadlocks()).toBe(deadlocksBefore);
    // Every cash change is in the ledger: the turn's cash snapshot is taken after the company locks,
    // so a trade committed while the turn waited is not overwritten.
    expect(await ledgerMismatches(app.database.db)).toEqual([]);
  });
});
