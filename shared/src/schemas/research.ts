// Request schemas for the research domain (see common.ts for the building blocks).
import { z } from 'zod';
import { dollarsSchema, idSchema, responseIdSchema } from './common.ts';
import { RESEARCH_CATEGORIES } from '../catalog.ts';
import { buildingTypeSchema } from './buildings.ts';

/** POST /api/research/purchase {upgrade_id}. */
export const researchPurchaseSchema = z.object({ upgrade_id: idSchema });

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const id = responseIdSchema;
const dollars = dollarsSchema;
const buildingType = buildingTypeSchema;

export const researchResponses = {
  upgrades: z.array(
    z.strictObject({
      id,
      name: z.string(),
      description: z.string(),
      category: z.enum(RESEARCH_CATEGORIES),
      tier: z.number().int().min(1).max(5),
      research_cost: dollars,
      effective_cost: dollars.describe('Your price after research_discount effects (capped at 50%)'),
      prerequisite_id: id.nullable(),
      prerequisite_name: z.string().nullable(),
      building_type: buildingType.nullable(),
      effects: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
      researched: z.boolean(),
      locked: z.boolean(),
    }),
  ),
  company: z.array(id).describe('The upgrade_id of every upgrade you researched'),
  purchase: z.strictObject({ upgrade_id: id, name: z.string(), cost: dollars, discount_percent: z.number(), cash: dollars }),
};

export type ResearchUpgradeView = z.infer<typeof researchResponses.upgrades>[number];
export type ResearchPurchaseResult = z.infer<typeof researchResponses.purchase>;
