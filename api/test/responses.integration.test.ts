/**
 * Every REST route answers what the OpenAPI document says: a player plays through every route of
 * the REST table (and the auth routes) over real HTTP, and each 200 answer is parsed with the
 * route's documented schema (api/src/responses.ts). The schemas are strict objects, so a field
 * that is not documented, or one that must never leave the server, fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { and, eq } from 'drizzle-orm';
import { companies, exchangeAuctions, financialHistory, ltiContexts, politicalEvents, stockPriceHistory, users, weekReports } from '@marketcraft/db';
import { restRoutes } from '../src/rest.ts';
import { createSession } from '../src/auth/session.ts';
import { healthResponse, okResponse, providersResponse, responseSchemaOf, sessionResponse, signedInResponse } from '../src/responses.ts';
import { buildOpenApiDocument } from '../src/openapi.ts';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';
import { LEARNER_ROLE, startTestPlatform } from './helpers/ltiPlatform.ts';

describe('answers match the OpenAPI document', () => {
  let app: TestApp;
  let player: TestPlayer;
  let admin: TestPlayer;
  const covered = new Set<string>();

  beforeAll(async () => {
    app = await startTestApp({
      services: {
        // The turn worker is not part of this test: the admin route's answer shape is.
        advanceTurn: async () => ({ week: 2 }),
        // Nor is the fork's replay (worker/test/worldReplay.integration.test.ts): the route's answer is.
        forkWorld: async () => ({ week: 1 }),
      },
    });
    player = await app.createPlayer({ cash: 2_000_000, name: 'Schema Corp' });
    admin = await app.createPlayer({ isAdmin: true });
  });
  afterAll(async () => {
    await app.close();
  });

  /** Calls a REST route, expects 200 and a body the route's documented schema accepts. */
  async function call(method: string, routePath: string, options: { path?: string; token?: string | null; body?: unknown; allowEmpty?: boolean } = {}) {
    const route = restRoutes().find((candidate) => candidate.method === method && candidate.path === routePath);
    expect(route, `${method} ${routePath} is a REST route`).toBeDefined();
    const token = options.token === null ? undefined : (options.token ?? player.token);
    const response = await app.api(method, options.path ?? routePath, { token, body: options.body });
    const where = `${method} ${options.path ?? routePath}`;
    expect(response.status, `${where}: ${JSON.stringify(response.body)}`).toBe(route!.created ? 201 : 200);
    const schema = responseSchemaOf(route!.procedurePath);
    expect(schema, `${where} has a documented answer`).toBeDefined();
    const parsed = schema!.safeParse(response.body);
    expect(parsed.error?.issues, `${where} answered ${JSON.stringify(response.body).slice(0, 400)}`).toBeUndefined();
    if (Array.isArray(response.body) && !options.allowEmpty) expect(response.body.length, `${where} answered an empty list`).toBeGreaterThan(0);
    covered.add(`${method} ${routePath}`);
    return response.body;
  }

  it('every route of the REST table, played through', async () => {
    const db = app.database.db;
    // A little history so the history, event and news lists are not empty.
    const shares = (await call('GET', '/shares')) as { company_id: number; is_bot: boolean }[];
    const bot = shares.find((record) => record.is_bot)!;
    await db.insert(stockPriceHistory).values([1, 2].map((week) => ({ worldId: 1, companyId: bot.company_id, week, priceCents: 10_000 + week * 500 })));
    await db.insert(stockPriceHistory).values({ worldId: 1, companyId: player.companyId, week: 1, priceCents: 10_500 });
    await db.insert(financialHistory).values({ worldId: 1, companyId: player.companyId, week: 1, amountCents: -150_000, cashAfterCents: 199_850_000 });
    const countries = (await call('GET', '/countries')) as { id: number }[];
    await db.insert(politicalEvents).values([
      { worldId: 1, countryId: countries[0]!.id, eventType: 'subsidy', description: 'Farm subsidy', startedWeek: 1, activeUntilWeek: 4 },
      { worldId: 1, countryId: countries[1]!.id, eventType: 'election', description: 'Election results', startedWeek: 1, activeUntilWeek: 1 },
    ]);

    await call('GET', '/world', { token: null });
    await call('GET', '/community', { token: null });
    await call('GET', '/admin/check');
    await call('GET', '/admin/world-state', { token: admin.token });
    await call('GET', '/admin/cron-status', { token: admin.token });
    await call('POST', '/admin/advance-turn', { token: admin.token });

    await call('GET', '/company');
    await call('GET', '/company/financial-history');
    await call('PATCH', '/company/profile', { body: { name: ' Schema Co ', bio: 'We document everything.' } });
    await call('GET', '/companies');
    const leaderboard = (await call('GET', '/leaderboard', { path: '/leaderboard?limit=2' })) as { companies: unknown[]; you: unknown };
    expect(leaderboard.companies).toHaveLength(2);
    expect(leaderboard.you).not.toBeNull();
    // A signed-in user without a company founds one.
    const [founder] = await db
      .insert(users)
      .values({ email: `founder-${Date.now().toString(36)}@example.com` })
      .returning({ id: users.id });
    const { token: founderToken } = await createSession(db, founder!.id);
    await call('POST', '/company', { token: founderToken, body: { name: 'Second Start Ltd' } });

    const cities = (await call('GET', '/cities')) as { id: number; bonus_type: string }[];
    await call('GET', '/cities/{id}/market-data', { path: `/cities/${cities[0]!.id}/market-data` });
    const goods = (await call('GET', '/goods')) as { id: number; name: string }[];
    await call('GET', '/recipes');
    const farmRecipes = (await call('GET', '/recipes', { path: '/recipes?building_type=farm' })) as { id: number; output_product_id: number }[];
    const wheat = goods.find((good) => good.name === 'Wheat') ?? goods[0]!;
    // What the store shelves: a consumer good (stores sell nothing else).
    const bread = goods.find((good) => good.name === 'White Bread')!;

    const store = (await call('POST', '/buildings', { body: { type: 'store', city_id: cities[0]!.id } })) as { id: number };
    const farmCity = cities.find((city) => city.bonus_type === 'agricultural') ?? cities[0]!;
    const farm = (await call('POST', '/buildings', { body: { type: 'farm', city_id: farmCity.id } })) as { id: number };
    await call('GET', '/buildings');
    await call('GET', '/buildings/{id}', { path: `/buildings/${farm.id}` });
    await call('GET', '/buildings/{id}', { path: `/buildings/${store.id}` });
    await call('POST', '/buildings/{id}/hire-employees', { path: `/buildings/${farm.id}/hire-employees`, body: { count: 2 } });
    await call('POST', '/buildings/{id}/upgrade-equipment', { path: `/buildings/${farm.id}/upgrade-equipment`, body: { target_level: 2 } });
    await call('PUT', '/buildings/{id}/production-rate', { path: `/buildings/${farm.id}/production-rate`, body: { new_rate: 150 } });
    await call('PUT', '/buildings/{id}/select-recipe', { path: `/buildings/${farm.id}/select-recipe`, body: { recipe_id: farmRecipes[1]!.id } });
    await call('PUT', '/buildings/{id}/select-category', { path: `/buildings/${store.id}/select-category`, body: { category: 'Agricultural' } });

    await call('GET', '/market/quote', { path: `/market/quote?product_id=${wheat.id}&quantity=50&action=buy` });
    await call('POST', '/market/trade', { body: { product_id: wheat.id, quantity: 50, action: 'buy' } });
    await call('POST', '/market/trade', { body: { product_id: wheat.id, quantity: 5, action: 'sell' } });
    await call('GET', '/inventory');
    await call('GET', '/market/products');
    await call('GET', '/market/products/{id}', { path: `/market/products/${wheat.id}` });
    await call('POST', '/market/trade', { body: { product_id: bread.id, quantity: 50, action: 'buy' } });
    await call('POST', '/buildings/{id}/inventory/purchase', {
      path: `/buildings/${store.id}/inventory/purchase`,
      body: { product_id: bread.id, quantity: 10 },
    });
    await call('GET', '/buildings/{id}/inventory', { path: `/buildings/${store.id}/inventory` });
    await call('GET', '/buildings/{id}/shelf-price', { path: `/buildings/${store.id}/shelf-price?product_id=${bread.id}` });
    await call('POST', '/buildings/{id}/inventory/transfer-to-store', {
      path: `/buildings/${store.id}/inventory/transfer-to-store`,
      body: { product_id: bread.id, quantity: 15, retail_price: 45 },
    });
    await call('GET', '/stores/{id}/products', { path: `/stores/${store.id}/products` });
    await call('POST', '/warehouse/move', { body: { building_id: store.id, product_id: bread.id, quantity: 5, direction: 'to_back_room' } });
    await call('POST', '/warehouse/move', { body: { building_id: store.id, product_id: bread.id, quantity: 2, direction: 'to_warehouse' } });
    const sellOrder = (await call('POST', '/exchange/orders', { body: { product_id: wheat.id, side: 'sell', quantity: 5, limit_price: 9.99 } })) as {
      id: number;
    };
    await call('POST', '/exchange/orders', { body: { product_id: wheat.id, side: 'buy', quantity: 5, limit_price: 0.5, weeks: 2 } });
    await call('GET', '/exchange/orders');
    await call('DELETE', '/exchange/orders/{id}', { path: `/exchange/orders/${sellOrder.id}` });
    await call('GET', '/exchange/books/{product_id}', { path: `/exchange/books/${wheat.id}` });
    // A clearing as the turn records it (worker/test/exchange.integration.test.ts runs the real auction).
    await db.insert(exchangeAuctions).values({
      worldId: 1,
      productId: wheat.id,
      week: 1,
      priceCents: 1234,
      volume: 10,
      playersVolume: 6,
      makerBought: 0,
      makerSold: 4,
      bids: [[1300, 10]],
      asks: [[1200, 6]],
    });
    await call('GET', '/exchange/auctions/{product_id}', { path: `/exchange/auctions/${wheat.id}?weeks=4` });
    await call('POST', '/exchange/orders', { body: { product_id: wheat.id, side: 'sell', quantity: 5, limit_price: 9.99 } });
    // Contracts: offered to the admin's company, one accepted, one declined, one cancelled.
    const contract = () =>
      call('POST', '/contracts', {
        body: { buyer_company_id: admin.companyId, product_id: wheat.id, quantity: 1, unit_price: 1, expires_week: 1 },
      }) as Promise<{ id: number }>;
    const toAccept = await contract();
    const toDecline = await contract();
    const toCancel = await contract();
    await call('POST', '/contracts/{id}/accept', { path: `/contracts/${toAccept.id}/accept`, token: admin.token });
    await call('POST', '/contracts/{id}/decline', { path: `/contracts/${toDecline.id}/decline`, token: admin.token });
    await call('POST', '/contracts/{id}/cancel', { path: `/contracts/${toCancel.id}/cancel` });
    await contract();
    await call('GET', '/contracts', { path: '/contracts?direction=outgoing' });
    const holdings = (await call('GET', '/warehouse')) as { items: Array<{ location: string }> };
    expect(new Set(holdings.items.map((item) => item.location))).toEqual(new Set(['warehouse', 'back_room', 'shelf']));
    // A week report as the turn writes it (worker/test/report.integration.test.ts runs the real turn).
    await db.insert(weekReports).values({
      worldId: 1,
      companyId: player.companyId,
      week: 1,
      cashStartCents: 200_000_000,
      cashEndCents: 199_850_000,
      netWorthCents: 199_900_000,
      profitCents: -150_000,
      storeRevenueCents: 39_00,
      marketSalesCents: 0,
      marketPurchasesCents: 0,
      wagesCents: 100_00,
      operatingCents: 89_00,
      subsidyCents: 0,
      taxCents: 0,
      dividendsReceivedCents: 12_00,
      dividendsPaidCents: 0,
      rank: 3,
      rankBefore: null,
      companiesRanked: 30,
      saleBuildingIds: [store.id],
      saleCityIds: [cities[0]!.id],
      saleProductIds: [wheat.id],
      saleUnits: [1],
      saleRevenueCents: [39_00],
      productionBuildingIds: [farm.id],
      productionBuildingTypes: ['farm'],
      productionCityIds: [farmCity.id],
      productionProductIds: [wheat.id],
      productionMade: [true],
      productionUnits: [4],
      cashFlowTypes: ['other'],
      cashFlowReasons: ['wages'],
      cashFlowAmountsCents: [-100_00],
      cashFlowLines: [1],
      dividendsReceived: [{ company_id: bot.company_id, company: 'A Bot', shares: 4, amount_cents: 12_00 }],
      research: [{ upgrade_id: 1, name: 'An upgrade' }],
      events: [{ id: 1, country: 'A country', event_type: 'subsidy', description: 'Farm subsidy', started_week: 1, active_until_week: 4, yours: false }],
    });
    expect(((await call('GET', '/reports')) as unknown[]).length).toBe(1);
    await call('GET', '/reports/{week}', { path: '/reports/1' });
    expect((await app.api('GET', '/reports/2', { token: player.token })).status).toBe(404);
    await call('PUT', '/stores/{id}/products/{product_id}', { path: `/stores/${store.id}/products/${bread.id}`, body: { retail_price: 5 } });
    await call('PATCH', '/stores/{id}/products/{product_id}/toggle', { path: `/stores/${store.id}/products/${bread.id}/toggle`, body: { is_active: false } });
    await call('DELETE', '/stores/{id}/products/{product_id}', { path: `/stores/${store.id}/products/${bread.id}` });

    await call('GET', '/company-shares');
    await call('GET', '/stock-prices');
    await call('GET', '/stocks/history', { path: `/stocks/history?company_id=${bot.company_id}` });
    await call('GET', '/stocks/quote', { path: `/stocks/quote?company_id=${bot.company_id}&shares=5&action=buy` });
    await call('POST', '/stocks/trade', { body: { company_id: bot.company_id, shares: 5, action: 'buy' } });
    await call('POST', '/stocks/trade', { body: { company_id: bot.company_id, shares: 1, action: 'sell' } });
    await call('GET', '/portfolio');
    const overview = (await call('GET', '/stocks/overview')) as { companies: Array<{ position: unknown }> };
    expect(overview.companies.some((entry) => entry.position !== null)).toBe(true);

    await call('POST', '/politics/invest', { body: { country_id: countries[0]!.id, amount: 3000 } });
    await call('GET', '/influence');
    await call('GET', '/events');
    await call('GET', '/political-events');

    const upgrades = (await call('GET', '/research/upgrades')) as { id: number; prerequisite_id: number | null }[];
    await call('POST', '/research/purchase', { body: { upgrade_id: upgrades.find((upgrade) => upgrade.prerequisite_id === null)!.id } });
    await call('GET', '/research/company');

    await call('GET', '/transactions/recent');

    // Personal access tokens (session-only routes), and a token's first use for the audit.
    const created = (await call('POST', '/tokens', { body: { name: 'Schema bot', scope: 'read', expires_in_days: 30 } })) as { id: number; token: string };
    expect((await app.api('GET', '/company', { token: created.token })).status).toBe(200);
    await call('GET', '/tokens');
    await call('GET', '/tokens/{id}/usage', { path: `/tokens/${created.id}/usage` });
    await call('GET', '/admin/tokens/busiest', { token: admin.token });
    await call('DELETE', '/tokens/{id}', { path: `/tokens/${created.id}` });
    const ledger = (await call('GET', '/transactions', { path: '/transactions?page=1&page_size=5' })) as { items: unknown[]; total: number };
    expect(ledger.items).toHaveLength(5);
    expect(ledger.total).toBeGreaterThan(5);
    await call('POST', '/buildings/{id}/sell', { path: `/buildings/${store.id}/sell` });

    // Worlds: a class world run by an instructor, a student joining it by code (docs/worlds.md).
    const instructor = await app.createPlayer({ name: 'Schema Teacher' });
    const student = await app.createPlayer({ name: 'Schema Student' });
    const world = (await call('POST', '/worlds', {
      token: instructor.token,
      body: { name: 'Schema class', turn_interval_minutes: null, starting_cash: 50000, bots: 2, seed: 3 },
    })) as { id: number; join_code: string };
    await call('GET', '/worlds', { token: instructor.token });
    await call('GET', '/worlds/{id}', { path: `/worlds/${world.id}`, token: instructor.token });
    await call('PATCH', '/worlds/{id}', { path: `/worlds/${world.id}`, token: instructor.token, body: { status: 'paused' } });
    const rotated = (await call('POST', '/worlds/{id}/join-code', { path: `/worlds/${world.id}/join-code`, token: instructor.token })) as { join_code: string };
    await call('POST', '/worlds/join', { token: student.token, body: { code: rotated.join_code, company_name: 'Schema Class Co' } });
    await call('PUT', '/session/world', { token: student.token, body: { world_id: world.id } });
    await call('GET', '/session/world', { token: student.token });
    await call('GET', '/worlds/{id}/instructors', { path: `/worlds/${world.id}/instructors`, token: instructor.token });
    await call('POST', '/worlds/{id}/co-instructors', { path: `/worlds/${world.id}/co-instructors`, token: instructor.token, body: { email: admin.email } });
    await call('DELETE', '/worlds/{id}/co-instructors/{user_id}', { path: `/worlds/${world.id}/co-instructors/${admin.userId}`, token: instructor.token });
    await call('POST', '/worlds/{id}/shocks', {
      path: `/worlds/${world.id}/shocks`,
      token: instructor.token,
      body: { kind: 'demand', product_id: wheat.id, percent: -30, weeks: 2 },
    });
    await call('GET', '/worlds/{id}/shocks', { path: `/worlds/${world.id}/shocks`, token: instructor.token });
    await call('POST', '/worlds/{id}/announcements', {
      path: `/worlds/${world.id}/announcements`,
      token: instructor.token,
      body: { message: 'Welcome to week 1' },
    });
    // Teams (docs/classroom.md): a second student joins the first one's team by its code.
    await call('PATCH', '/worlds/{id}', { path: `/worlds/${world.id}`, token: instructor.token, body: { team_size: 3 } });
    const team = (
      (await call('GET', '/worlds/{id}/teams', { path: `/worlds/${world.id}/teams`, token: student.token })) as {
        teams: { company_id: number; team_code: string }[];
      }
    ).teams[0]!;
    const teammate = await app.createPlayer({ name: 'Schema Teammate' });
    await call('POST', '/worlds/join', { token: teammate.token, body: { code: rotated.join_code, team_code: team.team_code } });
    await call('PATCH', '/worlds/{id}/teams/members/{user_id}', {
      path: `/worlds/${world.id}/teams/members/${teammate.userId}`,
      token: student.token,
      body: { role: 'sales' },
    });
    await call('DELETE', '/worlds/{id}/teams/members/{user_id}', { path: `/worlds/${world.id}/teams/members/${teammate.userId}`, token: instructor.token });
    await call('POST', '/worlds/{id}/teams/members', {
      path: `/worlds/${world.id}/teams/members`,
      token: instructor.token,
      body: { email: teammate.email, company_id: team.company_id },
    });
    await call('GET', '/worlds/{id}/contributions', { path: `/worlds/${world.id}/contributions`, token: instructor.token });
    await call('GET', '/worlds/{id}/companies', { path: `/worlds/${world.id}/companies`, token: instructor.token });
    await call('GET', '/worlds/{id}/debrief', { path: `/worlds/${world.id}/debrief`, token: instructor.token });
    await call('GET', '/worlds/{id}/export/{kind}', { path: `/worlds/${world.id}/export/companies`, token: instructor.token });
    await call('GET', '/data/worlds/{id}/manifest.json', { path: `/data/worlds/${world.id}/manifest.json`, token: student.token });
    // Assignments (docs/classroom.md): one with a question, answered about a week report of the student's class company.
    const assignment = (await call('POST', '/worlds/{id}/assignments', {
      path: `/worlds/${world.id}/assignments`,
      token: instructor.token,
      body: {
        title: 'First weeks',
        due_week: 3,
        checkpoints: [
          { kind: 'net_worth', points: 10, target: 60000 },
          { kind: 'profit_question', points: 5 },
        ],
      },
    })) as { id: number; checkpoints: { id: number; kind: string }[] };
    await call('GET', '/worlds/{id}/assignments', { path: `/worlds/${world.id}/assignments`, token: student.token });
    await call('PATCH', '/worlds/{id}/assignments/{assignment_id}', {
      path: `/worlds/${world.id}/assignments/${assignment.id}`,
      token: instructor.token,
      body: { title: 'The first weeks' },
    });
    await call('PUT', '/worlds/{id}/score-weights', {
      path: `/worlds/${world.id}/score-weights`,
      token: instructor.token,
      body: { net_worth_rank: 50, profit: 20, checkpoints: 30 },
    });
    const [classCompany] = await db
      .select({ id: companies.id })
      .from(companies)
      .where(and(eq(companies.worldId, world.id), eq(companies.userId, student.userId)));
    await db.insert(weekReports).values({
      ...(await db.select().from(weekReports).where(eq(weekReports.companyId, player.companyId)))[0]!,
      worldId: world.id,
      companyId: classCompany!.id,
    });
    await call('GET', '/me/assignments', { token: student.token });
    const question = assignment.checkpoints.find((checkpoint) => checkpoint.kind === 'profit_question')!;
    await call('POST', '/me/assignments/{assignment_id}/answers', {
      path: `/me/assignments/${assignment.id}/answers`,
      token: student.token,
      body: { checkpoint_id: question.id, week: 1, answer: 'wages' },
    });
    await call('GET', '/worlds/{id}/gradebook', { path: `/worlds/${world.id}/gradebook`, token: instructor.token });
    await call('DELETE', '/worlds/{id}/assignments/{assignment_id}', { path: `/worlds/${world.id}/assignments/${assignment.id}`, token: instructor.token });
    // The course system (docs/classroom.md): a platform registered, the world linked to one of its
    // courses (what the instructor's first launch does: api/test/ltiClassroom), its grades and roster.
    const platform = await startTestPlatform({ toolBaseUrl: app.baseUrl });
    try {
      platform.users.set('roster', { sub: 'schema-student', name: 'Schema Student', email: 'schema@school.test', roles: [LEARNER_ROLE] });
      const registered = (await call('POST', '/lti/platforms', { token: admin.token, body: platform.registration })) as { id: number };
      await call('GET', '/lti/platforms', { token: admin.token });
      const course = (worldId: number, contextId: string) =>
        db.insert(ltiContexts).values({
          platformId: registered.id,
          contextId,
          worldId,
          title: contextId,
          lineitemsUrl: `${platform.url}/courses/${platform.course.id}/lineitems`,
          membershipsUrl: `${platform.url}/courses/${platform.course.id}/memberships`,
        });
      await course(world.id, 'schema-course');
      await call('POST', '/worlds/{id}/lti/scores', { path: `/worlds/${world.id}/lti/scores`, token: instructor.token });
      await call('GET', '/worlds/{id}/lti/roster', { path: `/worlds/${world.id}/lti/roster`, token: instructor.token });
      // A second section's new world, linked to this one before any student joined it.
      const section = (await call('POST', '/worlds', {
        token: instructor.token,
        body: { name: 'Schema section', turn_interval_minutes: null, starting_cash: 50000, bots: 0, seed: 4 },
      })) as { id: number };
      await course(section.id, 'schema-section');
      await call('GET', '/worlds/{id}/lti/courses', { path: `/worlds/${section.id}/lti/courses`, token: instructor.token });
      await call('POST', '/worlds/{id}/lti/link', { path: `/worlds/${section.id}/lti/link`, token: instructor.token, body: { world_id: world.id } });
    } finally {
      await platform.close();
    }
    await call('POST', '/worlds/{id}/advance', { path: `/worlds/${world.id}/advance`, token: instructor.token });
    const forked = await call('POST', '/worlds/{id}/fork', {
      path: `/worlds/${world.id}/fork`,
      token: instructor.token,
      body: { week: 1, name: 'Schema fork' },
    });
    await call('GET', '/worlds/{id}/fork-comparison', { path: `/worlds/${(forked as { id: number }).id}/fork-comparison`, token: instructor.token });
    await call('POST', '/worlds/{id}/end', { path: `/worlds/${world.id}/end`, token: instructor.token });

    const all = restRoutes().map((route) => `${route.method} ${route.path}`);
    expect(all.filter((key) => !covered.has(key))).toEqual([]);
  });

  it('the auth routes and the health check answer their documented shapes', async () => {
    const parse = (schema: z.ZodType, body: unknown) => expect(schema.safeParse(body).error?.issues, JSON.stringify(body)).toBeUndefined();
    const email = `documented-${Date.now().toString(36)}@example.com`;
    const signup = await app.api('POST', '/auth/signup', { body: { email, password: 'secret1' } });
    expect(signup.status).toBe(200);
    parse(signedInResponse, signup.body);
    const signin = await app.api('POST', '/auth/signin', { body: { email, password: 'secret1' } });
    parse(signedInResponse, signin.body);
    parse(sessionResponse, (await app.api('GET', '/auth/session', { token: signin.body.token })).body);
    parse(sessionResponse, (await app.api('GET', '/auth/session')).body);
    parse(providersResponse, (await app.api('GET', '/auth/providers')).body);
    parse(okResponse, (await app.api('POST', '/auth/signout', { token: signin.body.token })).body);
    parse(healthResponse, (await app.api('GET', '/health')).body);
  });

  it('the OpenAPI document gives every route its answer schema, and lists the auth routes', async () => {
    const served = await app.api('GET', '/openapi.json');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    const paths = served.body.paths as Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    for (const route of restRoutes()) {
      const operation = paths[route.path]?.[route.method.toLowerCase()];
      expect(operation?.responses[route.created ? '201' : '200']?.content, `${route.method} ${route.path}`).toBeDefined();
      expect(operation?.responses['400']?.content, `${route.method} ${route.path}`).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/Error' } },
      });
    }
    for (const path of [
      '/auth/signup',
      '/auth/signin',
      '/auth/signout',
      '/auth/session',
      '/auth/providers',
      '/auth/google',
      '/auth/google/callback',
      '/health',
    ]) {
      expect(paths[path], path).toBeDefined();
    }
    // The shape the spec left open, as decided: GET /api/stocks/history?company_id= -> [{week, price}].
    const history = paths['/stocks/history']!.get as unknown as {
      parameters: { name: string; in: string; required: boolean }[];
      responses: Record<string, any>;
    };
    // ...and, as every route a token may call, the world it acts in (X-World-Id).
    expect(history.parameters).toEqual([
      { $ref: '#/components/parameters/WorldId' },
      expect.objectContaining({ name: 'company_id', in: 'query', required: true }),
    ]);
    const item = history.responses['200'].content['application/json'].schema.items;
    expect(Object.keys(item.properties)).toEqual(['week', 'price']);
    expect(item.additionalProperties).toBe(false);
    const docs = await fetch(`${app.baseUrl}/api/docs`);
    expect(docs.headers.get('content-type')).toContain('text/html');
    expect(await docs.text()).toContain('/api/openapi.json');
  });
});
