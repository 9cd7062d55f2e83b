// The world's news (GET /api/news/recent).
import { z } from 'zod';
import { POLITICAL_EVENT_TYPES } from '../catalog.ts';
import { dollarsSchema, responseIdSchema, timestampSchema } from './common.ts';

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const id = responseIdSchema;
const dollars = dollarsSchema;
const timestamp = timestampSchema;

export const newsResponses = {
  recent: z
    .array(
      z.strictObject({
        id: z.string().describe("Unique across kinds, e.g. 'political-7', 'transaction-120', 'stock-3-12'"),
        kind: z.enum(['political', 'transaction', 'stock', 'shock', 'announcement']),
        event_type: z.enum(POLITICAL_EVENT_TYPES).nullable(),
        description: z.string(),
        amount: dollars.nullable(),
        company_id: id.nullable(),
        country_id: id.nullable(),
        week: z.number().int().positive().describe('The game week it happened in'),
        created_at: timestamp,
      }),
    )
    .max(15),
};

export type NewsItem = z.infer<typeof newsResponses.recent>[number];
