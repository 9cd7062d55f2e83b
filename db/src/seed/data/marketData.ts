/**
 * Initial city market data (spec section 3: product_id, demand_level 0-100, market_price) for
 * every city and product, derived deterministically from the city (population, bonus type) and
 * the product (category, base price) with a PRNG seeded by the city's name.
 *
 * - demand_level = base_demand_level, in 20-90: a category base, more in bigger cities, more where
 *   the city's bonus type uses or sells that category, plus +/-10 of variety.
 * - price_factor_bp = the city's price level for the product, 8,500-11,500 basis points (a city
 *   factor of 0.92-1.08 times +/-5% per product): its reference price (market_price) is the exchange
 *   price x 130% x this factor (docs/economy.md, "Store sales").
 */
import type { CityBonusType, ProductCategory } from '@marketcraft/shared';
import { hashString, mulberry32 } from '../random.ts';
import type { CitySeed } from './cities.ts';
import type { ProductSeed } from './products.ts';

export const MIN_SEED_DEMAND = 20;
export const MAX_SEED_DEMAND = 90;
export const MIN_CITY_PRICE_FACTOR = 0.85;
export const MAX_CITY_PRICE_FACTOR = 1.15;

const CATEGORY_BASE_DEMAND: Record<ProductCategory, number> = {
  'Raw Materials': 40,
  Agricultural: 45,
  'Processed Materials': 42,
  'Food Products': 58,
  'Industrial Goods': 42,
  'Consumer Goods': 52,
  'Luxury Goods': 30,
};

/** Extra demand where the city's specialty buys or sells a category. */
const BONUS_AFFINITY: Record<CityBonusType, Partial<Record<ProductCategory, number>>> = {
  agricultural: { 'Processed Materials': 5 },
  mining: { 'Industrial Goods': 8 },
  extraction: { 'Industrial Goods': 8 },
  forestry: { 'Industrial Goods': 5 },
  milling: { Agricultural: 10 },
  industrial: { 'Raw Materials': 12, 'Processed Materials': 8 },
  food_production: { Agricultural: 10, 'Processed Materials': 5 },
  manufacturing: { 'Processed Materials': 12, 'Industrial Goods': 8 },
  baking: { 'Processed Materials': 8, Agricultural: 5 },
  brewing: { Agricultural: 10 },
  beverage: { Agricultural: 8, 'Food Products': 5 },
  luxury: { 'Luxury Goods': 18, 'Consumer Goods': 5 },
  retail: { 'Consumer Goods': 12, 'Food Products': 8, 'Luxury Goods': 5 },
};

const SMALLEST_POPULATION = 50_000;
const LARGEST_POPULATION = 3_500_000;

export interface CityMarketSeed {
  demandLevel: number;
  baseDemandLevel: number;
  priceFactorBp: number;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Market data of one city for every product, in the order of `products`. */
export function cityMarketSeeds(city: Pick<CitySeed, 'name' | 'population' | 'bonusType'>, products: readonly ProductSeed[]): CityMarketSeed[] {
  const random = mulberry32(hashString(city.name));
  const size = clamp(
    (Math.log10(city.population) - Math.log10(SMALLEST_POPULATION)) / (Math.log10(LARGEST_POPULATION) - Math.log10(SMALLEST_POPULATION)),
    0,
    1,
  );
  const cityPriceFactor = 0.92 + random() * 0.16;
  return products.map((product) => {
    const sizeWeight = product.category === 'Luxury Goods' ? 25 : 15;
    const affinity = BONUS_AFFINITY[city.bonusType][product.category] ?? 0;
    const variety = Math.round((random() - 0.5) * 20);
    const demand = clamp(Math.round(CATEGORY_BASE_DEMAND[product.category] + size * sizeWeight + affinity + variety), MIN_SEED_DEMAND, MAX_SEED_DEMAND);
    const factor = clamp(cityPriceFactor * (1 + (random() - 0.5) * 0.1), MIN_CITY_PRICE_FACTOR, MAX_CITY_PRICE_FACTOR);
    return { demandLevel: demand, baseDemandLevel: demand, priceFactorBp: Math.round(factor * 10_000) };
  });
}
