// Request schemas for the research domain (see common.ts for the building blocks).
import { z } from 'zod';
import { idSchema } from './common.ts';

/** POST /api/research/purchase {upgrade_id}. */
export const researchPurchaseSchema = z.object({ upgrade_id: idSchema });
export type ResearchPurchaseInput = z.input<typeof researchPurchaseSchema>;
