/**
 * The economy benchmark's tables (markdown) and its targets (issue 9, item 8), checked per world
 * seed and over all of them.
 */
import type { MoneyCheck, PriceFigures } from './measure.ts';
import { MONEY_SINKS, MONEY_SOURCES } from './measure.ts';

/** The late joiner (issue 26): founded in this week of the run with $100,000, playing the taught chain. */
export const LATE_JOINER_WEEK = 30;
/** ... and measured after this many weeks against the week-1 players with the same grant after as many. */
export const AGE_WEEKS = 30;
export const LATE_JOINER_NAME = `late joiner ($100k, week ${LATE_JOINER_WEEK})`;
/** The same newcomer building all four steps at its founding (information beside the target). */
export const LATE_JOINER_ALL_FOUR_NAME = `late joiner, all four built ($100k, week ${LATE_JOINER_WEEK})`;
/** The taught chain founded in week 1 with $100,000: the week-1 player with the late joiner's grant. */
export const SMALL_CHAIN_NAME = 'taught chain ($100k, week 1)';

/** A strategy's production buildings at the end: the week's profit at 100/150/200% and each one's best rate (their forecasts). */
export interface RateFigures {
  buildings: number;
  at100Cents: number;
  at150Cents: number;
  at200Cents: number;
  bestRates: number[];
}

export interface StrategyRow {
  name: string;
  /** making strategies (the chain, bots that own production buildings) are the per-dollar yardstick. */
  kind: 'idle' | 'making' | 'retail' | 'trading' | 'shares';
  companies: number;
  startCents: number;
  endCents: number;
  /** The most cash it ever had out (starting cash - its lowest cash), plus buildings it started with at cost. */
  investedCents: number;
  /** Spent on buildings, hires, equipment and research: the average in place over the last weeks (capital employed). */
  capitalCents: number;
  /** Mean weekly profit after tax over the last weeks (the books' figure). */
  weeklyProfitCents: number;
  figures: Record<string, string>;
  /** A table of its own (the arbitrageur's round trips by route). */
  details?: string;
  /** Scripted strategies: its ledger by reason, per week over the last weeks. */
  weeklyLedger?: Map<string, number>;
  /** Scripted strategies: the week of the run it was founded in. */
  joinedWeek?: number;
  /** Scripted strategies: its net worth after its first AGE_WEEKS weeks (null: the run was shorter). */
  ageWorthCents?: number | null;
  rates?: RateFigures;
}

export interface SeedResult {
  seed: number;
  weeks: number;
  seconds: number;
  /** Of which the turns (bots included). */
  turnSeconds: number;
  rows: StrategyRow[];
  money: MoneyCheck;
  prices: PriceFigures;
  bankrupt: { name: string; isBot: boolean }[];
}

/** The chain beats idle by a wide margin: its net worth at least this multiple of idle's. */
const CHAIN_OVER_IDLE = 2;
/** ... and pays back its buildings (construction, hires) within this many weeks of its profit. */
const CHAIN_PAYBACK_WEEKS = 15;
/** No strategy earns more per dollar than the best making strategy by more than this factor. */
const PER_DOLLAR_LEAD = 1.5;
/** Prices move: the median |price/base - 1| above this. */
const MIN_MEDIAN_DEVIATION = 0.02;

const dollars = (cents: number) => `$${Math.round(cents / 100).toLocaleString('en-US')}`;
const signed = (cents: number) => `${cents < 0 ? '-' : '+'}${dollars(Math.abs(cents))}`;

function profitCents(row: StrategyRow): number {
  return row.endCents - row.startCents;
}

function perDollar(row: StrategyRow): number | null {
  return row.investedCents > 0 ? profitCents(row) / row.investedCents : null;
}

/**
 * Weeks of its recent weekly profit that pay back what it spent on buildings, hires, equipment and
 * research (the capital in place over the same weeks, so a building opened last week counts little).
 */
function paybackWeeks(row: StrategyRow): number | null {
  if (row.capitalCents <= 0 || row.weeklyProfitCents <= 0) return null;
  return row.capitalCents / row.weeklyProfitCents;
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

interface Target {
  name: string;
  value: string;
  pass: boolean;
}

function targets(result: SeedResult): Target[] {
  const row = (name: string) => result.rows.find((item) => item.name === name)!;
  const chain = row('taught chain');
  const idle = row('idle');
  const making = result.rows.filter((item) => item.kind === 'making' && perDollar(item) !== null);
  const best = making.reduce((top, item) => (perDollar(item)! > perDollar(top)! ? item : top), making[0]!);
  const bestPerDollar = perDollar(best) ?? 0;
  const others = result.rows.filter((item) => item.kind !== 'making' && perDollar(item) !== null);
  const leader = others.reduce((top, item) => (perDollar(item)! > perDollar(top)! ? item : top), others[0]!);
  const leadRatio = bestPerDollar > 0 ? perDollar(leader)! / bestPerDollar : Number.POSITIVE_INFINITY;
  // "At sensible prices": the prices the stores' own forecasts show are best, what the game tells a
  // player. Keeping the reference price while a store sells out every week leaves money on the
  // table (docs/economy.md, Store sales, Pricing), so the reference-priced chain's payback is shown
  // beside it, as information.
  const priced = row('chain priced by forecast');
  const payback = paybackWeeks(priced);
  const referencePayback = paybackWeeks(chain);
  const arbitrageur = row('arbitrageur');
  const speculator = row('share speculator');
  const exchangeArbitrageur = row('exchange arbitrageur');
  const exchangeTrips = exchangeArbitrageur.figures['round trips P&L'] ?? '$0';
  const tripPnl = arbitrageur.figures['round trips P&L'] ?? '$0';
  const moneyNet = result.money.endCents - result.money.startCents;
  // The late joiner against the week-1 players with the same grant, each after AGE_WEEKS weeks.
  const lateJoiner = result.rows.find((item) => item.name === LATE_JOINER_NAME);
  const peers = result.rows.filter((item) => item.joinedWeek === 1 && item.startCents === lateJoiner?.startCents && item.ageWorthCents != null);
  const peerMedian = median(peers.map((item) => item.ageWorthCents!));
  const lateWorth = lateJoiner?.ageWorthCents ?? null;
  return [
    {
      name: `a late joiner catches up (founded in week ${LATE_JOINER_WEEK} with $100,000: after ${AGE_WEEKS} weeks >= the median week-1 player with that grant after ${AGE_WEEKS})`,
      value:
        lateWorth === null || peerMedian === null
          ? `not measured: needs ${LATE_JOINER_WEEK - 1 + AGE_WEEKS} weeks (--weeks)`
          : `${dollars(lateWorth)} vs ${dollars(peerMedian)} (${peers.map((item) => item.name).join(', ')})`,
      pass: lateWorth !== null && peerMedian !== null && lateWorth >= peerMedian,
    },
    {
      name: `the chain beats idle by a wide margin (net worth >= ${CHAIN_OVER_IDLE}x idle's)`,
      value: `${dollars(chain.endCents)} vs ${dollars(idle.endCents)} (${(chain.endCents / idle.endCents).toFixed(2)}x)`,
      pass: chain.endCents >= CHAIN_OVER_IDLE * idle.endCents,
    },
    {
      name: `the chain pays back its buildings within ${CHAIN_PAYBACK_WEEKS} weeks (priced by its stores' forecasts)`,
      value: `${payback === null ? 'never (no profit)' : `${payback.toFixed(1)} weeks`} (at reference prices: ${referencePayback === null ? 'never' : `${referencePayback.toFixed(1)} weeks`})`,
      pass: payback !== null && payback <= CHAIN_PAYBACK_WEEKS,
    },
    {
      name: `no strategy earns more per dollar than the best making one by more than ${PER_DOLLAR_LEAD}x`,
      value: `${leader.name} ${fmtRatio(perDollar(leader))} vs ${best.name} ${fmtRatio(bestPerDollar)} (${Number.isFinite(leadRatio) ? leadRatio.toFixed(2) : 'inf'}x)`,
      pass: leadRatio <= PER_DOLLAR_LEAD,
    },
    {
      name: 'the arbitrageur does not profit (round trips and net worth)',
      value: `round trips ${tripPnl} (${arbitrageur.figures['round trips that paid'] ?? 0} of ${arbitrageur.figures['round trips'] ?? 0} paid), net worth ${signed(profitCents(arbitrageur))}`,
      pass: profitCents(arbitrageur) <= 0 && Number(tripPnl.replace(/[^0-9-]/g, '')) <= 0,
    },
    {
      name: 'the exchange arbitrageur does not profit (round trips between the instant market and the auction, and net worth)',
      value: `round trips ${exchangeTrips} (${exchangeArbitrageur.figures['round trips that paid'] ?? 0} of ${exchangeArbitrageur.figures['round trips'] ?? 0} paid), net worth ${signed(profitCents(exchangeArbitrageur))}`,
      pass: profitCents(exchangeArbitrageur) <= 0 && Number(exchangeTrips.replace(/[^0-9-]/g, '')) <= 0,
    },
    {
      name: 'the share speculator (with its friend) does not profit',
      value: `net worth ${signed(profitCents(speculator))}`,
      pass: profitCents(speculator) <= 0,
    },
    {
      name: `prices move (median abs(price/base - 1) > ${MIN_MEDIAN_DEVIATION * 100}%)`,
      value: `${(result.prices.medianDeviation * 100).toFixed(1)}%`,
      pass: result.prices.medianDeviation > MIN_MEDIAN_DEVIATION,
    },
    {
      name: 'prices stay off their bounds (0.25x and 4x base)',
      value: `${result.prices.atFloor.length} at the floor, ${result.prices.atCeiling.length} at the ceiling of ${result.prices.products}`,
      pass: result.prices.atFloor.length + result.prices.atCeiling.length === 0,
    },
    {
      name: 'total money grows only as documented (ledger reconciles, every reason documented)',
      value: `${signed(moneyNet)} = ledger ${signed(result.money.ledgerCents)}${result.money.undocumented.length ? `; undocumented: ${result.money.undocumented.join(', ')}` : ''}${result.money.unbalanced.length ? `; unbalanced: ${result.money.unbalanced.join(', ')}` : ''}`,
      pass: result.money.ok,
    },
  ];
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

/** Per strategy: its production buildings' week at 100%, 150% and 200% (their forecasts at the end) and their best rates. */
function rateTable(result: SeedResult): string {
  const withRates = result.rows.filter((row) => row.rates);
  const span = (rates: number[]) => (rates.length ? `${Math.min(...rates)}-${Math.max(...rates)}% (median ${median(rates)}%)` : '-');
  return table(
    ['strategy', 'production buildings', 'profit a week at 100%', 'at 150%', 'at 200%', 'best rates'],
    withRates.map((row) => [
      row.name,
      String(row.rates!.buildings),
      signed(row.rates!.at100Cents),
      signed(row.rates!.at150Cents),
      signed(row.rates!.at200Cents),
      span(row.rates!.bestRates),
    ]),
  );
}

function fmtRatio(value: number | null): string {
  return value === null ? '-' : `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
}

function strategyTable(result: SeedResult): string {
  return table(
    ['strategy', 'net worth', 'profit', 'invested', 'profit per $', 'payback weeks', 'notes'],
    result.rows.map((row) => {
      const payback = paybackWeeks(row);
      return [
        row.name + (row.companies > 1 ? ` (${row.companies} companies)` : ''),
        dollars(row.endCents),
        signed(profitCents(row)),
        row.investedCents > 0 ? dollars(row.investedCents) : '-',
        fmtRatio(perDollar(row)),
        payback === null ? (row.capitalCents > 0 ? 'never' : '-') : payback.toFixed(1),
        Object.entries(row.figures)
          .map(([key, value]) => `${key}: ${value}`)
          .join('; '),
      ];
    }),
  );
}

/** Where each scripted strategy's money came from and went, per week over the last weeks of the run. */
function weeklyLedgerTable(rows: StrategyRow[]): string {
  const reasons = [...new Set(rows.flatMap((row) => [...row.weeklyLedger!.keys()]))].filter((reason) => reason !== 'production').sort();
  const perWeek = (cents: number | undefined) => (cents ? signed(Math.round(cents)) : '');
  return table(
    ['per week, last 10 weeks', ...rows.map((row) => row.name)],
    [
      ...reasons.map((reason) => [reason, ...rows.map((row) => perWeek(row.weeklyLedger!.get(reason)))]),
      ['weekly profit after tax (books)', ...rows.map((row) => signed(Math.round(row.weeklyProfitCents)))],
      ['capital in place (average)', ...rows.map((row) => dollars(row.capitalCents))],
    ],
  );
}

export function printSeedReport(result: SeedResult): void {
  const { money, prices } = result;
  console.log(`\n## World seed ${result.seed}: ${result.weeks} weeks (${result.seconds} s, of which turns ${result.turnSeconds} s)\n`);
  console.log(strategyTable(result));
  console.log('');
  console.log(
    `Net worth after ${AGE_WEEKS} weeks: ${
      result.rows
        .filter((row) => row.ageWorthCents != null)
        .map((row) => `${row.name} ${dollars(row.ageWorthCents!)}`)
        .join('; ') || '-'
    }`,
  );
  console.log('');
  console.log(rateTable(result));
  console.log('');
  console.log(
    table(
      ['total money at start', 'at the end', 'change', 'median abs(price/base - 1)', 'prices at floor / ceiling', 'bankruptcies'],
      [
        [
          dollars(money.startCents),
          dollars(money.endCents),
          signed(money.endCents - money.startCents),
          `${(prices.medianDeviation * 100).toFixed(1)}%`,
          `${prices.atFloor.length} / ${prices.atCeiling.length} of ${prices.products}${[...prices.atFloor, ...prices.atCeiling].length ? ` (${[...prices.atFloor, ...prices.atCeiling].join(', ')})` : ''}`,
          result.bankrupt.length ? `${result.bankrupt.length}: ${result.bankrupt.map((item) => item.name).join(', ')}` : '0',
        ],
      ],
    ),
  );
  console.log('');
  const kind = (reason: string) =>
    (MONEY_SOURCES as readonly string[]).includes(reason)
      ? 'money in'
      : (MONEY_SINKS as readonly string[]).includes(reason)
        ? 'money out'
        : 'between companies';
  console.log(
    table(
      ['ledger reason', 'kind', 'total'],
      [...money.byReason].filter(([, total]) => total !== 0).map(([reason, total]) => [reason, kind(reason), signed(total)]),
    ),
  );
  console.log('');
  for (const row of result.rows.filter((item) => item.details)) console.log(`${row.details}\n`);
  console.log(weeklyLedgerTable(result.rows.filter((row) => row.weeklyLedger && row.kind !== 'idle')));
  console.log('');
  console.log(
    table(
      ['target', 'value', 'result'],
      targets(result).map((target) => [target.name, target.value, target.pass ? 'PASS' : 'FAIL']),
    ),
  );
}

/** Per strategy over the seeds (min - max), and each target over the seeds. Returns whether every target passed on every seed. */
export function printSummary(results: SeedResult[]): boolean {
  if (results.length === 0) return true;
  const range = (values: number[], format: (value: number) => string) => {
    const low = Math.min(...values);
    const high = Math.max(...values);
    return low === high ? format(low) : `${format(low)} to ${format(high)}`;
  };
  console.log(`\n## Summary: ${results[0]!.weeks} weeks, world seeds ${results.map((result) => result.seed).join(', ')}\n`);
  const names = results[0]!.rows.map((row) => row.name);
  console.log(
    table(
      ['strategy', 'net worth', 'profit per $', 'payback weeks'],
      names.map((name) => {
        const rows = results.map((result) => result.rows.find((row) => row.name === name)).filter((row) => row !== undefined);
        const perDollars = rows.map(perDollar).filter((value) => value !== null);
        const paybacks = rows.map(paybackWeeks);
        return [
          name,
          range(
            rows.map((row) => row.endCents),
            dollars,
          ),
          perDollars.length ? range(perDollars, (value) => fmtRatio(value)) : '-',
          paybacks.every((value) => value !== null)
            ? range(paybacks as number[], (value) => value.toFixed(1))
            : paybacks.some((value) => value !== null)
              ? 'some never'
              : '-',
        ];
      }),
    ),
  );
  console.log('');
  const perSeed = results.map(targets);
  let all = true;
  const rows = perSeed[0]!.map((target, index) => {
    const passes = perSeed.map((seedTargets) => seedTargets[index]!.pass);
    all &&= passes.every(Boolean);
    return [target.name, ...perSeed.map((seedTargets) => `${seedTargets[index]!.pass ? 'PASS' : 'FAIL'}: ${seedTargets[index]!.value}`)];
  });
  console.log(table(['target', ...results.map((result) => `seed ${result.seed}`)], rows));
  console.log(`\n${all ? 'PASS' : 'FAIL'}: ${all ? 'every target met on every seed' : 'some targets not met (see above)'}`);
  return all;
}
