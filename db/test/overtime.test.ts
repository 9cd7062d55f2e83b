/**
 * Production above 100% (docs/economy.md, "Overtime: where the extra output stops paying"): for the
 * taught chain's buildings (farm Wheat, mill Wheat Flour, bakery White Bread, staffed to 100% as the
 * Learning Base teaches) at sensible prices the week's profit is highest between 100% and 150%, and
 * 200% earns less than the best rate. Before the tired-crews rule output grew linearly up to 200%
 * and the best rate was always 200.
 */
import { describe, expect, it } from 'vitest';
import { BUILDING_TYPES, bestProductionRate, dollarsToCents, weekAtRate, wholesaleMarginBp, type RateFacts } from '@marketcraft/shared';
import { PRODUCTS } from '../src/seed/data/products.ts';
import { RECIPES } from '../src/seed/data/recipes.ts';
import { deriveCatalogue } from '../src/seed/economy.ts';

const CATALOGUE = deriveCatalogue(PRODUCTS, RECIPES);
const category = new Map<string, string>(PRODUCTS.map((product) => [product.name, product.category]));

/** The building making `output` with the taught chain's staff (9 employees, equipment 1: 100% efficiency), its prices `priceFactor` x base. */
function taughtBuilding(output: string, priceFactor: number, bonus: number): RateFacts {
  const recipe = CATALOGUE.recipes.find((candidate) => candidate.output === output)!;
  const price = (name: string) => Math.round(CATALOGUE.basePriceCents.get(name as never)! * priceFactor);
  return {
    outputQuantity: recipe.outputQuantity,
    efficiency: 100,
    bonus,
    outputPriceCents: price(recipe.output),
    inputs: Object.entries(recipe.inputs).map(([name, quantity]) => ({
      quantity: quantity ?? 0,
      priceCents: price(name),
      marginBp: wholesaleMarginBp(category.get(name)!),
    })),
    employees: 9,
    typeCostCents: dollarsToCents(BUILDING_TYPES[recipe.buildingType].weeklyOperatingCost),
    costReduction: 0,
    materialReduction: 0,
    companyBuildings: 4,
  };
}

describe('the overtime table', () => {
  for (const output of ['Wheat', 'Wheat Flour', 'White Bread']) {
    for (const [priceFactor, bonus] of [
      [1, 0],
      [1, 15],
      [0.9, 0],
      [1.2, 15],
    ] as const) {
      it(`${output} at ${priceFactor}x base prices, +${bonus}% bonus: the best rate is above 100 and below 150, and 200% earns less`, () => {
        const facts = taughtBuilding(output, priceFactor, bonus);
        const best = bestProductionRate(facts);
        expect(best.rate).toBeGreaterThan(100);
        expect(best.rate).toBeLessThan(150);
        expect(weekAtRate(facts, 200).profitCents).toBeLessThan(weekAtRate(facts, 150).profitCents);
        expect(best.profitCents).toBeGreaterThan(weekAtRate(facts, 100).profitCents);
      });
    }
  }

  it('prices the worked example of docs/economy.md (a farm of Wheat at base prices, 100% efficiency, no bonus)', () => {
    const facts = taughtBuilding('Wheat', 1, 0);
    const rows = [100, 125, 150, 175, 200].map((rate) => weekAtRate(facts, rate));
    expect(rows.map((row) => [row.rate, row.units, row.profitCents])).toEqual([
      [100, 660, 547_050],
      [125, 784, 624_592],
      [150, 825, 605_025],
      [175, 825, 537_487],
      [200, 825, 469_950],
    ]);
    expect(bestProductionRate(facts)).toMatchObject({ rate: 132, units: 804, profitCents: 629_082 });
  });
});
