/**
 * The money and goods invariants after ANY sequence of player operations through the REST API
 * (fast-check, fixed seed, so a run is repeatable): random batches of builds, hires, equipment,
 * market and share trades, store purchases, shelf moves, building sales, lobbying and research by
 * three players, each batch sent concurrently. After every sequence:
 *  - each company's cash = its starting cash + the sum of its ledger rows (the sum check), also as
 *    the players read it from GET /api/company;
 *  - no player's cash, no quantity and no holding is negative; shares held never exceed an issuer's total;
 *  - nothing a client sent answered a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { ledgerMismatches, shareMismatches, type Database } from '@marketcraft/db';
import { BUILDING_TYPE_NAMES } from '@marketcraft/shared';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

type Action =
  | { kind: 'build'; type: string; city: number }
  | { kind: 'hire'; building: number; count: number }
  | { kind: 'equipment'; building: number; level: number }
  | { kind: 'market'; product: number; quantity: number; action: 'buy' | 'sell' }
  | { kind: 'storePurchase'; building: number; product: number; quantity: number }
  | { kind: 'transfer'; building: number; product: number; quantity: number; cents: number }
  | { kind: 'shelfRemove'; building: number; product: number }
  | { kind: 'sellBuilding'; building: number }
  | { kind: 'stock'; issuer: number; shares: number; action: 'buy' | 'sell' }
  | { kind: 'invest'; country: number; units: number }
  | { kind: 'research'; upgrade: number };

interface Step {
  player: number;
  action: Action;
}

const pick = fc.nat({ max: 20 });
const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('build' as const), type: fc.constantFrom('store', 'farm', 'mill', 'store'), city: pick }) },
  fc.record({ kind: fc.constant('hire' as const), building: pick, count: fc.integer({ min: 1, max: 10 }) }),
  fc.record({ kind: fc.constant('equipment' as const), building: pick, level: fc.integer({ min: 2, max: 5 }) }),
  fc.record({
    kind: fc.constant('market' as const),
    product: fc.nat({ max: 2 }),
    quantity: fc.integer({ min: 1, max: 400 }),
    action: fc.constantFrom('buy' as const, 'sell' as const),
  }),
  fc.record({ kind: fc.constant('storePurchase' as const), building: pick, product: fc.nat({ max: 2 }), quantity: fc.integer({ min: 1, max: 200 }) }),
  fc.record({
    kind: fc.constant('transfer' as const),
    building: pick,
    product: fc.nat({ max: 2 }),
    quantity: fc.integer({ min: 1, max: 150 }),
    cents: fc.integer({ min: 1, max: 5_000 }),
  }),
  fc.record({ kind: fc.constant('shelfRemove' as const), building: pick, product: fc.nat({ max: 2 }) }),
  fc.record({ kind: fc.constant('sellBuilding' as const), building: pick }),
  fc.record({
    kind: fc.constant('stock' as const),
    issuer: fc.nat({ max: 3 }),
    shares: fc.integer({ min: 1, max: 40 }),
    action: fc.constantFrom('buy' as const, 'sell' as const),
  }),
  fc.record({ kind: fc.constant('invest' as const), country: fc.nat({ max: 2 }), units: fc.integer({ min: 1, max: 30 }) }),
  fc.record({ kind: fc.constant('research' as const), upgrade: fc.nat({ max: 14 }) }),
);
const stepArbitrary: fc.Arbitrary<Step> = fc.record({ player: fc.nat({ max: 2 }), action: actionArbitrary });

describe('invariants after any sequence of player operations (REST)', () => {
  let app: TestApp;
  let db: Database;
  let players: TestPlayer[];
  let cityIds: number[];
  let productIds: number[];
  let issuerIds: number[];
  let countryIds: number[];
  let upgradeIds: number[];
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    players = [];
    for (let index = 0; index < 3; index += 1) players.push(await app.createPlayer({ cash: 400_000 }));
    const token = players[0]!.token;
    cityIds = ((await app.api('GET', '/cities', { token })).body as { id: number }[]).map((city) => city.id);
    const goods = (await app.api('GET', '/goods', { token })).body as { id: number; name: string }[];
    productIds = ['Wheat', 'Wheat Flour', 'White Bread'].map((name) => goods.find((good) => good.name === name)!.id);
    const shares = (await app.api('GET', '/shares', { token })).body as { company_id: number; is_bot: boolean }[];
    // Issuers: one bot and the three players (a player may not trade its own shares: a 422 then).
    issuerIds = [shares.find((record) => record.is_bot)!.company_id, ...players.map((player) => player.companyId)];
    countryIds = ((await app.api('GET', '/countries', { token })).body as { id: number }[]).map((country) => country.id);
    upgradeIds = ((await app.api('GET', '/research/upgrades', { token })).body as { id: number }[]).map((upgrade) => upgrade.id);
    expect(BUILDING_TYPE_NAMES).toContain('mill');
  });
  afterAll(async () => {
    await app.close();
  });

  async function buildingsOf(player: TestPlayer): Promise<{ id: number; type: string }[]> {
    return db.execute<{ id: number; type: string }>(sql`select id, type from buildings where company_id = ${player.companyId} order by id`);
  }

  async function perform(step: Step): Promise<number> {
    const player = players[step.player]!;
    const { action } = step;
    const request = (method: string, path: string, body?: unknown) => app.api(method, path, { token: player.token, body });
    const buildings = await buildingsOf(player);
    const building = (index: number) => buildings[index % Math.max(1, buildings.length)];
    const product = (index: number) => productIds[index % productIds.length]!;
    let response;
    switch (action.kind) {
      case 'build':
        response = await request('POST', '/buildings', { type: action.type, city_id: cityIds[action.city % cityIds.length] });
        break;
      case 'market':
        response = await request('POST', '/market/trade', { product_id: product(action.product), quantity: action.quantity, action: action.action });
        break;
      case 'stock':
        response = await request('POST', '/stocks/trade', {
          company_id: issuerIds[action.issuer % issuerIds.length],
          shares: action.shares,
          action: action.action,
        });
        break;
      case 'invest':
        response = await request('POST', '/politics/invest', { country_id: countryIds[action.country % countryIds.length], amount: action.units * 1_000 });
        break;
      case 'research':
        response = await request('POST', '/research/purchase', { upgrade_id: upgradeIds[action.upgrade % upgradeIds.length] });
        break;
      default: {
        const target = building('building' in action ? action.building : 0);
        if (!target) return 0; // nothing built yet: no request
        const at = `/buildings/${target.id}`;
        if (action.kind === 'hire') response = await request('POST', `${at}/hire-employees`, { count: action.count });
        else if (action.kind === 'equipment') response = await request('POST', `${at}/upgrade-equipment`, { target_level: action.level });
        else if (action.kind === 'storePurchase')
          response = await request('POST', `${at}/inventory/purchase`, { product_id: product(action.product), quantity: action.quantity });
        else if (action.kind === 'transfer')
          response = await request('POST', `${at}/inventory/transfer-to-store`, {
            product_id: product(action.product),
            quantity: action.quantity,
            retail_price: action.cents / 100,
          });
        else if (action.kind === 'shelfRemove') response = await request('DELETE', `/stores/${target.id}/products/${product(action.product)}`);
        else response = await request('POST', `${at}/sell`);
      }
    }
    expect(response.status, `${JSON.stringify(step)} -> ${JSON.stringify(response.body)}`).toBeLessThan(500);
    if (response.status !== 200) expect(typeof response.body?.error, JSON.stringify(response.body)).toBe('string');
    return response.status;
  }

  async function expectInvariants() {
    expect(await ledgerMismatches(db)).toEqual([]);
    expect(await shareMismatches(db)).toEqual([]);
    for (const player of players) {
      // The sum check as the player reads it: cash = starting cash + the ledger.
      const [books] = await db.execute<{ starting: number; ledger: number }>(sql`
        select c.starting_cash_cents as starting, coalesce((select sum(amount_cents) from transactions t where t.company_id = c.id), 0)::bigint as ledger
        from companies c where c.id = ${player.companyId}`);
      const company = await app.api('GET', '/company', { token: player.token });
      expect(Math.round(company.body.cash * 100)).toBe(Number(books!.starting) + Number(books!.ledger));
      expect(company.body.cash).toBeGreaterThanOrEqual(0);
    }
    const [negatives] = await db.execute<{ count: number }>(sql`
      select (select count(*) from inventory_items where quantity < 0)
           + (select count(*) from building_inventory_items where quantity < 0)
           + (select count(*) from store_products where quantity < 0)
           + (select count(*) from portfolio_entries where shares_owned < 0)
           + (select count(*) from companies where not is_bot and cash_cents < 0) as count`);
    expect(Number(negatives!.count)).toBe(0);
  }

  // A fixed amount of work (seeded: 12 sequences of 3-8 batches, the books checked after each batch):
  // over 60 s at a load of 22 on 2 cores (it timed out in a whole run there).
  it('holds the sum check, no negatives and no 5xx after random concurrent batches', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(stepArbitrary, { minLength: 1, maxLength: 6 }), { minLength: 3, maxLength: 8 }), async (batches) => {
        for (const batch of batches) {
          for (const status of await Promise.all(batch.map(perform))) statuses.set(status, (statuses.get(status) ?? 0) + 1);
          await expectInvariants();
        }
      }),
      { seed: 20_260_401, numRuns: 12, endOnFailure: true },
    );
    console.info('[invariants] answers by status', Object.fromEntries(statuses));
    // The sequences did real work, and the rules refused some of it.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(80);
    expect([...statuses.keys()].some((status) => status === 409 || status === 422)).toBe(true);
  });
});
