/**
 * What every REST route answers on success: each procedure's response schema, from
 * shared/src/schemas/<domain>.ts (beside the domain's input schemas; the db views are typed from
 * them). The OpenAPI document lists them (GET /api/openapi.json, /api/docs), and
 * `api/test/responses.integration.test.ts` parses every route's real answer with them. The objects
 * are strict, so a field the server sends but the schema does not document (or a private one that
 * must never leave the server) fails that test.
 *
 * The map is typed against the routers' outputs (`satisfies ResponseSchemas` below): a procedure
 * without a documented answer, or a documented field the procedure does not return, does not
 * typecheck.
 */
import { z } from 'zod';
import type { inferRouterOutputs } from '@trpc/server';
import {
  adminResponses,
  assignmentsResponses,
  buildingsResponses,
  catalogResponses,
  companyResponses,
  contractsResponses,
  dataManifestResponse,
  errorResponseSchema,
  exchangeResponses,
  marketResponses,
  newsResponses,
  okResponseSchema,
  politicsResponses,
  providersResponseSchema,
  reportsResponses,
  researchResponses,
  sessionResponseSchema,
  signedInResponseSchema,
  stocksResponses,
  storesResponses,
  tokensResponses,
  transactionsResponses,
  warehouseResponses,
  worldResponses,
  worldsResponses,
  teamsResponses,
  ltiResponses,
} from '@marketcraft/shared';
import type { AppRouter } from './root.ts';
import type { Health } from './health.ts';

type Outputs = inferRouterOutputs<AppRouter>;
/** One schema per procedure, whose output is what the procedure returns. */
type ResponseSchemas = { [Domain in keyof Outputs]: { [Procedure in keyof Outputs[Domain]]: z.ZodType<Outputs[Domain][Procedure]> } };

const responseSchemas = {
  worlds: worldsResponses,
  teams: teamsResponses,
  world: worldResponses,
  admin: adminResponses,
  buildings: buildingsResponses,
  stores: storesResponses,
  market: marketResponses,
  catalog: catalogResponses,
  company: companyResponses,
  stocks: stocksResponses,
  politics: politicsResponses,
  research: researchResponses,
  transactions: transactionsResponses,
  reports: reportsResponses,
  warehouse: warehouseResponses,
  news: newsResponses,
  tokens: tokensResponses,
  exchange: exchangeResponses,
  contracts: contractsResponses,
  data: { manifest: dataManifestResponse },
  assignments: assignmentsResponses,
  lti: ltiResponses,
} satisfies ResponseSchemas;

/** POST /api/auth/signup and /api/auth/signin. */
export const signedInResponse = signedInResponseSchema;
/** GET /api/auth/session. */
export const sessionResponse = sessionResponseSchema;
/** GET /api/auth/providers. */
export const providersResponse = providersResponseSchema;
/** POST /api/auth/signout. */
export const okResponse = okResponseSchema;
/** GET /api/health (api/src/health.ts): 200 when ok, 503 with the same body when not. */
export const healthResponse = z.strictObject({
  ok: z.boolean().describe('This server can serve players: database up and not shutting down'),
  database: z.enum(['up', 'down']),
  queue: z.enum(['up', 'no worker', 'unknown']).describe("'up': a turn worker is connected; 'no worker': turns wait (the game still plays)"),
  shutting_down: z.boolean(),
}) satisfies z.ZodType<Health>;
/** Every error answer. */
export const errorResponse = errorResponseSchema;

/** The schema documenting a procedure's answer ("stocks.history"), if any. */
export function responseSchemaOf(procedurePath: string): z.ZodType | undefined {
  const [domain, procedure] = procedurePath.split('.') as [string, string];
  return (responseSchemas as Record<string, Record<string, z.ZodType>>)[domain]?.[procedure];
}
