/**
 * The catalogue's economics, derived from the seed data (docs/economy.md, "Balance"): base prices,
 * recipe quantities and market depths, so that making things pays in proportion to the building it
 * takes, whichever recipe a player picks.
 *
 * - Every building type has a weekly value added it is designed for (`weeklyValueAdded`,
 *   shared/src/buildingTypes.ts). Each recipe gets that value times a variety factor of 0.85-1.2
 *   (recipes that were richer in the hand-written data stay a little richer, so choosing still
 *   matters).
 * - Extraction recipes keep their product's hand-written base price; their output per week is set
 *   so the value added is met: round(value added x variety / price), to the nearest 10 units.
 * - Every other recipe keeps its hand-written ratios, scaled x5 (RECIPE_VOLUME_SCALE); its output's
 *   base price is derived: (inputs at their base prices + value added x variety) / output quantity.
 *   Recipes are priced in dependency order (flour before bread).
 * - A product's market depth = 40 weeks of its recipe's output at 100% (MARKET_DEPTH_BUILDING_WEEKS):
 *   one building's full week moves the price by about 2.5%, whatever the product costs.
 *
 * Pure and deterministic: db/test/seedData.test.ts checks the value added of every recipe.
 */
import { BUILDING_TYPES, MARKET_DEPTH_BUILDING_WEEKS, type BuildingType } from '@marketcraft/shared';
import type { ProductName, ProductSeed } from './data/products.ts';
import type { RecipeSeed } from './data/recipes.ts';

/** Transformation recipes' hand-written quantities are scaled by this (outputs and inputs alike). */
export const RECIPE_VOLUME_SCALE = 5;
const MIN_VARIETY = 0.85;
const MAX_VARIETY = 1.2;

export interface CatalogueEconomy {
  /** Base price of every product, cents. */
  basePriceCents: ReadonlyMap<ProductName, number>;
  /** The recipes with their derived quantities, in the seed data's order. */
  recipes: readonly RecipeSeed[];
  /** Market depth of every product, units. */
  depthUnits: ReadonlyMap<ProductName, number>;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function isExtraction(recipe: RecipeSeed): boolean {
  return Object.keys(recipe.inputs).length === 0;
}

/** The hand-written value added of a recipe at the hand-written prices, cents per week. */
function handWrittenValueAdded(recipe: RecipeSeed, prices: ReadonlyMap<string, number>): number {
  const output = recipe.outputQuantity * (prices.get(recipe.output) ?? 0);
  const inputs = Object.entries(recipe.inputs).reduce((sum, [name, quantity]) => sum + (quantity ?? 0) * (prices.get(name) ?? 0), 0);
  return output - inputs;
}

export function deriveCatalogue(products: readonly ProductSeed[], recipes: readonly RecipeSeed[]): CatalogueEconomy {
  const handPrices = new Map<string, number>(products.map((product) => [product.name, product.basePriceCents]));
  const handValueAdded = new Map(recipes.map((recipe) => [recipe, handWrittenValueAdded(recipe, handPrices)]));
  const medianByType = new Map<BuildingType, number>();
  for (const type of new Set(recipes.map((recipe) => recipe.buildingType))) {
    medianByType.set(type, median(recipes.filter((recipe) => recipe.buildingType === type).map((recipe) => handValueAdded.get(recipe)!)));
  }
  const targetCents = (recipe: RecipeSeed) => {
    const ratio = Math.max(1e-9, handValueAdded.get(recipe)! / medianByType.get(recipe.buildingType)!);
    const variety = Math.min(MAX_VARIETY, Math.max(MIN_VARIETY, ratio ** 0.25));
    return BUILDING_TYPES[recipe.buildingType].weeklyValueAdded * 100 * variety;
  };

  const prices = new Map<ProductName, number>();
  const derived = new Map<RecipeSeed, RecipeSeed>();
  // Extraction first: prices as written, quantities from the value added.
  for (const recipe of recipes.filter(isExtraction)) {
    const price = handPrices.get(recipe.output)!;
    prices.set(recipe.output, price);
    derived.set(recipe, { ...recipe, outputQuantity: Math.max(10, Math.round(targetCents(recipe) / price / 10) * 10) });
  }
  // Then every recipe whose inputs are all priced, until none is left.
  let pending = recipes.filter((recipe) => !isExtraction(recipe));
  while (pending.length > 0) {
    const ready = pending.filter((recipe) => Object.keys(recipe.inputs).every((name) => prices.has(name as ProductName)));
    if (ready.length === 0) throw new Error(`Recipes with inputs nobody makes: ${pending.map((recipe) => recipe.output).join(', ')}`);
    for (const recipe of ready) {
      const inputs = Object.fromEntries(Object.entries(recipe.inputs).map(([name, quantity]) => [name, (quantity ?? 0) * RECIPE_VOLUME_SCALE]));
      const outputQuantity = recipe.outputQuantity * RECIPE_VOLUME_SCALE;
      const inputCents = Object.entries(inputs).reduce((sum, [name, quantity]) => sum + quantity * prices.get(name as ProductName)!, 0);
      prices.set(recipe.output, Math.max(1, Math.round((inputCents + targetCents(recipe)) / outputQuantity)));
      derived.set(recipe, { ...recipe, outputQuantity, inputs });
    }
    pending = pending.filter((recipe) => !ready.includes(recipe));
  }

  const depthUnits = new Map<ProductName, number>();
  for (const recipe of derived.values()) {
    depthUnits.set(recipe.output, Math.max(depthUnits.get(recipe.output) ?? 0, recipe.outputQuantity * MARKET_DEPTH_BUILDING_WEEKS));
  }
  for (const product of products) {
    if (!prices.has(product.name)) prices.set(product.name, product.basePriceCents);
    if (!depthUnits.has(product.name)) depthUnits.set(product.name, 100 * MARKET_DEPTH_BUILDING_WEEKS);
  }
  return { basePriceCents: prices, recipes: recipes.map((recipe) => derived.get(recipe)!), depthUnits };
}
