/**
 * The REST surface of spec section 7: one thin route table over the tRPC procedures. Every
 * procedure in REST_PROCEDURES answers at the method and path its meta's `rest` names, under /api;
 * the input is the query string, the JSON body and the path parameters merged, and the procedure
 * runs through a server-side caller, so REST and tRPC reach the same code with the same validation.
 * Numbers: a path parameter or query string is text, so the text of a field the input's schema
 * takes as a number is read as that number (GET /api/market/quote?quantity=5); a JSON body carries
 * real numbers, so text there ("quantity": "5") is refused with a 400 naming the field, and nothing
 * is written (docs/api.md, "Numbers").
 *
 * The table is an explicit list (issue 13): tRPC v11 has no public API that lists a router's
 * procedures, so the table does not walk the router looking for tRPC's internal markers. A
 * procedure's `_def.meta` and `_def.inputs` are read as typed by tRPC's exported `Procedure` type.
 * api/test/rest-table.test.ts checks the list against the routers: every procedure that declares
 * `meta.rest` is here, under its own path, and nothing else is.
 */
import type { Context, Hono } from 'hono';
import { TRPCError, getTRPCErrorFromUnknown, type AnyTRPCProcedure } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { ZodError, z } from 'zod';
import { numberAsTextMessage, numberFromText, type ProcedureAccess } from '@marketcraft/shared';
import { appRouter } from './root.ts';
import { createCallerFactory, zodErrorMessage, type ProcedureMeta, type RestMeta } from './trpc.ts';
import { createRequestContext, type ApiServices } from './context.ts';
import { clientIpOf } from './clientIp.ts';
import type { Logger } from '@marketcraft/db/logger.ts';
import { logRequestError } from './requestLog.ts';
import { databaseUnavailableAnswer } from './availability.ts';
import { requestHeaderOf } from './fixedHeaders.ts';
import { matchesEtag } from './etag.ts';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

export interface RestRoute extends RestMeta {
  procedurePath: string;
  procedure: AnyTRPCProcedure;
  /** What a personal access token needs to call it (ProcedureMeta.access). */
  access: ProcedureAccess;
  /** The input's fields that take a number (their text in the path or the query is read as one). */
  numberFields: ReadonlySet<string>;
}

/** Every procedure served over REST, by its tRPC path, in the order its routes are registered and documented. */
export const REST_PROCEDURES = {
  'world.state': appRouter.world.state,
  'world.community': appRouter.world.community,

  'admin.check': appRouter.admin.check,
  'admin.worldState': appRouter.admin.worldState,
  'admin.cronStatus': appRouter.admin.cronStatus,
  'admin.advanceTurn': appRouter.admin.advanceTurn,

  'buildings.list': appRouter.buildings.list,
  'buildings.get': appRouter.buildings.get,
  'buildings.build': appRouter.buildings.build,
  'buildings.sell': appRouter.buildings.sell,
  'buildings.hireEmployees': appRouter.buildings.hireEmployees,
  'buildings.upgradeEquipment': appRouter.buildings.upgradeEquipment,
  'buildings.productionRate': appRouter.buildings.productionRate,
  'buildings.selectRecipe': appRouter.buildings.selectRecipe,
  'buildings.selectCategory': appRouter.buildings.selectCategory,
  'buildings.inventory': appRouter.buildings.inventory,
  'buildings.purchaseInventory': appRouter.buildings.purchaseInventory,
  'buildings.shelfPrice': appRouter.buildings.shelfPrice,
  'buildings.transferToStore': appRouter.buildings.transferToStore,

  'stores.products': appRouter.stores.products,
  'stores.updatePrice': appRouter.stores.updatePrice,
  'stores.toggle': appRouter.stores.toggle,
  'stores.remove': appRouter.stores.remove,

  'market.trade': appRouter.market.trade,
  'market.quote': appRouter.market.quote,
  'market.products': appRouter.market.products,
  'market.product': appRouter.market.product,

  'catalog.inventory': appRouter.catalog.inventory,
  'catalog.goods': appRouter.catalog.goods,
  'catalog.recipes': appRouter.catalog.recipes,
  'catalog.cities': appRouter.catalog.cities,
  'catalog.cityMarketData': appRouter.catalog.cityMarketData,

  'company.get': appRouter.company.get,
  'company.found': appRouter.company.found,
  'company.financialHistory': appRouter.company.financialHistory,
  'company.updateProfile': appRouter.company.updateProfile,
  'company.list': appRouter.company.list,
  'company.leaderboard': appRouter.company.leaderboard,

  'stocks.shares': appRouter.stocks.shares,
  'stocks.companyShares': appRouter.stocks.companyShares,
  'stocks.portfolio': appRouter.stocks.portfolio,
  'stocks.prices': appRouter.stocks.prices,
  'stocks.overview': appRouter.stocks.overview,
  'stocks.history': appRouter.stocks.history,
  'stocks.trade': appRouter.stocks.trade,
  'stocks.quote': appRouter.stocks.quote,

  'politics.countries': appRouter.politics.countries,
  'politics.influence': appRouter.politics.influence,
  'politics.events': appRouter.politics.events,
  'politics.recentEvents': appRouter.politics.recentEvents,
  'politics.invest': appRouter.politics.invest,

  'research.upgrades': appRouter.research.upgrades,
  'research.company': appRouter.research.company,
  'research.purchase': appRouter.research.purchase,

  'news.recent': appRouter.news.recent,

  'tokens.list': appRouter.tokens.list,
  'tokens.create': appRouter.tokens.create,
  'tokens.revoke': appRouter.tokens.revoke,
  'tokens.usage': appRouter.tokens.usage,
  'tokens.busiest': appRouter.tokens.busiest,

  'transactions.list': appRouter.transactions.list,

  'warehouse.holdings': appRouter.warehouse.holdings,
  'warehouse.move': appRouter.warehouse.move,

  'reports.list': appRouter.reports.list,
  'reports.get': appRouter.reports.get,

  'worlds.list': appRouter.worlds.list,
  'worlds.current': appRouter.worlds.current,
  'worlds.switch': appRouter.worlds.switch,
  'worlds.create': appRouter.worlds.create,
  'worlds.join': appRouter.worlds.join,
  'worlds.get': appRouter.worlds.get,
  'worlds.update': appRouter.worlds.update,
  'worlds.advance': appRouter.worlds.advance,
  'worlds.fork': appRouter.worlds.fork,
  'worlds.end': appRouter.worlds.end,
  'worlds.rotateCode': appRouter.worlds.rotateCode,
  'worlds.instructors': appRouter.worlds.instructors,
  'worlds.addCoInstructor': appRouter.worlds.addCoInstructor,
  'worlds.removeCoInstructor': appRouter.worlds.removeCoInstructor,
  'worlds.shocks': appRouter.worlds.shocks,
  'worlds.addShock': appRouter.worlds.addShock,
  'worlds.announce': appRouter.worlds.announce,
  'worlds.companies': appRouter.worlds.companies,
  'worlds.debrief': appRouter.worlds.debrief,
  'worlds.forkComparison': appRouter.worlds.forkComparison,
  'worlds.export': appRouter.worlds.export,
  'teams.list': appRouter.teams.list,
  'teams.contributions': appRouter.teams.contributions,
  'teams.assign': appRouter.teams.assign,
  'teams.update': appRouter.teams.update,
  'teams.remove': appRouter.teams.remove,

  'exchange.placeOrder': appRouter.exchange.placeOrder,
  'exchange.orders': appRouter.exchange.orders,
  'exchange.cancelOrder': appRouter.exchange.cancelOrder,
  'exchange.book': appRouter.exchange.book,
  'exchange.auctions': appRouter.exchange.auctions,

  'contracts.offer': appRouter.contracts.offer,
  'contracts.list': appRouter.contracts.list,
  'contracts.accept': appRouter.contracts.accept,
  'contracts.decline': appRouter.contracts.decline,
  'contracts.cancel': appRouter.contracts.cancel,
  'data.manifest': appRouter.data.manifest,

  'assignments.list': appRouter.assignments.list,
  'assignments.create': appRouter.assignments.create,
  'assignments.update': appRouter.assignments.update,
  'assignments.remove': appRouter.assignments.remove,
  'assignments.gradebook': appRouter.assignments.gradebook,
  'assignments.setWeights': appRouter.assignments.setWeights,
  'assignments.mine': appRouter.assignments.mine,
  'assignments.answer': appRouter.assignments.answer,

  'lti.platforms': appRouter.lti.platforms,
  'lti.registerPlatform': appRouter.lti.registerPlatform,
  'lti.postScores': appRouter.lti.postScores,
  'lti.roster': appRouter.lti.roster,
  'lti.courses': appRouter.lti.courses,
  'lti.linkCourse': appRouter.lti.linkCourse,
} satisfies Record<string, AnyTRPCProcedure>;

/** Whether a JSON Schema takes a number (an integer, a number, or one of them or null). */
function takesNumber(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { type, anyOf, oneOf } = schema as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
  const types = Array.isArray(type) ? type : [type];
  return types.includes('number') || types.includes('integer') || [...(anyOf ?? []), ...(oneOf ?? [])].some(takesNumber);
}

/** The top-level fields of a procedure's input that take a number, read from its JSON Schema (as the OpenAPI document is). */
function numberFieldsOf(procedure: AnyTRPCProcedure): Set<string> {
  const input = procedure._def.inputs[0] as z.ZodType | undefined;
  if (!input) return new Set();
  const properties = (z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }).properties ?? {}) as Record<string, unknown>;
  return new Set(Object.keys(properties).filter((name) => takesNumber(properties[name])));
}

/**
 * The path's or query's values with the text of each number field read as its number ("5" is 5).
 * Text that spells none ("abc") is read as NaN, which the field's schema refuses with its own
 * message ('id must be a number'; the text is no mistake of type here, as it is in a JSON body).
 */
function readNumberFields(values: Record<string, string>, numberFields: ReadonlySet<string>): Record<string, unknown> {
  const read: Record<string, unknown> = { ...values };
  for (const name of numberFields) {
    const text = values[name];
    if (text !== undefined) read[name] = numberFromText(text) ?? Number.NaN;
  }
  return read;
}

/**
 * A JSON body gives numbers as JSON numbers: text that spells a number in a number field ("5") is a
 * 400 naming the field, never read as the number. Other text ("abc") is the schema's to refuse, with
 * the field's own message (the spec's, where it gives one).
 */
function refuseNumbersAsText(body: Record<string, unknown>, numberFields: ReadonlySet<string>): void {
  for (const name of numberFields) {
    const value = body[name];
    if (typeof value === 'string' && numberFromText(value) !== null) throw new TRPCError({ code: 'BAD_REQUEST', message: numberAsTextMessage(name, value) });
  }
}

let table: RestRoute[] | null = null;

/** The REST table: each procedure of REST_PROCEDURES at the method and path of its `meta.rest`. */
export function restRoutes(): RestRoute[] {
  if (!table) {
    table = Object.entries(REST_PROCEDURES).map(([procedurePath, procedure]: [string, AnyTRPCProcedure]) => {
      const meta = procedure._def.meta as ProcedureMeta | undefined;
      const rest = meta?.rest;
      if (!rest) throw new Error(`${procedurePath} is in the REST table but its meta names no rest method and path`);
      return { ...rest, procedurePath, procedure, access: meta.access, numberFields: numberFieldsOf(procedure) };
    });
  }
  return table;
}

/**
 * Turns any error into the JSON error body and HTTP status a REST client reads: an unreachable
 * database answers 503 with Retry-After; an unexpected error is logged (once, here, with the
 * request's id) and answers a generic 500.
 */
export function restErrorResponse(error: unknown, logger: Logger, req: Request): { status: number; body: { error: string }; retryAfterSeconds?: number } {
  const unavailable = databaseUnavailableAnswer(error instanceof TRPCError ? (error.cause ?? error) : error);
  if (unavailable) return unavailable;
  const trpcError = error instanceof TRPCError ? error : getTRPCErrorFromUnknown(error);
  const status = getHTTPStatusCodeFromError(trpcError);
  if (trpcError.cause instanceof ZodError) return { status: 400, body: { error: zodErrorMessage(trpcError.cause) } };
  if (status >= 500 && trpcError.code === 'INTERNAL_SERVER_ERROR') {
    logRequestError(logger, req, trpcError.cause ?? trpcError, 'unexpected error');
    return { status: 500, body: { error: 'Something went wrong on our side. Please try again.' } };
  }
  return { status, body: { error: trpcError.message } };
}

const createCaller = createCallerFactory(appRouter);

/**
 * The path's ids win over the body's and the query's, so a body naming another id (POST
 * /api/buildings/97/hire-employees {"id": 95, ...}) would silently act on 97: a script that built
 * the body from another building's record would never hear of its mistake. The same id, or none,
 * is fine (the OpenAPI bodies leave path ids out).
 */
function refuseConflictingPathIds(params: Record<string, string>, query: Record<string, string>, body: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(params)) {
    for (const [where, given] of [
      ['body', body[name]],
      ['query', query[name]],
    ] as const) {
      if (given === undefined || String(given) === value) continue;
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `${name} is ${value} in the path but ${JSON.stringify(given).slice(0, 40)} in the ${where}: send it in the path only`,
      });
    }
  }
}

/**
 * A query word given twice (`?status=open&status=filled`) is refused: no route takes a list in its
 * query, and reading only the first would answer a question the script did not ask.
 */
function refuseRepeatedQueryWords(c: Context): void {
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (values.length > 1) throw new TRPCError({ code: 'BAD_REQUEST', message: `${name} is given ${values.length} times in the query: send it once` });
  }
}

async function readJsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The request body must be valid JSON' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The request body must be a JSON object' });
  }
  return parsed as Record<string, unknown>;
}

/**
 * A kept answer, written once: a deep-frozen answer is one a read keeps and hands to every caller
 * until it changes (GET /goods: 304 products, the same list until a trade, a turn or a shock;
 * db/src/game/catalog/catalog.ts). Serializing it and encoding the ~60 kB string to UTF-8 on every
 * request was a good part of each one: its bytes are kept (@hono/node-server writes a byte body as
 * it is), with a weak ETag of them, and its gzip the first time a caller accepts gzip (browsers
 * and Python's requests ask for it by default): several times fewer bytes to write per answer.
 * A new answer is a new object, so a trade or a turn gives new bytes and a new ETag at once.
 */
interface KeptAnswer {
  json: Uint8Array;
  etag: string;
  gzip?: Uint8Array;
}
const keptAnswers = new WeakMap<object, KeptAnswer>();

function keptAnswerOf(output: unknown): KeptAnswer | null {
  if (typeof output !== 'object' || output === null || !Object.isFrozen(output)) return null;
  let kept = keptAnswers.get(output);
  if (kept === undefined) {
    const json = Buffer.from(JSON.stringify(output), 'utf8');
    kept = { json, etag: `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
    keptAnswers.set(output, kept);
  }
  return kept;
}

/** Whether Accept-Encoding takes gzip (and does not refuse it with q=0). */
function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(',').some((entry) => {
    const [coding, ...parameters] = entry.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    return (coding === 'gzip' || coding === 'x-gzip') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/**
 * The answer of a GET with a kept answer: its bytes (gzipped when the caller accepts gzip) with its
 * ETag, or 304 with no body when the caller already has them (If-None-Match). Every kept answer
 * varies by Accept-Encoding, so a cache between keeps each encoding apart.
 */
function keptAnswerResponse(c: Context, kept: KeptAnswer, resHeaders: Headers): Response {
  resHeaders.set('etag', kept.etag);
  resHeaders.set('vary', 'Accept-Encoding');
  // Cached only if asked again first (the prices move with every trade).
  resHeaders.set('cache-control', 'private, no-cache');
  if (matchesEtag(requestHeaderOf(c, 'if-none-match'), kept.etag)) return new Response(null, { status: 304, headers: resHeaders });
  resHeaders.set('content-type', 'application/json; charset=utf-8');
  if (!acceptsGzip(requestHeaderOf(c, 'accept-encoding'))) return new Response(kept.json, { status: 200, headers: resHeaders });
  resHeaders.set('content-encoding', 'gzip');
  kept.gzip ??= gzipSync(kept.json);
  return new Response(kept.gzip, { status: 200, headers: resHeaders });
}

export function registerRestRoutes(app: Hono, services: ApiServices): void {
  for (const route of restRoutes()) {
    const honoPath = '/api' + route.path.replace(/\{(\w+)\}/g, ':$1');
    app.on(route.method, honoPath, async (c) => {
      const resHeaders = new Headers();
      try {
        // The call is counted against the session's budget with the session check (one query).
        const ctx = await createRequestContext(services, c.req.raw, resHeaders, clientIpOf(c, services.config.TRUST_PROXY_HOPS), {
          calls: 1,
          isMutation: route.method !== 'GET',
          // A personal access token's call is counted with its check too (same rule: its scope).
          access: route.access,
        });
        const body = route.method === 'GET' || route.method === 'DELETE' ? {} : await readJsonBody(c);
        const query = c.req.query();
        const params = c.req.param() as Record<string, string>;
        // Signed-in callers only: without credentials the procedure answers 401 first, as everywhere.
        if (ctx.user) {
          refuseRepeatedQueryWords(c);
          refuseConflictingPathIds(params, query, body);
          refuseNumbersAsText(body, route.numberFields);
        }
        const input = { ...readNumberFields(query, route.numberFields), ...body, ...readNumberFields(params, route.numberFields) };
        const caller = createCaller(ctx) as unknown as Record<string, unknown>;
        // Walk "buildings.hireEmployees" down the caller proxy to the procedure function.
        const call = route.procedurePath.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
          input: unknown,
        ) => Promise<unknown>;
        const output = await call(input);
        const kept = route.method === 'GET' ? keptAnswerOf(output) : null;
        if (kept) return keptAnswerResponse(c, kept, resHeaders);
        resHeaders.set('content-type', 'application/json; charset=utf-8');
        return new Response(JSON.stringify(output ?? { ok: true }), { status: route.created ? 201 : 200, headers: resHeaders });
      } catch (error) {
        const { status, body, retryAfterSeconds } = restErrorResponse(error, services.logger, c.req.raw);
        resHeaders.set('content-type', 'application/json; charset=utf-8');
        if (retryAfterSeconds !== undefined) resHeaders.set('retry-after', String(retryAfterSeconds));
        return new Response(JSON.stringify(body), { status, headers: resHeaders });
      }
    });
  }
}

/**
 * The methods the REST routes take at a path (GET /api/goods: ['GET']), for the 405 a script gets
 * when it uses another one; empty when no route has this path at all (then 404).
 */
export function restMethodsAt(requestPath: string): string[] {
  const methods = new Set<string>();
  for (const route of restRoutes()) {
    const pattern = new RegExp('^/api' + route.path.replace(/\{\w+\}/g, '[^/]+') + '/?$');
    if (pattern.test(requestPath)) methods.add(route.method);
  }
  return [...methods];
}
