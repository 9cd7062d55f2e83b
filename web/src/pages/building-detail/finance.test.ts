import { describe, expect, it } from 'vitest';
import {
  buildingResearchEffects,
  efficiencySteps,
  buildingOperatingCostCents,
  paybackWeeks,
  productionForecast,
  productionWeek,
  roiPercent,
  storeLastWeek,
  storeNextWeek,
  wagesCents,
} from './finance';

const flourRecipe = {
  output_product_id: 2,
  output_product_name: 'Flour',
  output_quantity: 100,
  inputs: [{ product_id: 1, product_name: 'Wheat', quantity: 120 }],
};

describe('buildingResearchEffects', () => {
  it('sums researched upgrades for every type and for this type only', () => {
    const effects = buildingResearchEffects(
      [
        { researched: true, building_type: null, effects: { production_bonus: 10, unlock_feature: 'x' } },
        { researched: true, building_type: 'farm', effects: { production_bonus: 25 } },
        { researched: true, building_type: 'mill', effects: { production_bonus: 99 } },
        { researched: false, building_type: null, effects: { cost_reduction: 15 } },
      ],
      'farm',
    );
    expect(effects).toEqual({ production_bonus: 35 });
  });
});

describe('productionForecast', () => {
  it('plans the turn formula and is limited by the scarcest input', () => {
    // docs/economy.md example: 100 x 1 x 0.75 x 1.15 = 86.25 -> 86.
    const settings = { recipe: flourRecipe, productionRate: 100, efficiency: 75, bonusPercent: 15, research: {} };
    const full = productionForecast(settings, new Map([[1, 1000]]));
    expect(full.planned).toBe(86);
    expect(full.units).toBe(86);
    expect(full.inputs[0]).toMatchObject({ need: 104, have: 1000, used: 104 });
    expect(full.short).toEqual([]);

    const short = productionForecast(settings, new Map([[1, 60]]));
    expect(short.units).toBe(50);
    expect(short.short.map((input) => input.name)).toEqual(['Wheat']);
    expect(short.inputs[0]?.used).toBe(60);
  });

  it('plans with the output bonus (city + research) and cuts materials by material research', () => {
    const forecast = productionForecast(
      { recipe: flourRecipe, productionRate: 100, efficiency: 100, bonusPercent: 20, research: { production_bonus: 10, chain_bonus: 10, material_reduction: 50 } },
      new Map([[1, 1000]]),
    );
    expect(forecast.bonusPercent).toBe(20);
    expect(forecast.planned).toBe(120);
    expect(forecast.inputs[0]?.need).toBe(72);
  });
});

describe('weekly money', () => {
  const fixed = { wagesCents: wagesCents(3), operatingCents: buildingOperatingCostCents(400, { cost_reduction: 15 }) };

  it('charges $50 per employee and the operating cost less research', () => {
    expect(fixed).toEqual({ wagesCents: 15_000, operatingCents: 34_000 });
    expect(buildingOperatingCostCents(400, { cost_reduction: 80 })).toBe(20_000);
  });

  it('values a production week at market prices', () => {
    const forecast = productionForecast({ recipe: flourRecipe, productionRate: 100, efficiency: 100, bonusPercent: 0, research: {} }, new Map([[1, 1000]]));
    const result = productionWeek(forecast, 2, new Map([[1, 2], [2, 5.5]]), fixed);
    expect(result).toEqual({ units: 100, revenueCents: 55_000, materialsCents: 24_000, wagesCents: 15_000, operatingCents: 34_000, netCents: -18_000 });
    expect(productionWeek(null, null, new Map(), fixed).netCents).toBe(-49_000);
  });

  it("reports a store's last turn and forecasts its next one", () => {
    const shelf = [
      { product_id: 7, quantity: 500, retail_price: 39, cost_price: 20, is_active: true, market_price: 26.25, demand_level: 60, units_sold_last_turn: 100 },
      { product_id: 8, quantity: 50, retail_price: 10, cost_price: 5, is_active: false, market_price: 10, demand_level: 50, units_sold_last_turn: 0 },
    ];
    const last = storeLastWeek(shelf, {}, fixed);
    expect(last).toMatchObject({ units: 100, revenueCents: 390_000, materialsCents: 200_000 });
    // docs/economy.md example: floor(200 x 1.2 x 0.453 x 1.10) = 119 loaves at $39.00.
    const next = storeNextWeek(shelf, { baseCapacity: 200, cityBonusPercent: 10 }, {}, new Map(), fixed);
    expect(next).toMatchObject({ units: 119, revenueCents: 464_100, materialsCents: 238_000 });
  });

  it('gives ROI per week and the payback time', () => {
    expect(roiPercent(50_000, 20_000)).toBeCloseTo(2.5);
    expect(roiPercent(50_000, 0)).toBeNull();
    expect(paybackWeeks(50_000, 20_000)).toBe(40);
    expect(paybackWeeks(-1, 20_000)).toBeNull();
  });
});

describe('efficiencySteps', () => {
  it('offers the next equipment level and the hires that reach 100%', () => {
    expect(efficiencySteps(1, 1)).toEqual([
      { kind: 'equipment', label: 'Upgrade equipment to level 2', costDollars: 10_000, efficiency: 40 },
      { kind: 'hire', label: 'Hire 8 employees', costDollars: 40_000, efficiency: 100 },
    ]);
    expect(efficiencySteps(10, 5)).toEqual([]);
  });
});
