/**
 * Fuzzes every REST route that exists at run time (restRoutes(), so routes other domains add are
 * covered too): invalid bodies, query values and path ids must answer a 4xx JSON {error} (never a
 * 500) and move no money; every route but GET /api/world and GET /api/community needs a session (401).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { companies, ledgerMismatches, transactions, type Database } from '@marketcraft/db';
import { restRoutes, type RestRoute } from '../src/rest.ts';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

/** Every method and path of the spec's section 7 table (under /api), row by row. */
const SPEC_SECTION_7_ROUTES = [
  'GET /admin/check',
  'GET /admin/world-state',
  'GET /admin/cron-status',
  'POST /admin/advance-turn',
  'GET /world',
  'GET /company',
  'GET /company/financial-history',
  'PATCH /company/profile',
  'GET /companies',
  'GET /buildings',
  'POST /buildings',
  'GET /cities',
  'GET /cities/{id}/market-data',
  'GET /inventory',
  'GET /goods',
  'GET /recipes',
  'POST /market/trade',
  'GET /shares',
  'GET /company-shares',
  'GET /portfolio',
  'GET /stock-prices',
  'GET /stocks/history',
  'POST /stocks/trade',
  'GET /political-events',
  'GET /transactions/recent',
  'GET /countries',
  'GET /influence',
  'GET /events',
  'POST /politics/invest',
  'GET /research/upgrades',
  'GET /research/company',
  'POST /research/purchase',
  'GET /buildings/{id}/inventory',
  'POST /buildings/{id}/inventory/purchase',
  'POST /buildings/{id}/inventory/transfer-to-store',
  'GET /stores/{id}/products',
  'PUT /stores/{id}/products/{productId}',
  'PATCH /stores/{id}/products/{productId}/toggle',
  'DELETE /stores/{id}/products/{productId}',
  'POST /buildings/{id}/hire-employees',
  'POST /buildings/{id}/upgrade-equipment',
  'PUT /buildings/{id}/production-rate',
  'PUT /buildings/{id}/select-recipe',
  'PUT /buildings/{id}/select-category',
];

/** Routes a visitor may call without a session. */
const PUBLIC_ROUTES = new Set(['GET /world', 'GET /community']);
const BAD_PATH_IDS = ['abc', '-1', '0', '1.5', '99999999'];

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  not?: unknown;
}

function inputJsonSchema(route: RestRoute): JsonSchema {
  const schema = route.procedure._def.inputs[0] as z.ZodType | undefined;
  if (!schema) return {};
  try {
    return objectSchemaOf(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
  } catch {
    return {};
  }
}

/** The object schema inside optional/nullable wrappers. */
function objectSchemaOf(schema: JsonSchema): JsonSchema {
  if (schema.properties) return schema;
  for (const option of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    const found = objectSchemaOf(option);
    if (found.properties) return found;
  }
  return schema;
}

function plainTypeOf(schema: JsonSchema): { type: string; schema: JsonSchema; nullable: boolean } {
  const options = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  const nullable = options.some((option) => option.type === 'null') || schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'));
  if (options.length) {
    const first = options.find((option) => option.type !== 'null') ?? {};
    return { ...plainTypeOf(first), nullable };
  }
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'unknown') : (schema.type ?? (schema.enum ? 'string' : 'unknown'));
  return { type, schema, nullable };
}

/** A plausible valid value, so a request differs from a valid one by one field only. */
function baselineValue(schema: JsonSchema): unknown {
  const { type, schema: plain } = plainTypeOf(schema);
  if (plain.enum?.length) return plain.enum[0];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'string') return 'Fuzz';
  if (type === 'array') return [];
  return 1;
}

/** Values that are invalid for the field, by its type. */
function badValues(schema: JsonSchema): unknown[] {
  const { type, schema: plain, nullable } = plainTypeOf(schema);
  const common: unknown[] = [{}, { nested: true }, [1, 2]];
  if (!nullable) common.push(null);
  // true, false, [5] and ' ' are what z.coerce would have read as 1, 0, 5 and 0.
  const notNumbers: unknown[] = [true, false, [5], ' ', '0x10', 'Infinity'];
  // 0 is invalid unless the field allows it (an offset starts at 0).
  const zero = (plain.minimum ?? 1) > 0 ? [0] : [];
  if (type === 'integer') return [...common, ...notNumbers, -1, ...zero, 1.5, -0.5, 1e20, 'abc', '1.5', '-7', '', 'NaN'];
  if (type === 'number') return [...common, ...notNumbers, -1, 0, -0.01, 1e20, 'abc', '', 'NaN', '-5'];
  if (type === 'boolean') return [...common, 'abc', 2, -1];
  if (type === 'string') {
    // NUL (PostgreSQL cannot store it in text), an escape sequence, DEL and a C1 control.
    const values: unknown[] = [...common, 12345, -1, true, 'a\u0000b', '\u0000', 'a\u001b[2Jb', 'a\u007f', 'a\u0085b'];
    if (plain.enum?.length) values.push('not-a-valid-value', '', ' ');
    if ((plain.minLength ?? 0) > 0) values.push('', '   ');
    if (plain.maxLength !== undefined) values.push('x'.repeat(plain.maxLength + 1));
    return values;
  }
  return common;
}

function pathWith(route: RestRoute, id: string): string {
  return route.path.replace(/\{\w+\}/g, encodeURIComponent(id));
}

function queryOf(body: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

describe('fuzzing every REST route', () => {
  let app: TestApp;
  let db: Database;
  let player: TestPlayer;
  const routes = restRoutes();

  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    player = await app.createPlayer({ cash: 50_000 });
  });
  afterAll(async () => {
    await app.close();
  });

  async function cash(): Promise<number> {
    const [row] = await db.select({ cash: companies.cashCents }).from(companies).where(eq(companies.id, player.companyId));
    return row!.cash;
  }

  async function expectRefused(route: RestRoute, path: string, body: unknown, label: string) {
    const isRead = route.method === 'GET' || route.method === 'DELETE';
    const url = isRead && body && typeof body === 'object' && !Array.isArray(body) ? path + queryOf(body as Record<string, unknown>) : path;
    const response = await app.api(route.method, url, { token: player.token, body: isRead ? undefined : body });
    const where = `${route.method} ${url} ${isRead ? '' : JSON.stringify(body)?.slice(0, 200)} (${label})`;
    expect(response.status, `${where} -> ${response.status} ${JSON.stringify(response.body)}`).toBeGreaterThanOrEqual(400);
    expect(response.status, `${where} -> ${JSON.stringify(response.body)}`).toBeLessThan(500);
    expect(typeof response.body?.error, `${where}: body ${JSON.stringify(response.body)}`).toBe('string');
  }

  it('answers every row of the spec section 7 table at exactly its method and path', () => {
    // Path placeholders are named after the input field they fill ({productId} in the spec is {product_id} here).
    const keys = new Set(routes.map((route) => `${route.method} ${route.path.replace(/\{\w+\}/g, '{}')}`));
    const missing = SPEC_SECTION_7_ROUTES.filter((row) => !keys.has(row.replace(/\{\w+\}/g, '{}')));
    expect(missing).toEqual([]);
    expect(SPEC_SECTION_7_ROUTES).toHaveLength(44);
  });

  it('answers 401 to every route without a session (but GET /api/world and /api/community)', async () => {
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      if (PUBLIC_ROUTES.has(key)) continue;
      const schema = inputJsonSchema(route);
      const body = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, field]) => [name, baselineValue(field)]));
      const isRead = route.method === 'GET' || route.method === 'DELETE';
      const response = await app.api(route.method, pathWith(route, '1') + (isRead ? queryOf(body) : ''), { body: isRead ? undefined : body });
      expect(response.status, key).toBe(401);
      expect(typeof response.body?.error, key).toBe('string');
    }
  });

  it('answers invalid bodies, query values and path ids with a 4xx JSON error and moves no money', async () => {
    const cashBefore = await cash();
    // Every invalid request, sent 8 at a time (none is accepted, so none depends on another): one after
    // the other they took over 60 s on a busy machine.
    const requests: Array<() => Promise<void>> = [];
    for (const route of routes) {
      const schema = inputJsonSchema(route);
      const properties = schema.properties ?? {};
      const required = schema.required ?? [];
      const baseline = Object.fromEntries(Object.entries(properties).map(([name, field]) => [name, baselineValue(field)]));
      const isRead = route.method === 'GET' || route.method === 'DELETE';
      const hasPathParams = /\{\w+\}/.test(route.path);
      const path = pathWith(route, '1');

      // One invalid field at a time, the others plausible.
      for (const [name, field] of Object.entries(properties)) {
        if (route.path.includes(`{${name}}`)) continue;
        for (const bad of badValues(field)) {
          if (isRead && (bad === null || typeof bad === 'object')) continue; // not expressible in a query string
          // A query string carries text: 12345 or true there is the text "12345" or "true", which a text field may take.
          if (isRead && plainTypeOf(field).type === 'string' && !plainTypeOf(field).schema.enum && typeof bad !== 'string') continue;
          requests.push(() => expectRefused(route, path, { ...baseline, [name]: bad }, `field ${name}`));
        }
      }
      // Missing fields; extra fields beside a missing one.
      if (required.some((name) => !route.path.includes(`{${name}}`))) {
        requests.push(() => expectRefused(route, path, {}, 'missing fields'));
        const extra = isRead ? { unexpected_field: 'x' } : '{"unexpected_field":"x","__proto__":{"polluted":true},"constructor":{"prototype":{}}}';
        requests.push(() => expectRefused(route, path, extra, 'extra fields'));
      }
      // Bodies that are not a JSON object.
      if (!isRead) {
        for (const raw of ['{"unterminated": ', 'not json', '[1,2,3]', 'null', '"text"', '42']) {
          requests.push(() => expectRefused(route, path, raw, 'raw body'));
        }
      }
      // Invalid path ids.
      if (hasPathParams) {
        for (const id of BAD_PATH_IDS) {
          requests.push(() => expectRefused(route, pathWith(route, id), isRead ? baseline : baseline, `path id ${id}`));
        }
      }
    }
    for (let start = 0; start < requests.length; start += 8) await Promise.all(requests.slice(start, start + 8).map((send) => send()));
    expect(requests.length).toBeGreaterThan(20);
    console.info(`[fuzz] ${routes.length} routes, ${requests.length} invalid requests`);
    expect(await cash()).toBe(cashBefore);
    expect(await db.select({ id: transactions.id }).from(transactions).where(eq(transactions.companyId, player.companyId))).toEqual([]);
    expect(await ledgerMismatches(db)).toEqual([]);
  });
});
