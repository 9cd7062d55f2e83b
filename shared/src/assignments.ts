/**
 * Graded assignments in a class world (docs/classroom.md, "Assignments"): the catalogue of
 * checkpoints an instructor picks from, what each measures (the student's page shows it), and the
 * question built from the terms of a student's own week's profit. The turn's grades phase
 * (worker/src/turn/grades.ts) grades every kind but the question from the week's report; the
 * question is graded by the server when the student answers (db/src/game/assignments/).
 */

import type { FigureUnit } from './figures.ts';

/** The kinds of checkpoint, in the order the editor offers them. */
export const CHECKPOINT_KINDS = ['net_worth', 'weekly_profit', 'chain', 'efficiency', 'no_debt', 'cities', 'profit_question'] as const;
export type CheckpointKind = (typeof CHECKPOINT_KINDS)[number];

/** Points one checkpoint can be worth. */
export const MAX_CHECKPOINT_POINTS = 100;
/** Checkpoints one assignment can have. */
export const MAX_CHECKPOINTS_PER_ASSIGNMENT = 10;
/** Assignments one world can have. */
export const MAX_ASSIGNMENTS_PER_WORLD = 30;
export const MAX_ASSIGNMENT_TITLE_LENGTH = 100;
/** The longest run of weeks a "for N weeks" checkpoint can ask for. */
export const MAX_CHECKPOINT_WEEKS = 52;
/** The highest net worth a checkpoint can ask for, in dollars. */
const MAX_NET_WORTH_TARGET_DOLLARS = 1_000_000_000;
/** The most cities a "sell in N cities" checkpoint can ask for. */
const MAX_CHECKPOINT_CITIES = 50;

/**
 * What a kind of checkpoint needs from the instructor: `target` (dollars of net worth, a percent of
 * efficiency, a number of cities) and/or `weeks` (a run of consecutive weeks).
 */
export const CHECKPOINT_CATALOGUE: Record<
  CheckpointKind,
  { label: string; target?: { label: string; min: number; max: number; unit: 'dollars' | 'percent' | 'count' }; weeks?: { label: string } }
> = {
  net_worth: { label: 'Reach a net worth', target: { label: 'Net worth (dollars)', min: 1, max: MAX_NET_WORTH_TARGET_DOLLARS, unit: 'dollars' } },
  weekly_profit: { label: 'Make a weekly profit for N weeks in a row', weeks: { label: 'Weeks in a row' } },
  chain: { label: 'Run a chain from raw material to a shelf' },
  efficiency: { label: 'Keep every building efficient', target: { label: 'Efficiency at least (%)', min: 1, max: 100, unit: 'percent' } },
  no_debt: { label: 'Hold no debt for N weeks in a row', weeks: { label: 'Weeks in a row' } },
  cities: { label: 'Sell in N cities', target: { label: 'Cities', min: 1, max: MAX_CHECKPOINT_CITIES, unit: 'count' } },
  profit_question: { label: 'Answer: which term moved your profit most?' },
};

export interface CheckpointSpec {
  kind: CheckpointKind;
  /** Dollars (net_worth), percent (efficiency) or cities (cities); null for the other kinds. */
  target: number | null;
  /** Weeks in a row (weekly_profit, no_debt); null for the other kinds. */
  weeks: number | null;
}

const dollarsText = (dollars: number) => `$${dollars.toLocaleString('en-US')}`;
const weeksText = (weeks: number) => (weeks === 1 ? '1 week' : `${weeks} weeks`);

/** What a checkpoint measures, in a sentence a student reads on their Assignments page and the gradebook shows. */
export function checkpointMeasures(spec: CheckpointSpec): string {
  switch (spec.kind) {
    case 'net_worth':
      return `Your company's net worth at the end of a week reaches ${dollarsText(spec.target ?? 0)}.`;
    case 'weekly_profit':
      return `Your company makes a profit (after tax, above $0) in ${weeksText(spec.weeks ?? 1)} in a row.`;
    case 'chain':
      return 'In one week your company extracts a raw material, one of your own buildings uses it to make something, and your stores sell to shoppers.';
    case 'efficiency':
      return `At the end of a week every one of your buildings (at least one) has an efficiency of ${spec.target ?? 0}% or more.`;
    case 'no_debt':
      return `Your cash ends ${weeksText(spec.weeks ?? 1)} in a row at $0 or more (no week in debt).`;
    case 'cities':
      return `In one week your stores sell in ${spec.target ?? 0} ${spec.target === 1 ? 'city' : 'different cities'} or more.`;
    case 'profit_question':
      return "You answer which term of one of your weeks' profit moved it most (from that week's report); one answer, graded at once.";
  }
}

/** The terms of a week's profit (the week report's lines), each with its sign in the profit. */
export const PROFIT_TERMS = [
  { name: 'store_revenue', label: 'Store revenue', sign: 1 },
  { name: 'market_sales', label: 'Sales on the market', sign: 1 },
  { name: 'market_purchases', label: 'Purchases on the market', sign: -1 },
  { name: 'wages', label: 'Wages', sign: -1 },
  { name: 'operating', label: 'Operating costs', sign: -1 },
  { name: 'subsidy', label: 'Subsidies', sign: 1 },
  { name: 'tax', label: 'Tax', sign: -1 },
  { name: 'goods_change', label: 'Change in the value of your goods', sign: 1 },
] as const;
export type ProfitTermName = (typeof PROFIT_TERMS)[number]['name'];
export const PROFIT_TERM_NAMES = PROFIT_TERMS.map((term) => term.name) as unknown as readonly [ProfitTermName, ...ProfitTermName[]];

/** A week's report figures the question is built from, in cents as stored. */
export interface WeekProfitFigures {
  profitCents: number;
  storeRevenueCents: number;
  marketSalesCents: number;
  marketPurchasesCents: number;
  wagesCents: number;
  operatingCents: number;
  subsidyCents: number;
  taxCents: number;
}

export interface ProfitQuestion {
  /** The options: every term that moved the week's profit (not $0), in the report's order. */
  options: { name: ProfitTermName; label: string }[];
  /** Each option's signed effect on the profit, in cents (the evidence once answered). */
  effects: Record<ProfitTermName, number>;
  /** The term with the largest effect either way (the first in the report's order among equals). */
  answer: ProfitTermName;
}

/** Fewer terms than this and there is nothing to ask (a week with no costs and no sales). */
const MIN_QUESTION_OPTIONS = 2;

/**
 * The question "which term moved your profit most?" for one week: the options are the week's terms
 * that were not $0, the right answer the one with the largest effect up or down (profit = store
 * revenue + market sales - purchases - wages - operating costs + subsidies - tax + change in goods'
 * value, the dividends phase's formula; the goods' change is what the rest leaves of the profit).
 * Null when fewer than two terms moved.
 */
export function profitQuestion(week: WeekProfitFigures): ProfitQuestion | null {
  const listed =
    week.storeRevenueCents + week.marketSalesCents - week.marketPurchasesCents - week.wagesCents - week.operatingCents + week.subsidyCents - week.taxCents;
  const values: Record<ProfitTermName, number> = {
    store_revenue: week.storeRevenueCents,
    market_sales: week.marketSalesCents,
    market_purchases: week.marketPurchasesCents,
    wages: week.wagesCents,
    operating: week.operatingCents,
    subsidy: week.subsidyCents,
    tax: week.taxCents,
    goods_change: week.profitCents - listed,
  };
  const effects = Object.fromEntries(PROFIT_TERMS.map((term) => [term.name, term.sign * values[term.name]])) as Record<ProfitTermName, number>;
  const options = PROFIT_TERMS.filter((term) => effects[term.name] !== 0).map((term) => ({ name: term.name, label: term.label }));
  if (options.length < MIN_QUESTION_OPTIONS) return null;
  let answer = options[0]!.name;
  for (const option of options) if (Math.abs(effects[option.name]) > Math.abs(effects[answer])) answer = option.name;
  return { options, effects, answer };
}

/**
 * How a team's checkpoint points reach its members: 'equal' (each member gets them all) or
 * 'contribution' (in proportion to the member's share of the team's actions, full points from an
 * equal share up: weight = min(1, share x members)).
 */
export const TEAM_WEIGHTINGS = ['equal', 'contribution'] as const;
export type TeamWeighting = (typeof TEAM_WEIGHTINGS)[number];

/** The scoring weights of a world's final score, in percent (they add up to 100), and the team weighting. */
export const DEFAULT_SCORE_WEIGHTS = { net_worth_rank: 100, profit: 0, checkpoints: 0, team_weighting: 'equal' } as const;

/** What earned a checkpoint: a sentence and the figures of the week that did (stored when earned). */
export interface CheckpointEvidence {
  summary: string;
  figures: { label: string; value: number; unit: FigureUnit }[];
}
