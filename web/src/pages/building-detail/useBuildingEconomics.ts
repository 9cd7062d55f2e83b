/**
 * A building's live numbers, as the API answers them (`buildings.get`: `forecast`, computed by the
 * turn's own queries, and `research_effects`): the Overview, Financial Report, Efficiency and Factory
 * views all show the same figures. Nothing is recomputed here: this only reshapes the API's answer
 * for those views (dollars to cents for the tables).
 */
import type { RouterOutputs } from '../../trpc';

type Building = RouterOutputs['buildings']['get'];
type Forecast = Building['forecast'];

/** One week of a building's money, in cents (from the API's forecast). */
export interface WeekFinance {
  units: number;
  revenueCents: number;
  /** Production: the inputs used at the market's buy price. Store: 0 (its goods were bought already). */
  materialsCents: number;
  wagesCents: number;
  operatingCents: number;
  /** Materials + wages + running costs (the API's sum). */
  costsCents: number;
  netCents: number;
}

interface InputUse {
  productId: number;
  name: string;
  /** Units the planned output needs. */
  need: number;
  /** Units in the company warehouse. */
  have: number;
  /** Units the next turn uses. */
  used: number;
}

export interface ProductionForecast {
  /** Units planned before inputs limit them. */
  planned: number;
  /** Units the next turn makes. */
  units: number;
  inputs: InputUse[];
  /** Inputs the warehouse holds less of than the planned output needs. */
  short: InputUse[];
}

export interface BuildingEconomics {
  isPending: boolean;
  error: unknown;
  refetch: () => void;
  /** Research effects that apply to this building type (API). */
  research: Record<string, number>;
  /** The city's bonus when it fits the type, percent. */
  cityBonus: number;
  /** The turn's output bonus: the city's bonus (when it fits) + research, percent (API's total_bonus). */
  outputBonus: number;
  /** Production buildings with a recipe: next turn's output. */
  forecast: ProductionForecast | null;
  /** Stores have no separate last-week figures here: the week report shows what happened. */
  lastWeek: WeekFinance | null;
  /** Next turn, as the turn will compute it. */
  nextWeek: WeekFinance;
  /** The API's forecast itself (figures with their "why"). */
  raw: Forecast;
}

const cents = (dollars: number) => Math.round(dollars * 100);

export function useBuildingEconomics(building: Building): BuildingEconomics {
  const forecast = building.forecast;
  const inputs = forecast.inputs.map((input) => ({
    productId: input.product_id,
    name: input.product_name,
    need: input.needed,
    have: input.in_stock,
    used: input.used,
  }));
  const wagesCents = cents(forecast.wages.value);
  const operatingCents = cents(forecast.operating_cost.value);
  return {
    isPending: false,
    error: null,
    refetch: () => {},
    research: building.research_effects,
    cityBonus: building.city_bonus_applies ? building.city_bonus_value : 0,
    outputBonus: building.total_bonus,
    forecast: forecast.planned_output
      ? // Short: the warehouse holds less than the plan needs (an input the turn uses less of only because
        // another one is missing is not short: 646 flour for 145 needed read "short" beside 0 milk).
        { planned: forecast.planned_output.value, units: forecast.output_units, inputs, short: inputs.filter((input) => input.have < input.need) }
      : null,
    lastWeek: null,
    nextWeek: {
      units: forecast.units,
      revenueCents: cents(forecast.revenue),
      materialsCents: cents(forecast.inputs_cost),
      wagesCents,
      operatingCents,
      costsCents: cents(forecast.costs),
      netCents: cents(forecast.profit),
    },
    raw: forecast,
  };
}
