// Request schemas for the buildings domain (see common.ts for the building blocks).
import { z } from 'zod';
import { BUILDING_TYPE_NAMES } from '../buildingTypes.ts';
import { PRODUCT_CATEGORIES } from '../catalog.ts';
import { MAX_EQUIPMENT_LEVEL, MAX_HIRE_PER_ACTION, MAX_PRODUCTION_RATE, MAX_TRADE_QUANTITY, MIN_EQUIPMENT_LEVEL, MIN_PRODUCTION_RATE } from '../constants.ts';
import { idSchema, positiveIntegerUpTo } from './common.ts';

/** Kept as an alias: every id schema is the common, bounded idSchema. */
export const rowIdSchema = idSchema;

const HIRE_COUNT_MESSAGE = `Please enter a number between 1 and ${MAX_HIRE_PER_ACTION}`;
const EQUIPMENT_LEVEL_MESSAGE = 'Please select a valid level (2-5)';
const PRODUCTION_RATE_MESSAGE = `Production rate must be between ${MIN_PRODUCTION_RATE} and ${MAX_PRODUCTION_RATE}`;

/** Building type among the 17 of the build schema. */
export const buildingTypeSchema = z.enum(BUILDING_TYPE_NAMES);
/** One of the 7 product categories. */
export const productCategorySchema = z.enum(PRODUCT_CATEGORIES);
/** Units to buy, sell or move: a positive whole number (at most MAX_TRADE_QUANTITY). */
export const unitQuantitySchema = positiveIntegerUpTo(MAX_TRADE_QUANTITY, `Please enter a quantity of at most ${MAX_TRADE_QUANTITY.toLocaleString('en-US')}`);
/**
 * Whole cents: 4.35 yes; 4.355 and 4.350000001 no. A price computed in floating point lands a few
 * units in its last place off its cents (0.1 + 0.2 is 0.30000000000000004, 4.35 x 100 is
 * 434.99999999999994): that much is noise and passes. Anything more is a fraction of a cent that
 * would be rounded away without a word (a fixed 1e-6 cent allowance took $4.350000001 as $4.35).
 */
export function isWholeCents(dollars: number): boolean {
  const cents = dollars * 100;
  return Math.abs(cents - Math.round(cents)) <= Math.max(1, Math.abs(cents)) * 8 * Number.EPSILON;
}

/** A retail price in dollars: at least one cent, in whole cents (never rounded: 4.355 is refused). */
export const retailPriceSchema = z
  .number({ error: 'Please enter a valid price' })
  .positive('Please enter a valid price')
  .min(0.01, 'Please enter a valid price')
  .max(1_000_000_000)
  .refine(isWholeCents, 'Please enter a valid price');

export const buildingIdInput = z.object({ id: idSchema });

export const buildBuildingInput = z.object({ type: buildingTypeSchema, city_id: idSchema });

export const hireEmployeesInput = z.object({
  id: idSchema,
  count: z
    .number({ error: HIRE_COUNT_MESSAGE })
    .int(HIRE_COUNT_MESSAGE)
    .min(1, HIRE_COUNT_MESSAGE)
    .max(MAX_HIRE_PER_ACTION, HIRE_COUNT_MESSAGE),
});

export const upgradeEquipmentInput = z.object({
  id: idSchema,
  target_level: z
    .number({ error: EQUIPMENT_LEVEL_MESSAGE })
    .int(EQUIPMENT_LEVEL_MESSAGE)
    .min(MIN_EQUIPMENT_LEVEL, EQUIPMENT_LEVEL_MESSAGE)
    .max(MAX_EQUIPMENT_LEVEL, EQUIPMENT_LEVEL_MESSAGE),
});

export const productionRateInput = z.object({
  id: idSchema,
  new_rate: z
    .number({ error: PRODUCTION_RATE_MESSAGE })
    .int(PRODUCTION_RATE_MESSAGE)
    .min(MIN_PRODUCTION_RATE, PRODUCTION_RATE_MESSAGE)
    .max(MAX_PRODUCTION_RATE, PRODUCTION_RATE_MESSAGE),
});

export const selectRecipeInput = z.object({ id: idSchema, recipe_id: idSchema });

export const selectCategoryInput = z.object({ id: idSchema, category: productCategorySchema });

/** POST /buildings/{id}/inventory/purchase: trade hall products or factory raw materials. */
export const buildingInventoryPurchaseInput = z.object({ id: idSchema, product_id: idSchema, quantity: unitQuantitySchema });

/** GET /buildings/{id}/shelf-price?product_id=: the price to suggest for a product going on the store's shelf. */
export const shelfPriceInput = z.object({ id: idSchema, product_id: idSchema });

/** POST /buildings/{id}/inventory/transfer-to-store. */
export const transferToStoreInput = z.object({ id: idSchema, product_id: idSchema, quantity: unitQuantitySchema, retail_price: retailPriceSchema });

export type BuildBuildingInput = z.infer<typeof buildBuildingInput>;
export type HireEmployeesInput = z.infer<typeof hireEmployeesInput>;
export type UpgradeEquipmentInput = z.infer<typeof upgradeEquipmentInput>;
export type ProductionRateInput = z.infer<typeof productionRateInput>;
export type TransferToStoreInput = z.infer<typeof transferToStoreInput>;
