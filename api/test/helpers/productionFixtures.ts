/**
 * Fixtures for the buildings, stores, market and catalog tests. The seeded template may or may not
 * hold the real world yet, so each test file adds its own small, uniquely named world next to
 * whatever is seeded: a country, two cities, three products with city market data, and a farm,
 * mill and bakery recipe chain (wheat -> flour -> bread). The 17 building types are ensured from
 * the shared constants (inserted only if the seed has not already).
 */
import { eq, sql } from 'drizzle-orm';
import {
  buildingTypes,
  cities,
  cityMarketData,
  companies,
  countries,
  products,
  recipeInputs,
  recipes,
  worldCountries,
  worldProducts,
  type Database,
} from '@marketcraft/db';
import {
  BUILDING_TYPES,
  RETAIL_MARKUP_PERCENT,
  dollarsToCents,
  goodsBuyCostRule,
  marketSellProceedsRule,
  wholesaleMarginBp,
  type ProductCategory,
} from '@marketcraft/shared';
import { expect } from 'vitest';

export interface FixtureProduct {
  id: number;
  name: string;
  /** Current (market-wide) price in cents. */
  priceCents: number;
  /** Market depth (units that move the price by e). */
  depthUnits: number;
  /** Reference price in the fixture's first city, cents. */
  cityPriceCents: number;
  /** Its category: consumer goods pay the wholesale margin when bought. */
  category: string;
}

export interface ProductionWorld {
  countryId: number;
  /** Agricultural 15% bonus. */
  city: { id: number; name: string };
  /** Retail 10% bonus. */
  retailCity: { id: number; name: string };
  wheat: FixtureProduct;
  flour: FixtureProduct;
  bread: FixtureProduct;
  farmRecipeId: number;
  millRecipeId: number;
  bakeryRecipeId: number;
}

async function ensureBuildingTypes(db: Database): Promise<void> {
  await db
    .insert(buildingTypes)
    .values(
      Object.entries(BUILDING_TYPES).map(([type, spec]) => ({
        type,
        name: spec.name,
        category: spec.category,
        constructionCostCents: dollarsToCents(spec.constructionCost),
        baseCapacity: spec.baseCapacity,
        weeklyOperatingCostCents: dollarsToCents(spec.weeklyOperatingCost),
      })),
    )
    .onConflictDoNothing();
}

export async function createProductionWorld(db: Database): Promise<ProductionWorld> {
  await ensureBuildingTypes(db);
  const tag = Math.random().toString(36).slice(2, 8);
  const [country] = await db
    .insert(countries)
    .values({ name: `Fixtureland ${tag}`, baseTaxRate: 20 })
    .returning({ id: countries.id });
  await db.insert(worldCountries).values({ worldId: 1, countryId: country!.id, taxRate: 20 });
  const [city] = await db
    .insert(cities)
    .values({ name: `Fixtureville ${tag}`, countryId: country!.id, bonusType: 'agricultural', bonusValue: 15, population: 100_000 })
    .returning({ id: cities.id, name: cities.name });
  const [retailCity] = await db
    .insert(cities)
    .values({ name: `Shoptown ${tag}`, countryId: country!.id, bonusType: 'retail', bonusValue: 10, population: 200_000 })
    .returning({ id: cities.id, name: cities.name });

  async function product(name: string, category: ProductCategory, priceCents: number, cityPriceCents: number, depthUnits: number): Promise<FixtureProduct> {
    const [row] = await db
      .insert(products)
      .values({ name: `${name} ${tag}`, category, subcategory: 'Fixture', basePriceCents: priceCents, depthUnits })
      .returning({ id: products.id, name: products.name });
    await db.insert(worldProducts).values({ worldId: 1, productId: row!.id, currentPriceCents: priceCents });
    // Reference prices follow the posted price (referencePriceRule): the city's price level that
    // makes the reference `cityPriceCents` (and 10 cents more in the retail city).
    const levelFor = (referenceCents: number) => Math.round((referenceCents * 1_000_000) / (priceCents * RETAIL_MARKUP_PERCENT));
    await db.insert(cityMarketData).values([
      { worldId: 1, cityId: city!.id, productId: row!.id, demandLevel: 60, baseDemandLevel: 60, priceFactorBp: levelFor(cityPriceCents) },
      { worldId: 1, cityId: retailCity!.id, productId: row!.id, demandLevel: 80, baseDemandLevel: 80, priceFactorBp: levelFor(cityPriceCents + 10) },
    ]);
    return { id: row!.id, name: row!.name, priceCents, depthUnits, cityPriceCents, category };
  }
  const wheat = await product('Fixture Wheat', 'Agricultural', 200, 250, 4_000);
  const flour = await product('Fixture Flour', 'Processed Materials', 500, 550, 2_000);
  const bread = await product('Fixture Bread', 'Food Products', 400, 450, 2_000);

  const [farmRecipe] = await db.insert(recipes).values({ buildingType: 'farm', outputProductId: wheat.id, outputQuantity: 100 }).returning({ id: recipes.id });
  const [millRecipe] = await db.insert(recipes).values({ buildingType: 'mill', outputProductId: flour.id, outputQuantity: 50 }).returning({ id: recipes.id });
  const [bakeryRecipe] = await db
    .insert(recipes)
    .values({ buildingType: 'bakery', outputProductId: bread.id, outputQuantity: 40 })
    .returning({ id: recipes.id });
  await db.insert(recipeInputs).values([
    { recipeId: millRecipe!.id, productId: wheat.id, quantity: 100 },
    { recipeId: bakeryRecipe!.id, productId: flour.id, quantity: 20 },
  ]);
  return {
    countryId: country!.id,
    city: city!,
    retailCity: retailCity!,
    wheat,
    flour,
    bread,
    farmRecipeId: farmRecipe!.id,
    millRecipeId: millRecipe!.id,
    bakeryRecipeId: bakeryRecipe!.id,
  };
}

export async function cashCentsOf(db: Database, companyId: number): Promise<number> {
  const [row] = await db.select({ cash: companies.cashCents }).from(companies).where(eq(companies.id, companyId));
  return row!.cash;
}

/** The ledger check: cash == starting cash + sum of the company's transactions. */
export async function expectLedgerBalanced(db: Database, companyId: number): Promise<void> {
  const [row] = await db.execute<{ cash_cents: number; starting_cash_cents: number; ledger: number }>(sql`
    select c.cash_cents, c.starting_cash_cents, coalesce((select sum(amount_cents) from transactions t where t.company_id = c.id), 0)::bigint as ledger
    from companies c where c.id = ${companyId}`);
  expect(row).toBeDefined();
  expect(Number(row!.cash_cents)).toBe(Number(row!.starting_cash_cents) + Number(row!.ledger));
  expect(Number(row!.cash_cents)).toBeGreaterThanOrEqual(0);
}

/** This week's net flow of a product on the exchange (units bought - units sold). */
export async function marketFlow(db: Database, productId: number): Promise<number> {
  const [row] = await db.execute<{ flow: number }>(sql`
    select coalesce((select units_bought - units_sold from market_activity
                     where product_id = ${productId} and week = (select current_week from worlds where id = 1)), 0)::bigint as flow`);
  return Number(row?.flow ?? 0);
}

/** What the exchange charges (buy: its wholesale margin included) or pays (sell) for `quantity` units at `flow`, by the shared rules. */
export function exchangeCents(
  product: Pick<FixtureProduct, 'priceCents' | 'depthUnits' | 'category'>,
  flow: number,
  quantity: number,
  action: 'buy' | 'sell',
): number {
  const values = { price: product.priceCents, depth: product.depthUnits, flow, quantity };
  return action === 'buy' ? goodsBuyCostRule.evaluate({ ...values, marginBp: wholesaleMarginBp(product.category) }) : marketSellProceedsRule.evaluate(values);
}
