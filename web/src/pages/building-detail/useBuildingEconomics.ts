/**
 * The reads a building's live numbers need (research, prices, the warehouse, a store's shelf) and
 * the figures derived from them (finance.ts). Shared by the Overview, Financial Report, Efficiency
 * and Factory views so they all show the same numbers. The building detail's bonus figures (total
 * bonus, effective output, overall efficiency and its warning, popularity) come from the API as
 * they are (`buildings.get`, research included): they are not recomputed here.
 */
import { useMemo } from 'react';
import { trpc, type RouterOutputs } from '../../trpc';
import {
  buildingResearchEffects,
  buildingOperatingCostCents,
  productionForecast,
  productionWeek,
  storeLastWeek,
  storeNextWeek,
  wagesCents,
  type FixedCosts,
  type ProductionForecast,
  type WeekFinance,
} from './finance';

type Building = RouterOutputs['buildings']['get'];

export interface BuildingEconomics {
  isPending: boolean;
  error: unknown;
  refetch: () => void;
  /** Research effects that apply to this building type (costs, materials, store sales and prices). */
  research: Record<string, number>;
  /** The city's bonus when it fits the type, percent. */
  cityBonus: number;
  /** The turn's output bonus: the city's bonus (when it fits) + the API's research_bonus, percent. */
  outputBonus: number;
  fixed: FixedCosts;
  /** Production buildings with a recipe: next turn's output. */
  forecast: ProductionForecast | null;
  /** Stores: last turn, from units sold last turn. */
  lastWeek: WeekFinance | null;
  /** Next turn at today's prices. */
  nextWeek: WeekFinance;
}

export function useBuildingEconomics(building: Building): BuildingEconomics {
  const upgrades = trpc.research.upgrades.useQuery();
  const goods = trpc.catalog.goods.useQuery();
  const warehouse = trpc.catalog.inventory.useQuery(undefined, { enabled: !building.is_store });
  const shelf = trpc.stores.products.useQuery({ id: building.id }, { enabled: building.is_store });

  const queries = building.is_store ? [upgrades, goods, shelf] : [upgrades, goods, warehouse];
  const isPending = queries.some((query) => query.isPending);
  const failed = queries.find((query) => query.isError);

  const derived = useMemo(() => {
    const research = buildingResearchEffects(upgrades.data ?? [], building.type);
    const cityBonus = building.city_bonus_applies ? building.city_bonus_value : 0;
    const outputBonus = cityBonus + building.research_bonus;
    const fixed: FixedCosts = { wagesCents: wagesCents(building.employees), operatingCents: buildingOperatingCostCents(building.weekly_operating_cost, research) };
    const prices = new Map((goods.data ?? []).map((good) => [good.id, good.current_price]));
    if (building.is_store) {
      const products = shelf.data ?? [];
      return {
        research,
        cityBonus,
        outputBonus,
        fixed,
        forecast: null,
        lastWeek: storeLastWeek(products, research, fixed),
        nextWeek: storeNextWeek(products, { baseCapacity: building.base_capacity, cityBonusPercent: cityBonus }, research, prices, fixed),
      };
    }
    const stock = new Map((warehouse.data ?? []).map((item) => [item.product_id, item.quantity]));
    const forecast = building.recipe
      ? productionForecast(
          { recipe: building.recipe, productionRate: building.production_rate, efficiency: building.efficiency, bonusPercent: outputBonus, research },
          stock,
        )
      : null;
    return {
      research,
      cityBonus,
      outputBonus,
      fixed,
      forecast,
      lastWeek: null,
      nextWeek: productionWeek(forecast, building.recipe?.output_product_id ?? null, prices, fixed),
    };
  }, [building, upgrades.data, goods.data, warehouse.data, shelf.data]);

  return {
    ...derived,
    isPending,
    error: failed?.error ?? null,
    refetch: () => {
      for (const query of queries) if (query.isError) void query.refetch();
    },
  };
}
