/**
 * The seed data files on their own (no database): counts, uniqueness, references, and the economics
 * of the catalogue derived from them (db/src/seed/economy.ts: every recipe adds the value its
 * building type is designed for, at base prices).
 */
import { describe, expect, it } from 'vitest';
import {
  BOT_STRATEGIES,
  BUILDING_TYPES,
  BUILDING_TYPE_NAMES,
  CITY_BONUS_TYPES,
  PRODUCT_CATEGORIES,
  RESEARCH_CATEGORIES,
  RESEARCH_EFFECT_KEYS,
  cityBonusApplies,
} from '@marketcraft/shared';
import { PRODUCTS } from '../src/seed/data/products.ts';
import { RECIPES, type RecipeSeed } from '../src/seed/data/recipes.ts';
import { COUNTRIES } from '../src/seed/data/countries.ts';
import { CITIES } from '../src/seed/data/cities.ts';
import { cityMarketSeeds, MAX_CITY_PRICE_FACTOR, MAX_SEED_DEMAND, MIN_CITY_PRICE_FACTOR, MIN_SEED_DEMAND } from '../src/seed/data/marketData.ts';
import { RESEARCH_UPGRADES, type ResearchSeed } from '../src/seed/data/research.ts';
import { BOTS, type BotSeed } from '../src/seed/data/bots.ts';
import { RECIPE_VOLUME_SCALE, deriveCatalogue } from '../src/seed/economy.ts';

const CATALOGUE = deriveCatalogue(PRODUCTS, RECIPES);

const EXTRACTION_TYPES = new Set<string>(BUILDING_TYPE_NAMES.filter((type) => BUILDING_TYPES[type].category === 'extraction'));
const basePrice = new Map<string, number>(PRODUCTS.map((product) => [product.name, product.basePriceCents]));
const productCategory = new Map<string, string>(PRODUCTS.map((product) => [product.name, product.category]));
const recipeByOutput = new Map<string, RecipeSeed>(RECIPES.map((recipe) => [recipe.output, recipe]));

function inputEntries(recipe: RecipeSeed): [string, number][] {
  return Object.entries(recipe.inputs).map(([name, quantity]) => [name, quantity ?? 0]);
}

describe('seed data: products', () => {
  it('lists 304 uniquely named products in exactly the 7 categories with positive whole-cent prices', () => {
    expect(PRODUCTS).toHaveLength(304);
    expect(new Set(PRODUCTS.map((product) => product.name.toLowerCase())).size).toBe(304);
    expect(new Set(PRODUCTS.map((product) => product.category))).toEqual(new Set(PRODUCT_CATEGORIES));
    for (const product of PRODUCTS) {
      expect(Number.isInteger(product.basePriceCents) && product.basePriceCents > 0, product.name).toBe(true);
      expect(product.subcategory.trim(), product.name).not.toBe('');
      expect(product.name.trim(), product.name).toBe(product.name);
    }
  });
});

describe('seed data: recipes', () => {
  it('gives every product exactly one recipe, of a non-retail building type', () => {
    expect(RECIPES).toHaveLength(304);
    expect(recipeByOutput.size).toBe(304);
    for (const product of PRODUCTS) expect(recipeByOutput.has(product.name), product.name).toBe(true);
    for (const recipe of RECIPES) expect(recipe.buildingType).not.toBe('store');
    const typesWithRecipes = new Set(RECIPES.map((recipe) => recipe.buildingType));
    for (const type of BUILDING_TYPE_NAMES) expect(typesWithRecipes.has(type as never), type).toBe(type !== 'store');
  });

  it('extracts raw materials and crops from nothing; everything else comes from processing, manufacturing or specialty', () => {
    for (const recipe of RECIPES) {
      const category = productCategory.get(recipe.output);
      const inputs = inputEntries(recipe);
      if (EXTRACTION_TYPES.has(recipe.buildingType)) {
        expect(inputs, recipe.output).toEqual([]);
        expect(['Raw Materials', 'Agricultural'], recipe.output).toContain(category);
      } else {
        expect(inputs.length, recipe.output).toBeGreaterThan(0);
        const buildingCategory = BUILDING_TYPES[recipe.buildingType].category;
        if (category === 'Processed Materials') expect(buildingCategory, recipe.output).toBe('processing');
        else expect(['manufacturing', 'specialty'], recipe.output).toContain(buildingCategory);
      }
      if (category === 'Agricultural') expect(recipe.buildingType, recipe.output).toBe('farm');
    }
  });

  it('keeps output and input quantities positive whole numbers, inputs other products', () => {
    for (const recipe of [...RECIPES, ...CATALOGUE.recipes]) {
      expect(Number.isInteger(recipe.outputQuantity) && recipe.outputQuantity > 0, recipe.output).toBe(true);
      for (const [name, quantity] of inputEntries(recipe)) {
        expect(basePrice.has(name), `${recipe.output} <- ${name}`).toBe(true);
        expect(Number.isInteger(quantity) && quantity > 0, `${recipe.output} <- ${name}`).toBe(true);
        expect(name, recipe.output).not.toBe(recipe.output);
      }
    }
  });

  it('makes every product obtainable from extraction without cycles', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (name: string, path: string[]): void => {
      if (state.get(name) === 'done') return;
      expect(state.get(name), `cycle: ${[...path, name].join(' -> ')}`).toBeUndefined();
      const recipe = recipeByOutput.get(name);
      expect(recipe, `no recipe makes ${name}`).toBeDefined();
      state.set(name, 'visiting');
      for (const [input] of inputEntries(recipe!)) visit(input, [...path, name]);
      state.set(name, 'done');
    };
    for (const product of PRODUCTS) visit(product.name, []);
    expect(state.size).toBe(304);
  });

  it("derives a catalogue where every recipe adds 85-120% of its building type's designed value at base prices", () => {
    const price = CATALOGUE.basePriceCents;
    CATALOGUE.recipes.forEach((recipe, index) => {
      const original = RECIPES[index]!;
      const designCents = BUILDING_TYPES[recipe.buildingType].weeklyValueAdded * 100;
      const outputCents = recipe.outputQuantity * price.get(recipe.output)!;
      const inputCents = inputEntries(recipe).reduce((sum, [name, quantity]) => sum + quantity * price.get(name as never)!, 0);
      const valueAdded = outputCents - inputCents;
      // Rounding: extraction output to 10 units, made goods' prices to the cent.
      const slack = EXTRACTION_TYPES.has(recipe.buildingType) ? 5 * price.get(recipe.output)! : recipe.outputQuantity;
      expect(valueAdded, recipe.output).toBeGreaterThanOrEqual(0.85 * designCents - slack);
      expect(valueAdded, recipe.output).toBeLessThanOrEqual(1.2 * designCents + slack);
      if (EXTRACTION_TYPES.has(recipe.buildingType)) {
        expect(price.get(recipe.output), recipe.output).toBe(basePrice.get(recipe.output));
      } else {
        expect(recipe.outputQuantity, recipe.output).toBe(original.outputQuantity * RECIPE_VOLUME_SCALE);
      }
    });
    // Depth: 40 weeks of the recipe's output at 100%.
    for (const recipe of CATALOGUE.recipes) expect(CATALOGUE.depthUnits.get(recipe.output)).toBe(40 * recipe.outputQuantity);
  });

  it('pays a building back in about 10 weeks at 75% efficiency and base prices, before competition', () => {
    for (const type of BUILDING_TYPE_NAMES) {
      const spec = BUILDING_TYPES[type];
      const weeklyProfit = 0.75 * spec.weeklyValueAdded - 6 * 100 - spec.weeklyOperatingCost;
      const payback = (spec.constructionCost + 25_000) / weeklyProfit;
      expect(payback, type).toBeGreaterThan(9);
      expect(payback, type).toBeLessThan(11);
    }
  });

  it('contains the spec chains', () => {
    const chain = (output: string, buildingType: string, ...inputs: string[]) => {
      const recipe = recipeByOutput.get(output);
      expect(recipe?.buildingType, output).toBe(buildingType);
      expect(Object.keys(recipe?.inputs ?? {}), output).toEqual(expect.arrayContaining(inputs));
    };
    chain('Wheat', 'farm');
    chain('Wheat Flour', 'mill', 'Wheat');
    chain('White Bread', 'bakery', 'Wheat Flour');
    chain('Pig Iron', 'steel_mill', 'Iron Ore', 'Coal');
    chain('Steel', 'steel_mill', 'Pig Iron');
    chain('Hand Tools', 'factory', 'Steel');
    chain('Industrial Machinery', 'factory', 'Steel Beams');
    chain('Gasoline', 'refinery', 'Crude Oil');
    chain('Polyethylene Pellets', 'refinery', 'Crude Oil');
    chain('Dining Table', 'furniture_workshop', 'Teak Logs');
    chain('Cotton Fabric', 'textile_mill', 'Cotton Yarn');
    chain('T-Shirts', 'factory', 'Cotton Fabric');
    chain('Lager', 'brewery', 'Malted Barley', 'Hops');
    chain('Malted Barley', 'mill', 'Barley');
    chain('Red Wine', 'winery', 'Red Wine Grapes');
    chain('Gold Ring', 'jewelry_workshop', 'Gold Bullion');
    chain('Diamond Engagement Ring', 'jewelry_workshop', 'Gold Bullion', 'Rough Diamonds');
  });
});

describe('seed data: countries, cities and market data', () => {
  it('has 8-10 uniquely named countries with tax rates of 10-35%, each with cities', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(8);
    expect(COUNTRIES.length).toBeLessThanOrEqual(10);
    expect(new Set(COUNTRIES.map((country) => country.name)).size).toBe(COUNTRIES.length);
    for (const country of COUNTRIES) {
      expect(country.taxRate).toBeGreaterThanOrEqual(10);
      expect(country.taxRate).toBeLessThanOrEqual(35);
      expect(
        CITIES.some((city) => city.country === country.name),
        country.name,
      ).toBe(true);
    }
  });

  it('has 50 uniquely named cities, every bonus type at least twice, bonuses of 5-25%', () => {
    expect(CITIES).toHaveLength(50);
    expect(new Set(CITIES.map((city) => city.name)).size).toBe(50);
    for (const bonusType of CITY_BONUS_TYPES) {
      expect(CITIES.filter((city) => city.bonusType === bonusType).length, bonusType).toBeGreaterThanOrEqual(2);
    }
    for (const city of CITIES) {
      expect(city.bonusValue).toBeGreaterThanOrEqual(5);
      expect(city.bonusValue).toBeLessThanOrEqual(25);
      expect(Number.isInteger(city.population) && city.population > 0).toBe(true);
    }
  });

  it('derives demand of 20-90 and price levels within 15% for every city and product, the same every time', () => {
    const levels = new Set<number>();
    for (const city of CITIES) {
      const seeds = cityMarketSeeds(city, PRODUCTS);
      expect(seeds).toHaveLength(304);
      expect(cityMarketSeeds(city, PRODUCTS)).toEqual(seeds);
      seeds.forEach((seed) => {
        levels.add(seed.demandLevel);
        expect(seed.demandLevel).toBe(seed.baseDemandLevel);
        expect(seed.demandLevel).toBeGreaterThanOrEqual(MIN_SEED_DEMAND);
        expect(seed.demandLevel).toBeLessThanOrEqual(MAX_SEED_DEMAND);
        expect(seed.priceFactorBp).toBeGreaterThanOrEqual(MIN_CITY_PRICE_FACTOR * 10_000);
        expect(seed.priceFactorBp).toBeLessThanOrEqual(MAX_CITY_PRICE_FACTOR * 10_000);
      });
    }
    expect(levels.size).toBeGreaterThan(30);
  });

  it('gives luxury goods more demand in big luxury cities than in small towns', () => {
    const average = (cityName: string) => {
      const city = CITIES.find((candidate) => candidate.name === cityName)!;
      const seeds = cityMarketSeeds(city, PRODUCTS).filter((_, index) => PRODUCTS[index]!.category === 'Luxury Goods');
      return seeds.reduce((sum, seed) => sum + seed.demandLevel, 0) / seeds.length;
    };
    expect(average('Crownhaven')).toBeGreaterThan(average('Oakenshaw') + 10);
  });
});

describe('seed data: research', () => {
  const upgrades: readonly ResearchSeed[] = RESEARCH_UPGRADES;
  const byName = new Map(upgrades.map((upgrade) => [upgrade.name, upgrade]));

  it('has 15 uniquely named upgrades, 3 in each of 5 tiers, all four categories', () => {
    expect(upgrades).toHaveLength(15);
    expect(byName.size).toBe(15);
    for (const tier of [1, 2, 3, 4, 5])
      expect(
        upgrades.filter((upgrade) => upgrade.tier === tier),
        `tier ${tier}`,
      ).toHaveLength(3);
    expect(new Set(upgrades.map((upgrade) => upgrade.category))).toEqual(new Set(RESEARCH_CATEGORIES));
  });

  it('requires an upgrade one tier lower from tier 2 on, and costs more each tier', () => {
    for (const upgrade of upgrades) {
      if (upgrade.tier === 1) {
        expect(upgrade.prerequisite, upgrade.name).toBeNull();
      } else {
        const prerequisite = byName.get(upgrade.prerequisite ?? '');
        expect(prerequisite?.tier, upgrade.name).toBe(upgrade.tier - 1);
      }
      const lowerTier = upgrades.filter((other) => other.tier === upgrade.tier - 1);
      for (const other of lowerTier) expect(upgrade.researchCostCents, upgrade.name).toBeGreaterThan(other.researchCostCents);
    }
    expect(Math.min(...upgrades.map((upgrade) => upgrade.researchCostCents))).toBe(1_500_000);
    expect(Math.max(...upgrades.map((upgrade) => upgrade.researchCostCents))).toBe(40_000_000);
  });

  it('uses only the spec effect keys, with numbers (and a feature name for unlock_feature)', () => {
    for (const upgrade of upgrades) {
      const entries = Object.entries(upgrade.effects);
      expect(entries.length, upgrade.name).toBeGreaterThan(0);
      for (const [key, value] of entries) {
        expect(RESEARCH_EFFECT_KEYS, `${upgrade.name}: ${key}`).toContain(key);
        if (key === 'unlock_feature') expect(value, upgrade.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
        else expect(Number.isInteger(value) && (value as number) > 0, `${upgrade.name}: ${key}`).toBe(true);
      }
      if (upgrade.category === 'unlock') expect(upgrade.effects.unlock_feature, upgrade.name).toBeDefined();
      if (upgrade.category === 'automation') expect(upgrade.effects.automation, upgrade.name).toBeDefined();
    }
  });
});

describe('seed data: bots', () => {
  const bots: readonly BotSeed[] = BOTS;

  it('has 25 uniquely named bots with at least 5 distinct strategies and $250k-$1.5M starting cash', () => {
    expect(bots).toHaveLength(25);
    expect(new Set(bots.map((bot) => bot.name)).size).toBe(25);
    expect(new Set(bots.map((bot) => bot.strategy)).size).toBeGreaterThanOrEqual(5);
    for (const bot of bots) {
      expect(BOT_STRATEGIES).toContain(bot.strategy);
      expect(bot.strategy).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(bot.startingCashCents).toBeGreaterThanOrEqual(25_000_000);
      expect(bot.startingCashCents).toBeLessThanOrEqual(150_000_000);
      expect(bot.bio.length).toBeLessThanOrEqual(500);
    }
  });

  it('gives each bot 2-5 buildings in fitting cities, producing a recipe of their type or stocking a store', () => {
    const cityBonus = new Map<string, string>(CITIES.map((city) => [city.name, city.bonusType]));
    for (const bot of bots) {
      expect(bot.buildings.length, bot.name).toBeGreaterThanOrEqual(2);
      expect(bot.buildings.length, bot.name).toBeLessThanOrEqual(5);
      for (const building of bot.buildings) {
        const where = `${bot.name}: ${building.type} in ${building.city}`;
        const bonusType = cityBonus.get(building.city)!;
        if (building.type === 'store') {
          expect(building.recipe, where).toBeUndefined();
          expect(['retail', 'luxury'], where).toContain(bonusType);
          const stock = Object.entries(building.stock ?? {});
          expect(stock.length, where).toBeGreaterThan(0);
          for (const [, quantity] of stock) {
            expect(quantity, where).toBeGreaterThanOrEqual(50);
            expect(quantity, where).toBeLessThanOrEqual(200);
          }
        } else {
          expect(building.stock, where).toBeUndefined();
          expect(recipeByOutput.get(building.recipe ?? '')?.buildingType, where).toBe(building.type);
          expect(cityBonusApplies(building.type, bonusType), where).toBe(true);
        }
      }
    }
  });
});
