/**
 * `npm run bench:economy [-- --weeks 50 --seeds 20261121,7,11]`: plays a fresh seeded world for N
 * weeks per world seed with scripted companies side by side (idle, the taught chain, a reseller, an
 * arbitrageur, a share speculator with a friendly company) plus the 25 bots, using only the game's
 * operations (db/src/game) between turns and the real turn (runTurn, bots included). Prints
 * markdown tables: per strategy net worth, profit per dollar invested and payback; world figures;
 * where money came from; and the economy's targets (issue 9) with PASS/FAIL. docs/economy-benchmark.md.
 */
import { sql } from 'drizzle-orm';
import { mulberry32 } from '@marketcraft/shared';
import { buildingForecast } from '@marketcraft/db';
import { runTurn } from '../../src/turn/index.ts';
import { startBenchServer, foundPlayer } from './world.ts';
import { loadCatalogue, type Strategy, type StrategyContext } from './strategies/common.ts';
import { idleStrategy } from './strategies/idle.ts';
import { chainStrategy } from './strategies/chain.ts';
import { resellerStrategy } from './strategies/reseller.ts';
import { arbitrageurStrategy } from './strategies/arbitrageur.ts';
import { speculatorStrategy } from './strategies/speculator.ts';
import { exchangeArbitrageurStrategy, playerMarketMakerStrategy } from './strategies/exchange.ts';
import {
  bankruptcies,
  capitalSpentByCompany,
  capitalSpentCents,
  cashByCompany,
  checkMoney,
  ledgerByReason,
  maxLedgerId,
  meanWeeklyProfitCents,
  weeklyLedgerByReason,
  netWorths,
  priceFigures,
  type MoneyCheck,
  type PriceFigures,
} from './measure.ts';
import {
  AGE_WEEKS,
  LATE_JOINER_ALL_FOUR_NAME,
  LATE_JOINER_NAME,
  LATE_JOINER_WEEK,
  SMALL_CHAIN_NAME,
  printSeedReport,
  printSummary,
  type RateFigures,
  type SeedResult,
  type StrategyRow,
} from './report.ts';
import type { DbExecutor } from '@marketcraft/db';

/** Weeks of books the payback figure averages the weekly profit over. */
const PAYBACK_WINDOW_WEEKS = 10;
/** A newly founded (idle) company joins in the first week and every this many weeks after: new listings for the speculator. */
const NEWCOMER_EVERY_WEEKS = 10;
/** A player who signs up after the early-bird bonuses: $100,000. */
const SMALL_GRANT_CENTS = 10_000_000;
/** Cash the $100,000 chains keep before they hire or grow (the $500,000 ones keep $150,000). */
const SMALL_CHAIN_RESERVE_CENTS = 2_000_000;
/**
 * What each bot strategy is (docs/bots.md): the per-dollar target compares everything with the best
 * making strategy. Retail focus stocks its shelves from the market (a reseller); the commodity
 * trader trades goods; the value investor trades shares; the others build and run chains.
 */
const BOT_KINDS: Record<string, StrategyRow['kind']> = { retail_focus: 'retail', commodity_trader: 'trading', value_investor: 'shares' };

function average(values: number[]): number {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
}

function parseArgs(argv: string[]): { weeks: number; seeds: number[] } {
  const value = (flag: string) => {
    const index = argv.indexOf(flag);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  // 60 weeks: the late joiner, founded in week 30, plays its 30 weeks.
  const weeks = Number.parseInt(value('--weeks') ?? '60', 10);
  const seeds = (value('--seeds') ?? '20261121').split(',').map((seed) => Number.parseInt(seed.trim(), 10));
  if (!Number.isSafeInteger(weeks) || weeks < 1 || seeds.some((seed) => !Number.isSafeInteger(seed))) {
    throw new Error('usage: npm run bench:economy -- [--weeks 60] [--seeds 20261121,7,11]');
  }
  return { weeks, seeds };
}

interface Player {
  strategy: Strategy;
  /** The week of the run it was founded in (1: before the first turn). */
  joinedWeek: number;
  /** Its net worth after its first AGE_WEEKS turns (null until then). */
  ageWorthCents: number | null;
  ids: number[];
  startCents: number;
  lowestCashCents: number;
  notes: Map<string, number>;
  /** Time spent deciding and making its moves (the game's operations included). */
  playMs: number;
  /** Capital it had spent (buildings, hires, equipment, research) by each week, after its moves. */
  capitalByWeek: number[];
}

/**
 * The week's profit of the companies' production buildings at 100%, 150% and 200% and each one's
 * best rate, from the buildings' own forecasts (the overtime table a player sees), at the end of the run.
 */
async function overtimeTable(db: DbExecutor, companyIds: number[]): Promise<RateFigures | undefined> {
  const buildings = await db.execute<{ id: number; company_id: number }>(sql`
    select b.id, b.company_id from buildings b join companies c on c.id = b.company_id
    where b.company_id in ${sql`(${sql.join(
      companyIds.map((id) => sql`${id}`),
      sql`, `,
    )})`} and c.status = 'active' and b.selected_recipe_id is not null
    order by b.id`);
  if (buildings.length === 0) return undefined;
  const figures: RateFigures = { buildings: 0, at100Cents: 0, at150Cents: 0, at200Cents: 0, bestRates: [] };
  for (const building of buildings) {
    const overtime = (await buildingForecast(db, Number(building.company_id), Number(building.id))).overtime;
    if (!overtime) continue;
    const at = (rate: number) => Math.round((overtime.rates.find((row) => row.rate === rate)?.profit ?? 0) * 100);
    figures.buildings += 1;
    figures.at100Cents += at(100);
    figures.at150Cents += at(150);
    figures.at200Cents += at(200);
    figures.bestRates.push(overtime.best_rate);
  }
  return figures;
}

async function playSeed(server: Awaited<ReturnType<typeof startBenchServer>>, seed: number, weeks: number): Promise<SeedResult> {
  const started = performance.now();
  const connection = await server.freshWorld(seed);
  const { db } = connection;
  try {
    const catalogue = await loadCatalogue(db);
    const rng = mulberry32(seed);
    const players: Player[] = [];
    const newcomers: number[] = [];
    // Who plays, and from when: the late joiner is founded in week LATE_JOINER_WEEK with $100,000,
    // beside a taught chain founded in week 1 with the same grant (what it is measured against).
    const smallChain = (name: string, reading: 'list' | 'market' = 'list', buildOrBuy = false) =>
      chainStrategy({ name, pricing: 'reference', siteOffset: 2, reserveCents: SMALL_CHAIN_RESERVE_CENTS, reading, buildOrBuy });
    const entries: { strategy: Strategy; joinedWeek: number; startingCashCents?: number }[] = [
      ...[
        idleStrategy(),
        chainStrategy({ name: 'taught chain', pricing: 'reference' }),
        chainStrategy({ name: 'chain priced by forecast', pricing: 'forecast', siteOffset: 1 }),
        resellerStrategy(),
        // The economy audit's careful reseller, opening its first stores 10 cities down the list.
        resellerStrategy({ name: 'reseller by demand', pick: 'demand', siteOffset: 10, startMultiple: 1.6 }),
        // economy4's min-maxer: the careful reseller with a decoy store beside each store (a one-unit shelf at $0.01).
        resellerStrategy({ name: 'decoy reseller', pick: 'demand', siteOffset: 5, startMultiple: 2, decoy: true }),
        arbitrageurStrategy(),
        speculatorStrategy(),
        // The exchange's call auction (docs/exchange.md): round trips with the instant market, and quotes inside the maker's spread.
        exchangeArbitrageurStrategy(),
        playerMarketMakerStrategy(),
      ].map((strategy) => ({ strategy, joinedWeek: 1 })),
      { strategy: smallChain(SMALL_CHAIN_NAME), joinedWeek: 1, startingCashCents: SMALL_GRANT_CENTS },
      { strategy: smallChain(LATE_JOINER_NAME, 'market', true), joinedWeek: LATE_JOINER_WEEK, startingCashCents: SMALL_GRANT_CENTS },
      // The same newcomer building all four steps at once, even for a glutted grain and flour (information, not a target).
      { strategy: smallChain(LATE_JOINER_ALL_FOUR_NAME, 'market'), joinedWeek: LATE_JOINER_WEEK, startingCashCents: SMALL_GRANT_CENTS },
    ];
    const found = async (entry: (typeof entries)[number]) => {
      const { strategy } = entry;
      const ids: number[] = [];
      let startCents = 0;
      for (let index = 0; index <= (strategy.partners ?? 0); index += 1) {
        const company = await foundPlayer(db, index === 0 ? `Bench ${strategy.name}` : `Bench ${strategy.name} friend ${index}`, entry.startingCashCents);
        ids.push(company.id);
        startCents += company.cashCents;
      }
      players.push({
        strategy,
        joinedWeek: entry.joinedWeek,
        ageWorthCents: null,
        ids,
        startCents,
        lowestCashCents: startCents,
        notes: new Map(),
        playMs: 0,
        capitalByWeek: [],
      });
    };
    for (const entry of entries.filter((item) => item.joinedWeek === 1)) await found(entry);

    const bots = await db.execute<{ id: number; name: string; strategy: string; cash_cents: number; buildings_cents: number }>(sql`
      select c.id, c.name, c.strategy, c.cash_cents,
             coalesce((select sum(construction_cost_cents) from buildings b where b.company_id = c.id), 0)::bigint as buildings_cents
      from companies c where c.is_bot order by c.id`);
    const botLowestCash = new Map(bots.map((bot) => [Number(bot.id), Number(bot.cash_cents)]));
    const botCapitalByWeek = new Map<number, number[]>();
    const worthAtStart = await netWorths(db);
    const cashAtStart = await cashByCompany(db);
    const ledgerStart = await maxLedgerId(db);
    const [{ week: firstWeek } = { week: 1 }] = await db.execute<{ week: number }>(sql`select current_week as week from worlds`);

    let turnMs = 0;
    for (let played = 0; played < weeks; played += 1) {
      const week = Number(firstWeek) + played;
      if (played % NEWCOMER_EVERY_WEEKS === 0) newcomers.push((await foundPlayer(db, `Bench newcomer week ${week}`)).id);
      for (const entry of entries.filter((item) => item.joinedWeek > 1 && item.joinedWeek === played + 1)) await found(entry);
      const active = new Set((await db.execute<{ id: number }>(sql`select id from companies where status = 'active'`)).map((row) => Number(row.id)));
      for (const player of players) {
        // A bankrupt company is frozen: its player would have to found a new one.
        if (!active.has(player.ids[0]!)) continue;
        const playStart = performance.now();
        const ctx: StrategyContext = {
          db,
          companyId: player.ids[0]!,
          partnerIds: player.ids.slice(1),
          catalogue,
          rng,
          newcomers: () => [...newcomers],
          note: (what) => player.notes.set(what, (player.notes.get(what) ?? 0) + 1),
        };
        await player.strategy.play(ctx, week);
        player.playMs += performance.now() - playStart;
      }
      const cash = await cashByCompany(db);
      for (const player of players) {
        const total = player.ids.reduce((sum, id) => sum + (cash.get(id) ?? 0), 0);
        player.lowestCashCents = Math.min(player.lowestCashCents, total);
        player.capitalByWeek.push(await capitalSpentCents(db, player.ids));
      }
      const turnStart = performance.now();
      const result = await runTurn(db);
      turnMs += performance.now() - turnStart;
      if (result.status !== 'advanced') throw new Error(`turn skipped: ${result.reason}`);
      // Net worth after a player's first AGE_WEEKS turns (the late joiner's target compares these).
      const aged = players.filter((player) => played + 1 - (player.joinedWeek - 1) === AGE_WEEKS);
      if (aged.length > 0) {
        const worths = await netWorths(db);
        for (const player of aged) player.ageWorthCents = player.ids.reduce((sum, id) => sum + (worths.get(id) ?? 0), 0);
      }
      const after = await cashByCompany(db);
      for (const [id, lowest] of botLowestCash) botLowestCash.set(id, Math.min(lowest, after.get(id) ?? lowest));
      // Bots move at the end of the turn: their capital in place for the next week.
      const botCapital = await capitalSpentByCompany(db, [...botLowestCash.keys()]);
      for (const id of botLowestCash.keys()) botCapitalByWeek.set(id, [...(botCapitalByWeek.get(id) ?? []), botCapital.get(id) ?? 0]);
      if ((played + 1) % 10 === 0)
        console.error(`[bench:economy] seed ${seed}: week ${played + 1}/${weeks} (${Math.round((performance.now() - started) / 1000)} s)`);
    }

    const worth = await netWorths(db);
    const rows: StrategyRow[] = [];
    for (const player of players) {
      const endCents = player.ids.reduce((sum, id) => sum + (worth.get(id) ?? 0), 0);
      const weeklyProfit = await meanWeeklyProfitCents(db, player.ids, PAYBACK_WINDOW_WEEKS);
      const refused = [...player.notes].filter(([what]) => what.endsWith('refused')).reduce((sum, [, count]) => sum + count, 0);
      rows.push({
        name: player.strategy.name,
        kind: player.strategy.kind,
        companies: player.ids.length,
        startCents: player.startCents,
        endCents,
        investedCents: player.startCents - player.lowestCashCents,
        capitalCents: average(player.capitalByWeek.slice(-PAYBACK_WINDOW_WEEKS)),
        weeklyLedger: await weeklyLedgerByReason(db, player.ids, PAYBACK_WINDOW_WEEKS),
        weeklyProfitCents: weeklyProfit,
        details: player.strategy.details?.(),
        joinedWeek: player.joinedWeek,
        ageWorthCents: player.ageWorthCents,
        rates: await overtimeTable(db, player.ids),
        figures: {
          ...(player.strategy.figures?.() ?? {}),
          ...(refused ? { 'moves refused': String(refused) } : {}),
          'play time': `${(player.playMs / 1000).toFixed(0)} s`,
        },
      });
    }
    // The bots, one row per strategy: its best company (and how many play it).
    const byStrategy = new Map<string, (typeof bots)[number][]>();
    for (const bot of bots) byStrategy.set(bot.strategy, [...(byStrategy.get(bot.strategy) ?? []), bot]);
    for (const [strategy, group] of byStrategy) {
      const measured = [];
      for (const bot of group) {
        const id = Number(bot.id);
        measured.push({
          bot,
          id,
          startCents: worthAtStart.get(id) ?? 0,
          endCents: worth.get(id) ?? 0,
          investedCents: Number(bot.buildings_cents) + Number(bot.cash_cents) - (botLowestCash.get(id) ?? Number(bot.cash_cents)),
        });
      }
      measured.sort((a, b) => b.endCents - a.endCents);
      const best = measured[0]!;
      rows.push({
        name: `bot: ${strategy.replaceAll('_', ' ')} (best of ${group.length})`,
        kind: BOT_KINDS[strategy] ?? 'making',
        companies: 1,
        startCents: best.startCents,
        endCents: best.endCents,
        investedCents: best.investedCents,
        capitalCents: average((botCapitalByWeek.get(best.id) ?? []).slice(-PAYBACK_WINDOW_WEEKS)),
        weeklyProfitCents: await meanWeeklyProfitCents(db, [best.id], PAYBACK_WINDOW_WEEKS),
        rates: await overtimeTable(db, [best.id]),
        figures: { company: best.bot.name, 'bots bankrupt': String(group.filter((bot) => !worth.has(Number(bot.id))).length) },
      });
    }

    // Money: every company's cash at the start, plus the opening balance of those founded during the
    // run (not a ledger row), against the ledger's rows since the start.
    const cashEnd = await cashByCompany(db);
    const sum = (map: Map<number, number>) => [...map.values()].reduce((total, value) => total + value, 0);
    const [opened] = await db.execute<{ total: number }>(sql`
      select coalesce(sum(starting_cash_cents), 0)::bigint as total from companies where id > ${Math.max(...cashAtStart.keys())}`);
    const money: MoneyCheck = checkMoney(sum(cashAtStart) + Number(opened?.total ?? 0), sum(cashEnd), await ledgerByReason(db, ledgerStart));
    const prices: PriceFigures = await priceFigures(db);
    return {
      seed,
      weeks,
      seconds: Math.round((performance.now() - started) / 1000),
      turnSeconds: Math.round(turnMs / 1000),
      rows,
      money,
      prices,
      bankrupt: await bankruptcies(db),
    };
  } finally {
    await connection.close();
  }
}

const { weeks, seeds } = parseArgs(process.argv.slice(2));
const server = await startBenchServer();
// Interrupted (Ctrl-C, a kill): stop the embedded server too, so no PostgreSQL is left running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.stop().finally(() => process.exit(130));
  });
}
const results: SeedResult[] = [];
try {
  // The worlds are independent databases: they play at the same time (most of the time is spent
  // waiting for PostgreSQL), and are printed in the order given.
  results.push(...(await Promise.all(seeds.map((seed) => playSeed(server, seed, weeks)))));
  for (const result of results) printSeedReport(result);
  printSummary(results);
} finally {
  await server.stop();
}
