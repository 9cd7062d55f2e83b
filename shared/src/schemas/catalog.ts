// Request schemas for the catalog domain (see common.ts for the building blocks).
import { z } from 'zod';
import { buildingTypeSchema, rowIdSchema } from './buildings.ts';

const idSchema = rowIdSchema;

export const cityIdInput = z.object({ id: idSchema });
/** GET /recipes?building_type=factory (optional filter; the web filters case-insensitively too). */
export const recipesInput = z.object({ building_type: buildingTypeSchema.optional() }).optional();
