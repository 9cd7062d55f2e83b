import { describe, expect, it } from 'vitest';
import type { RouterOutputs } from '../../trpc';
import { useBuildingEconomics } from './useBuildingEconomics';

type Building = RouterOutputs['buildings']['get'];

const figure = (value: number) => ({ value, why: '' });

/** A bakery as the API answers it: planned 290 bread, flour in stock, milk and sugar short. */
function bakery(): Building {
  return {
    research_effects: {},
    city_bonus_applies: true,
    city_bonus_value: 22,
    total_bonus: 32,
    forecast: {
      planned_output: figure(290),
      output_units: 0,
      inputs: [
        { product_id: 1, product_name: 'Cane Sugar', needed: 15, used: 0, in_stock: 2 },
        { product_id: 2, product_name: 'Milk', needed: 37, used: 0, in_stock: 0 },
        { product_id: 3, product_name: 'Wheat Flour', needed: 145, used: 0, in_stock: 646 },
      ],
      wages: figure(0),
      operating_cost: figure(0),
      revenue: 0,
      inputs_cost: 0,
      costs: 0,
      profit: 0,
      units: 0,
    },
  } as unknown as Building;
}

describe('useBuildingEconomics', () => {
  it('calls short only the inputs the warehouse holds less of than the plan needs, not those left unused because another is missing', () => {
    const forecast = useBuildingEconomics(bakery()).forecast!;
    expect(forecast.units).toBe(0);
    expect(forecast.planned).toBe(290);
    expect(forecast.short.map((input) => input.name)).toEqual(['Cane Sugar', 'Milk']);
  });
});
