/**
 * What every REST route answers on success, as zod schemas: the OpenAPI document lists them
 * (GET /api/openapi.json, /api/docs), and `api/test/responses.integration.test.ts` parses every
 * route's real answer with them. The objects are strict, so a field the server sends but this file
 * does not document (or a private one that must never leave the server) fails that test.
 *
 * The map is typed against the routers' outputs (`satisfies ResponseSchemas` below): a procedure
 * without a documented answer, or a documented field the procedure does not return, does not
 * typecheck.
 */
import { z } from 'zod';
import type { inferRouterOutputs } from '@trpc/server';
import {
  dataManifestResponse,
  API_TOKEN_SCOPES,
  figureSchema,
  POLITICAL_PLATFORMS,
  BUILDING_CATEGORIES,
  BUILDING_TYPE_NAMES,
  CITY_BONUS_TYPES,
  COMPANY_STATUSES,
  POLITICAL_EVENT_TYPES,
  PRODUCT_CATEGORIES,
  RESEARCH_CATEGORIES,
  TRANSACTION_TYPES,
  SHOCK_KINDS,
  WORLD_KINDS,
  WORLD_ROLES,
  WORLD_STATUSES,
  exchangeOrderResponse,
  exchangeBookResponse,
  exchangeAuctionResponse,
  contractResponse,
} from '@marketcraft/shared';
import type { AppRouter } from './root.ts';
import type { Health } from './health.ts';

const id = z.number().int().positive();
const dollars = z.number().describe('US dollars, at most two decimals');
const count = z.number().int().nonnegative();
const timestamp = z.iso.datetime({ offset: true }).describe('ISO 8601 time');
const buildingType = z.enum(BUILDING_TYPE_NAMES);
const productCategory = z.enum(PRODUCT_CATEGORIES);
const tradeAction = z.enum(['buy', 'sell']);

const apiTokenStatus = z.enum(['active', 'expired', 'revoked']);
/** A personal access token as its owner sees it (never the secret). */
const apiTokenResponse = z.strictObject({
  id,
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  prefix: z.string().describe("The token's first characters, e.g. 'mc_pat_k3xq…'"),
  status: apiTokenStatus,
  created_at: timestamp,
  expires_at: timestamp.nullable().describe('null: never expires'),
  revoked_at: timestamp.nullable(),
  last_used_at: timestamp.nullable().describe('Refreshed at most once a minute'),
  requests_today: count.describe('UTC day'),
  requests_7_days: count,
});
const budgetResponse = z.strictObject({ requests_per_minute: z.number().int().positive(), mutations_per_minute: z.number().int().positive() });

/** A week's results in brief (GET /api/reports, and the head of GET /api/reports/{week}). */
const weekReportSummary = z.strictObject({
  week: z.number().int().positive(),
  cash_start: dollars.describe("Cash when the week began: cash_end less every ledger line of the week"),
  cash_end: dollars.describe('Cash after the turn'),
  net_worth: dollars.describe('Net worth after the turn'),
  profit: dollars.describe("The week's profit after tax"),
  store_revenue: dollars.describe('What your stores sold to shoppers'),
  rank: z.number().int().positive().nullable().describe('Leaderboard place after the turn (1 = richest); null after bankruptcy'),
  rank_before: z.number().int().positive().nullable().describe("The place after the previous week's turn; null for your first week"),
});

/** GET /api/world and GET /api/admin/world-state. */
export const worldStateResponse = z.strictObject({
  current_week: z.number().int().positive(),
  last_turn_at: timestamp.nullable(),
  next_turn_at: timestamp.nullable(),
  status: z.enum(WORLD_STATUSES).describe("The clock: 'active' turns on schedule; 'paused' skips scheduled turns (next_turn_at stays the schedule's next slot); 'ended' never turns again"),
  turns: z.string().describe("How its turns come now, as the app shows it: 'Every 12 hours', 'Every 5 min', 'Manual turns' (no schedule: an admin or instructor advances them), 'Paused', 'Ended'"),
});

const buildingResponse = z.strictObject({
  id,
  type: buildingType,
  name: z.string().describe("The type's display name, e.g. 'Steel Mill'"),
  category: z.enum(BUILDING_CATEGORIES),
  city_id: id,
  city_name: z.string(),
  employees: count,
  equipment_level: z.number().int().min(1).max(5),
  production_rate: z.number().int().min(10).max(200),
  automation_level: count,
  efficiency_bonus: z.number(),
  selected_recipe_id: id.nullable(),
  selected_category: productCategory.nullable(),
  efficiency: z.number().describe('min(100, employees x 10 + equipment_level x 15)'),
  effective_output: count.describe(
    'Units per week the building plans: round(output_quantity x rate/100 x efficiency/100 x (100 + city bonus + research bonus)/100); 0 without a recipe and for stores',
  ),
  next_turn_output: count.describe('Units the next turn makes: the planned output as far as the warehouse inputs allow (the turn\'s own query)'),
  built_week: z.number().int().positive(),
});

const forecastResponse = z
  .strictObject({
    week: z.number().int().positive().describe('The week the next turn processes'),
    efficiency: figureSchema,
    planned_output: figureSchema.nullable(),
    output_units: count,
    output_product_name: z.string().nullable(),
    limited_by: z.string().nullable().describe('The input that limits the output, when one does'),
    inputs: z.array(
      z.strictObject({ product_id: id, product_name: z.string(), needed: count, used: count, in_stock: count }),
    ),
    capacity: figureSchema.nullable().describe('Stores: what the store can sell in a week, valued at its shelf prices'),
    sales: z.array(
      z.strictObject({
        product_id: id,
        product_name: z.string(),
        price: dollars,
        reference_price: dollars,
        share: z.number().min(0).max(1),
        city_demand: count,
        units: count,
        revenue: dollars,
        revenue_why: figureSchema.describe('The revenue with its terms: units x shelf price x (100 + price bonus)/100'),
        units_why: figureSchema.describe("The units with their terms: the city's demand, this store's share of its shoppers (its price against the other stores'), the shelf's stock, the store's capacity, and the shoppers other stores could not serve"),
      }),
    ),
    wages: figureSchema,
    operating_cost: figureSchema,
    revenue: dollars.describe("Stores: revenue from shoppers. Production: the output valued at the market's sell price"),
    inputs_cost: dollars.describe("Production: the inputs used valued at the market's buy price"),
    units: count.describe('Stores: units the shelves sell next turn; production buildings: output_units'),
    costs: dollars.describe('inputs_cost + wages + operating cost'),
    profit: dollars.describe('revenue - costs'),
    roi_percent: z.number().nullable().describe('profit / what was paid for the building, percent per week'),
    payback_weeks: z.number().int().positive().nullable().describe('Weeks of this profit to earn back what was paid for the building'),
    improvements: z.array(
      z.strictObject({
        kind: z.enum(['equipment', 'hire']),
        label: z.string(),
        cost: dollars,
        efficiency: z.number(),
        planned_output: count.nullable(),
      }),
    ),
    recipes: z.array(
      z.strictObject({
        recipe_id: id,
        planned_output: count,
        inputs: z.array(z.strictObject({ product_id: id, product_name: z.string(), needed: count, in_stock: count })),
        ready: z.boolean(),
      }),
    ),
    overtime: z
      .strictObject({
        rates: z.array(
          z.strictObject({
            rate: z.number().int().min(10).max(200),
            output_units: count.describe('Units planned at this rate (tired crews above 100%)'),
            revenue: dollars.describe("The output at the market's sell price"),
            costs: dollars.describe("The inputs it needs at the market's buy price + wages + operating cost at this rate"),
            profit: dollars,
          }),
        ),
        best_rate: z.number().int().min(10).max(200).describe('The production rate with the highest profit'),
        best_profit: dollars,
      })
      .nullable()
      .describe('Production buildings with a recipe: the week\'s profit at 100/125/150/175/200% with every input bought at today\'s prices, and the best rate (docs/economy.md, "Overtime: where the extra output stops paying")'),
  })
  .describe('What the next turn does with this building, computed by the turn\'s own queries (docs/economy.md, "True numbers")');

const recipeResponse = z.strictObject({
  id,
  building_type: buildingType,
  output_product_id: id,
  output_product_name: z.string(),
  output_quantity: z.number().int().positive().describe('Units per week'),
  inputs: z.array(z.strictObject({ product_id: id, product_name: z.string(), quantity: z.number().int().positive() })),
});

const buildingDetailResponse = buildingResponse.extend({
  city_bonus_type: z.enum(CITY_BONUS_TYPES),
  city_bonus_value: z.number(),
  city_bonus_applies: z.boolean(),
  base_capacity: count,
  weekly_operating_cost: dollars,
  research_bonus: z
    .number()
    .int()
    .describe("Percent: production_bonus + chain_bonus of the company's research for every building type and for this type (each group's sum rounded, as the turn counts it)"),
  research_effects: z.record(z.string(), z.number()).describe('Every numeric research effect that applies to this building, summed (percent)'),
  total_bonus: z.number().describe('Percent: the city bonus when it fits the type + efficiency_bonus + research_bonus'),
  bonused_output: count.describe('The output the turn plans (= effective_output)'),
  overall_efficiency: z.number().describe('The efficiency the turn uses (= efficiency)'),
  efficiency_warning: z.boolean().describe('efficiency under 90'),
  popularity: z.number().describe('250 + effective_output x 2'),
  invested: dollars.describe('Construction cost plus the equipment levels bought'),
  sale_refund: dollars.describe('What POST /api/buildings/{id}/sell pays back: 50% of invested (also its book value in net worth)'),
  is_store: z.boolean(),
  recipe: recipeResponse.nullable(),
  forecast: forecastResponse,
});

const storeProductResponse = z.strictObject({
  id,
  product_id: id,
  product_name: z.string(),
  category: productCategory,
  quantity: count,
  retail_price: dollars,
  cost_price: dollars,
  is_active: z.boolean(),
  market_price: dollars.nullable(),
  demand_level: z.number().int().min(0).max(100).nullable(),
  units_sold_last_turn: count,
  markup_percent: z.number().nullable().describe('(retail - cost) / cost, percent with one decimal; null at a cost of 0'),
  vs_market_percent: z.number().nullable().describe("(retail - the city's market price) / market price, percent with one decimal; null without one"),
});

const companyResponse = z.strictObject({
  id,
  name: z.string(),
  bio: z.string().nullable(),
  cash: dollars.describe('What the company can spend now'),
  cash_in_escrow: dollars.describe('Cash its open buy orders on the exchange hold (docs/exchange.md): back when they fill at a lower price, are cancelled or expire'),
  founded_at: timestamp,
  is_bot: z.boolean(),
  strategy: z.string().nullable(),
  status: z.enum(COMPANY_STATUSES),
  share_price: dollars,
  total_shares: z.number().int().positive(),
  net_worth: dollars.describe('Cash + goods + buildings + shares held in other companies - the shares other companies hold in this one (docs/economy.md, "Net worth")'),
  net_worth_why: figureSchema,
  tax_loss_carried: dollars.describe('Losses carried forward against future taxes'),
  negative_turns: count.describe('Turns in a row that ended with negative cash; reset to 0 by a turn ending with cash >= 0'),
  bankruptcy_turns: z.number().int().positive().describe('Negative turns in a row after which the company goes bankrupt (4)'),
});

/** What a paged list of companies says of itself in its body (docs/api.md, "Lists of companies"). */
const pageResponseFields = {
  total: count.describe('Rows of the whole list (its filters applied), over all pages'),
  limit: z.number().int().positive().describe('The most rows this page could hold'),
  offset: count.describe('Rows skipped before this page'),
};

const rankedCompanyResponse = z.strictObject({
  rank: z.number().int().positive().describe('Place on the whole leaderboard (1 = richest), whatever the page or search'),
  id,
  name: z.string(),
  is_bot: z.boolean(),
  strategy: z.string().nullable(),
  cash: dollars,
  share_price: dollars,
  total_shares: z.number().int().positive(),
  net_worth: dollars,
  founded_at: timestamp,
  is_you: z.boolean(),
  uses_api: z.boolean().describe('A personal access token acted for the company in the last 7 days (the leaderboard\'s "API" badge)'),
});

const shareRecordResponse = z.strictObject({
  company_id: id,
  company_name: z.string(),
  is_bot: z.boolean(),
  total_shares: z.number().int().positive(),
  share_price: dollars,
  last_dividend: dollars,
  updated_at: timestamp,
  book_value_per_share: dollars.describe("The company's equity per share at the last turn: the price's anchor"),
  shares_held_by_companies: count.describe('Shares held by other companies (the rest belong to its own player)'),
  buy_price: dollars.describe('What one share costs now (buy from the company: spread and this week\'s buying included)'),
  sell_price: dollars.describe('What selling one share back to the company pays now'),
});

const politicalEventResponse = z.strictObject({
  id,
  country_id: id,
  country_name: z.string(),
  event_type: z.enum(POLITICAL_EVENT_TYPES),
  description: z.string(),
  active_until_week: z.number().int().positive(),
  created_at: timestamp,
});

const okResponse = z.strictObject({ ok: z.literal(true) });

const weekPrice = z.strictObject({ week: z.number().int().positive(), price: dollars });

const marketProductResponse = z.strictObject({
  id,
  name: z.string(),
  category: productCategory,
  subcategory: z.string(),
  buy_price: dollars.describe('What one unit costs on the market now'),
  sell_price: dollars.describe('What selling one unit on the market pays now'),
  current_price: dollars,
  base_price: dollars,
  change_percent: z.number().nullable().describe("Percent change of the posted price since last week; null before a turn recorded last week's"),
  sparkline: z.array(dollars).describe('The posted price of each of the last 12 weeks, oldest first, this week last'),
  held: count.describe('Units in your company warehouse'),
});

const recipeStep = z.strictObject({
  recipe_id: id,
  building_type: buildingType,
  building_name: z.string(),
  output_product_id: id,
  output_product_name: z.string(),
  output_quantity: z.number().int().positive(),
  inputs: z.array(z.strictObject({ product_id: id, product_name: z.string(), quantity: z.number().int().positive() })),
});

const buildingRef = z.strictObject({ building_id: id, building_name: z.string().describe("The type's display name"), city_name: z.string() });

type Outputs = inferRouterOutputs<AppRouter>;
/** One schema per procedure, whose output is what the procedure returns. */
type ResponseSchemas = { [Domain in keyof Outputs]: { [Procedure in keyof Outputs[Domain]]: z.ZodType<Outputs[Domain][Procedure]> } };

/** A world as the caller sees it (docs/worlds.md). */
const worldResponse = z.strictObject({
  id,
  name: z.string(),
  kind: z.enum(WORLD_KINDS),
  status: z.enum(WORLD_STATUSES),
  current_week: z.number().int().positive(),
  turn_interval_minutes: z.number().int().positive().nullable().describe('Minutes between turns; null: the public schedule or manual turns'),
  turns: z.string().describe("How its turns come now, as the app shows it: 'Every 12 hours', 'Every 5 min', 'Manual turns' (no schedule: an admin or instructor advances them), 'Paused', 'Ended'"),
  next_turn_at: timestamp.nullable(),
  last_turn_at: timestamp.nullable(),
  starting_cash: dollars.nullable(),
  bots: count,
  max_players: z.number().int().positive().nullable(),
  players: count.describe('Player companies (active)'),
  role: z.enum(['instructor', 'co_instructor', 'admin', 'player', 'visitor']).nullable().describe("The caller's part in the world"),
  joined: z.boolean().describe('The caller has an active company there'),
  join_code: z.string().nullable().describe('Instructors and admins only'),
  created_at: timestamp,
  ended_at: timestamp.nullable(),
});
const shockResponse = z.strictObject({
  id,
  kind: z.enum(SHOCK_KINDS),
  country_id: id.nullable(),
  country_name: z.string().nullable(),
  product_id: id.nullable(),
  product_name: z.string().nullable(),
  percent: z.number().int(),
  start_week: z.number().int().positive(),
  end_week: z.number().int().positive(),
  description: z.string(),
  active: z.boolean(),
  created_at: timestamp,
});
const instructorsResponse = z.array(
  z.strictObject({ user_id: id, email: z.string(), role: z.enum(WORLD_ROLES), is_you: z.boolean().describe('Whether this is you (a co-instructor may leave)') }),
);

export const responseSchemas = {
  worlds: {
    list: z.array(worldResponse),
    current: worldResponse,
    switch: worldResponse,
    create: worldResponse,
    join: worldResponse,
    get: worldResponse,
    update: worldResponse,
    advance: z.strictObject({ current_week: z.number().int().positive().describe('The week after the turn') }),
    end: worldResponse,
    rotateCode: worldResponse,
    instructors: instructorsResponse,
    addCoInstructor: instructorsResponse,
    removeCoInstructor: instructorsResponse,
    shocks: z.array(shockResponse),
    addShock: shockResponse,
    announce: z.strictObject({ id, message: z.string(), week: z.number().int().positive(), created_at: timestamp }),
    companies: z.array(
      z.strictObject({
        id,
        name: z.string(),
        is_bot: z.boolean(),
        owner_email: z.string().nullable(),
        status: z.enum(COMPANY_STATUSES),
        cash: dollars,
        net_worth: dollars,
        buildings: count,
        last_week_profit: dollars.nullable(),
      }),
    ),
    debrief: z.strictObject({
      weeks: z.array(z.number().int().positive()),
      companies: z.array(z.strictObject({ id, name: z.string(), is_bot: z.boolean(), points: z.array(z.strictObject({ week: z.number().int().positive(), net_worth: dollars })) })),
      prices: z.array(z.strictObject({ product_id: id, name: z.string(), points: z.array(z.strictObject({ week: z.number().int().positive(), price: dollars })) })),
      shocks: z.array(shockResponse),
    }),
    export: z.strictObject({ filename: z.string(), csv: z.string().describe('RFC 4180 CSV, money in dollars') }),
  },
  world: {
    state: worldStateResponse,
    community: z.strictObject({ discord_invite_url: z.string().nullable().describe('The Discord invite link; null when none is configured') }),
  },
  admin: {
    check: z.strictObject({ isAdmin: z.boolean() }),
    worldState: worldStateResponse,
    cronStatus: z.strictObject({
      jobname: z.string().describe("'advance-game-turn'"),
      schedule: z.string().describe("Cron expression in UTC, e.g. '30 */12 * * *'"),
      active: z.boolean(),
    }),
    advanceTurn: z.strictObject({ current_week: z.number().int().positive().describe('The week after the turn') }),
  },
  buildings: {
    list: z.array(buildingResponse),
    get: buildingDetailResponse,
    build: buildingResponse,
    sell: z.strictObject({
      id,
      type: buildingType,
      name: z.string(),
      city_name: z.string(),
      refund: dollars.describe('50% of the construction cost plus the equipment levels bought'),
      units_moved_to_warehouse: count.describe("A store's shelf and back-room units, now in the company warehouse"),
      cash: dollars,
    }),
    hireEmployees: buildingResponse,
    upgradeEquipment: buildingResponse,
    productionRate: buildingResponse,
    selectRecipe: buildingResponse,
    selectCategory: buildingResponse,
    inventory: z.array(
      z.strictObject({
        id: id.describe("The back-room row's id (stores) or the product id (production buildings: warehouse items)"),
        product_id: id,
        product_name: z.string(),
        category: productCategory,
        quantity: count,
        purchase_price: dollars.describe('Average purchase price per unit'),
        in_store: z.boolean(),
      }),
    ),
    purchaseInventory: z.strictObject({
      building_id: id,
      destination: z.enum(['store', 'warehouse']),
      product_id: id,
      product_name: z.string(),
      quantity: z.number().int().positive(),
      unit_price: dollars.describe("The city's market price"),
      total_cost: dollars,
      quantity_held: count,
      purchase_price: dollars.describe('Average purchase price per unit after this purchase'),
      cash: dollars,
    }),
    shelfPrice: z.strictObject({
      product_id: id,
      best_price: dollars.describe("The price the store's forecast finds best: the most margin over the average cost next turn, given every other store's shelf in the city now"),
      units: count.describe('Units the shelf sells next turn at best_price (within the units available and what the store\'s other shelves leave of its capacity)'),
      revenue: dollars,
      margin: dollars.describe('revenue - units x average_cost'),
      markup_price: dollars.describe("The spec's suggestion: average_cost x 1.5 ('50% markup')"),
      average_cost: dollars.describe("A unit's average cost: the store's back room's if it holds the product, else the warehouse's"),
      reference_price: dollars.describe('What shoppers in the city expect to pay'),
      available: count.describe("Units the store can put on the shelf: its back room plus the warehouse"),
    }),
    transferToStore: z.strictObject({
      building_id: id,
      product_id: id,
      product_name: z.string(),
      quantity: z.number().int().positive(),
      from_back_room: count,
      from_warehouse: count,
      shelf_quantity: count,
      retail_price: dollars,
      cost_price: dollars,
      is_active: z.boolean(),
    }),
  },
  stores: {
    products: z.array(storeProductResponse),
    updatePrice: storeProductResponse,
    toggle: storeProductResponse,
    remove: z.strictObject({ building_id: id, product_id: id, returned_to_back_room: count }),
  },
  market: {
    trade: z.strictObject({
      action: tradeAction,
      product_id: id,
      product_name: z.string(),
      quantity: z.number().int().positive(),
      unit_price: dollars.describe('Average paid or received per unit: the price curve walked by the order, with the spread'),
      total: dollars,
      quantity_held: count,
      cash: dollars,
    }),
    quote: z.strictObject({
      product_id: id,
      product_name: z.string(),
      action: tradeAction,
      quantity: z.number().int().positive(),
      total: dollars.describe('What the order would cost (buy) or pay (sell) now'),
      unit_price: dollars,
      posted_price: dollars.describe("This week's posted price"),
      price_before: dollars.describe('The price on the curve now (after this week\'s orders so far)'),
      price_after: dollars.describe('The price on the curve after this order'),
      why: figureSchema,
    }),
    products: z.array(marketProductResponse),
    product: marketProductResponse.omit({ sparkline: true }).extend({
      history: z.array(weekPrice).describe('The posted price of each week, oldest first, the current week last (52 weeks at most)'),
      cities: z.array(
        z.strictObject({
          city_id: id,
          city_name: z.string(),
          country_name: z.string(),
          market_price: dollars,
          demand_level: z.number().int().min(0).max(100),
          weekly_demand: count.describe("Units the city's shoppers buy a week at the reference price (market_price)"),
          stores_selling: count.describe('Stores with the product on their shelves in the city now'),
          sold_last_week: count.describe("Units the city's stores sold last week"),
          unserved_demand: count.describe('weekly_demand - sold_last_week (at least 0): shoppers no store served last week'),
        }),
      ),
      made_by: z.array(recipeStep).describe('Recipes that make this product'),
      used_by: z.array(recipeStep).describe('Recipes that use this product as an input'),
    }),
  },
  catalog: {
    inventory: z.array(
      z.strictObject({
        product_id: id,
        product_name: z.string(),
        category: productCategory,
        quantity: count,
        average_cost: dollars,
        current_price: dollars,
        value: dollars.describe('quantity x current_price'),
      }),
    ),
    goods: z.array(
      z.strictObject({
        id,
        name: z.string(),
        category: productCategory,
        subcategory: z.string(),
        current_price: dollars,
        base_price: dollars,
        price_change_percent: z.number().describe('(current - base) / base x 100'),
        buy_price: dollars.describe('What one unit costs on the market now'),
        sell_price: dollars.describe('What selling one unit on the market pays now'),
      }),
    ),
    recipes: z.array(recipeResponse),
    cities: z.array(
      z.strictObject({
        id,
        name: z.string(),
        country_id: id,
        country_name: z.string(),
        bonus_type: z.enum(CITY_BONUS_TYPES),
        bonus_value: z.number().describe('Percent'),
      }),
    ),
    cityMarketData: z.array(
      z.strictObject({
        product_id: id,
        product_name: z.string(),
        category: productCategory,
        demand_level: z.number().int().min(0).max(100),
        market_price: dollars,
      }),
    ),
  },
  company: {
    get: companyResponse,
    found: companyResponse,
    financialHistory: z.array(
      z.strictObject({
        week: z.number().int().positive(),
        amount: dollars.describe('Cash change of that turn'),
        cash_after: dollars,
        profit: dollars.describe("The week's profit after tax"),
        net_worth: dollars.nullable().describe('Net worth after the turn (null before economy v2)'),
      }),
    ),
    updateProfile: companyResponse,
    list: z.array(rankedCompanyResponse).describe('One page (docs/api.md, "Lists of companies"): X-Total-Count and Link headers say where it is'),
    leaderboard: z.strictObject({
      companies: z.array(rankedCompanyResponse).describe('The page, richest first'),
      ...pageResponseFields,
      you: rankedCompanyResponse.nullable().describe('Your company wherever it ranks (null when it is not active)'),
    }),
  },
  stocks: {
    shares: z.array(shareRecordResponse),
    companyShares: z.array(shareRecordResponse),
    portfolio: z.array(
      z.strictObject({
        company_id: id,
        company_name: z.string(),
        is_bot: z.boolean(),
        shares_owned: z.number().int().positive(),
        average_price: dollars,
        current_price: dollars,
        value: dollars.describe('What selling the whole position back now would pay (its value in net worth)'),
      }),
    ),
    prices: z.array(
      z.strictObject({
        company_id: id,
        company_name: z.string(),
        is_bot: z.boolean(),
        week: z.number().int().positive().nullable().describe('Week of the latest recorded price; null before the first turn'),
        price: dollars,
        previous_price: dollars.nullable(),
        change_percent: z.number(),
      }),
    ),
    overview: z.strictObject({
      ...pageResponseFields,
      companies: z.array(
        z.strictObject({
          company_id: id,
          company_name: z.string(),
          is_bot: z.boolean(),
          is_you: z.boolean(),
          share_price: dollars,
          total_shares: z.number().int().positive(),
          market_cap: dollars.describe('share_price x total_shares'),
          change_percent: z.number().nullable().describe('Percent change between the last two recorded weeks; null before two'),
          sparkline: z.array(dollars).describe('The share price each of the last 12 turns set, oldest first'),
          position: z
            .strictObject({
              shares_owned: z.number().int().positive(),
              average_price: dollars,
              value: dollars.describe('As GET /api/portfolio values it'),
              cost: dollars.describe('shares_owned x average_price'),
              gain: dollars.describe('value - cost'),
              gain_percent: z.number().nullable(),
            })
            .nullable()
            .describe('Your shares of it; null when you hold none'),
        }),
      ),
      portfolio: z.strictObject({ shares: count, value: dollars, cost: dollars, gain: dollars }).describe('Your whole portfolio'),
    }),
    history: z
      .array(z.strictObject({ week: z.number().int().positive(), price: dollars }))
      .describe('Our shape (the spec shows none): the last 52 recorded weekly prices of ?company_id, oldest first'),
    trade: z.strictObject({
      action: tradeAction,
      company_id: id,
      company_name: z.string(),
      shares: z.number().int().positive(),
      price: dollars.describe('Average per share'),
      total: dollars,
      shares_owned: count,
      cash: dollars,
    }),
    quote: z.strictObject({
      company_id: id,
      company_name: z.string(),
      action: tradeAction,
      shares: z.number().int().positive(),
      total: dollars,
      price: dollars.describe('Average per share'),
      posted_price: dollars,
      price_after: dollars,
      why: figureSchema,
    }),
  },
  politics: {
    countries: z.array(z.strictObject({ id, name: z.string(), tax_rate: z.number().describe('Percent') })),
    influence: z.array(z.strictObject({ country_id: id, country_name: z.string(), influence_points: count, platform: z.enum(POLITICAL_PLATFORMS) })),
    events: z.array(politicalEventResponse),
    recentEvents: z.array(politicalEventResponse),
    invest: z.strictObject({
      country_id: id,
      country_name: z.string(),
      units: z.number().int().positive(),
      amount: dollars,
      points_added: z.number().int().positive(),
      influence_points: count,
      platform: z.enum(POLITICAL_PLATFORMS).describe('What the company\'s influence in the country backs in elections'),
      cash: dollars,
    }),
  },
  research: {
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
  },
  transactions: {
    list: z.strictObject({
      items: z.array(
        z.strictObject({
          id,
          week: z.number().int().positive(),
          type: z.enum(TRANSACTION_TYPES),
          reason: z.string().describe('Finer reason: build, hire, market_buy, store_sales, wages, tax, dividend, ...'),
          amount: dollars.describe('Signed: negative for money out'),
          description: z.string(),
          created_at: timestamp,
          concerns: z
            .strictObject({ kind: z.enum(['building', 'product', 'company', 'country', 'research', 'week']), id: z.number().int().nonnegative() })
            .describe("What the line is about: a building, product, company (share trades) or country id; research; or its week (the turn's lines: see GET /api/reports/{week})"),
        }),
      ),
      page: z.number().int().positive(),
      page_size: z.number().int().positive(),
      total: count.describe('Lines matching the filters, over all pages'),
      weeks: z.array(z.number().int().positive()).describe('Weeks you have lines in, newest first'),
    }),
  },
  reports: {
    list: z.array(weekReportSummary).describe('Oldest first; empty before your first turn'),
    get: weekReportSummary.extend({
      companies_ranked: count.describe('Companies on the leaderboard after the turn'),
      market_sales: dollars.describe('Goods sold on the exchange during the week'),
      market_purchases: dollars.describe('Goods bought on the exchange during the week (market, Trade Hall, raw materials)'),
      wages: dollars,
      operating_costs: dollars,
      subsidies: dollars,
      taxes: dollars,
      dividends_received: dollars,
      dividends_paid: dollars,
      sales: z.array(
        z.strictObject({ building_id: id, building: z.string(), city: z.string(), product_id: id, product: z.string(), units: count, revenue: dollars }),
      ).describe('Store revenue by store and product, largest first'),
      production: z.array(
        z.strictObject({
          building_id: id,
          building: z.string(),
          city: z.string(),
          product_id: id,
          product: z.string(),
          role: z.enum(['output', 'input']).describe('output: made; input: used up'),
          units: count,
        }),
      ),
      cash_flows: z
        .array(z.strictObject({ type: z.enum(TRANSACTION_TYPES), reason: z.string(), amount: dollars.describe('Signed sum'), lines: count }))
        .describe("Every ledger line of the week that moves cash, summed by reason: your own moves between turns and the turn's; they add up to cash_end - cash_start (the $0 production line is left out: what was made is in production)"),
      dividends: z.array(z.strictObject({ company_id: id, company: z.string(), shares: count, amount: dollars })).describe('Dividends received, by paying company'),
      research: z.array(z.strictObject({ upgrade_id: id, name: z.string() })).describe('Upgrades researched during the week'),
      events: z
        .array(
          z.strictObject({
            id,
            country: z.string(),
            event_type: z.enum(POLITICAL_EVENT_TYPES),
            description: z.string(),
            started_week: z.number().int().positive(),
            active_until_week: z.number().int().positive(),
            yours: z.boolean().describe('Your own lobbying won it'),
          }),
        )
        .describe('Political events and elections active during the week or announced by its turn, in countries where you have buildings or won by your lobbying'),
    }),
  },
  warehouse: {
    holdings: z.strictObject({
      items: z.array(
        z.strictObject({
          product_id: id,
          product_name: z.string(),
          category: productCategory,
          location: z.enum(['warehouse', 'back_room', 'shelf']),
          store: buildingRef.nullable().describe('The store of a back room or shelf; null for the company warehouse'),
          quantity: z.number().int().positive(),
          average_cost: dollars,
          cost_value: dollars.describe('quantity x average_cost'),
          unit_value: dollars.describe('What selling one unit on the market pays now'),
          market_value: dollars.describe('What selling them all on the market pays now'),
          retail_price: dollars.nullable().describe('Shelf only'),
          is_active: z.boolean().nullable().describe('Shelf only: on sale'),
          used_by: z.array(buildingRef).describe('Your production buildings whose recipe uses this product (they take it from the warehouse each turn)'),
        }),
      ),
      totals: z.strictObject({ units: count, cost_value: dollars, market_value: dollars }),
      in_escrow: z
        .array(
          z.strictObject({
            product_id: id,
            product_name: z.string(),
            quantity: z.number().int().positive(),
            average_cost: dollars,
            held_by: z.enum(['sell_order', 'contract']),
            id: id.describe('The sell order or the contract'),
          }),
        )
        .describe('Goods out of the warehouse, held by your open sell orders and contract offers (docs/exchange.md); not in items nor totals.units, but totals.market_value counts them, as net worth does'),
    }),
    move: z.strictObject({
      building_id: id,
      product_id: id,
      product_name: z.string(),
      quantity: z.number().int().positive(),
      direction: z.enum(['to_back_room', 'to_warehouse']),
      warehouse_quantity: count.describe('Units now in the company warehouse'),
      back_room_quantity: count.describe("Units now in the store's back room"),
    }),
  },
  news: {
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
  },
  tokens: {
    list: z.strictObject({
      tokens: z.array(apiTokenResponse),
      max_active: z.number().int().positive().describe('Active tokens allowed per player'),
      limits: z.strictObject({ token: budgetResponse, session: budgetResponse }),
    }),
    create: apiTokenResponse.extend({
      token: z.string().describe('The token, mc_pat_<16>_<32>: shown this once, stored only as a hash. Send it as Authorization: Bearer <token>'),
    }),
    revoke: apiTokenResponse,
    usage: z
      .array(
        z.strictObject({
          day: z.iso.date().describe('UTC day'),
          requests: count.describe('Every call counted: reads + mutations + limited'),
          reads: count.describe('Reads within budget'),
          mutations: count.describe('Actions within budget'),
          limited: count.describe('Refused with 429'),
        }),
      )
      .length(30),
    busiest: z
      .array(
        z.strictObject({
          token_id: id,
          name: z.string(),
          scope: z.enum(API_TOKEN_SCOPES),
          status: apiTokenStatus,
          owner_email: z.string(),
          company_id: id.nullable(),
          company_name: z.string().nullable(),
          requests: count.describe('Over the last 7 days, today included'),
          mutations: count,
          limited: count,
          requests_today: count,
          last_used_at: timestamp.nullable(),
        }),
      )
      .max(20),
  },
  exchange: {
    placeOrder: exchangeOrderResponse,
    orders: z.array(exchangeOrderResponse),
    cancelOrder: exchangeOrderResponse,
    book: exchangeBookResponse,
    auctions: z.array(exchangeAuctionResponse),
  },
  contracts: {
    offer: contractResponse,
    list: z.array(contractResponse),
    accept: contractResponse,
    decline: contractResponse,
    cancel: contractResponse,
  },
  data: {
    manifest: dataManifestResponse,
  },
} satisfies ResponseSchemas;

/** The session user as the auth routes tell it. */
const authUserResponse = z.strictObject({ id, email: z.string(), isAdmin: z.boolean() });
/** POST /api/auth/signup and /api/auth/signin. */
export const signedInResponse = z.strictObject({
  user: authUserResponse,
  token: z.string().describe('The session token: also set as the HttpOnly cookie; scripts send it as Authorization: Bearer <token>'),
});
/** GET /api/auth/session. */
export const sessionResponse = z.strictObject({ user: authUserResponse.nullable() });
/** GET /api/auth/providers. */
export const providersResponse = z.strictObject({ google: z.boolean() });
/** POST /api/auth/signout. */
export { okResponse };
/** GET /api/health (api/src/health.ts): 200 when ok, 503 with the same body when not. */
export const healthResponse = z.strictObject({
  ok: z.boolean().describe('This server can serve players: database up and not shutting down'),
  database: z.enum(['up', 'down']),
  queue: z.enum(['up', 'no worker', 'unknown']).describe("'up': a turn worker is connected; 'no worker': turns wait (the game still plays)"),
  shutting_down: z.boolean(),
}) satisfies z.ZodType<Health>;
/** Every error answer. */
export const errorResponse = z.strictObject({ error: z.string().describe('A message a player can read') });

/** The schema documenting a procedure's answer ("stocks.history"), if any. */
export function responseSchemaOf(procedurePath: string): z.ZodType | undefined {
  const [domain, procedure] = procedurePath.split('.') as [string, string];
  return (responseSchemas as Record<string, Record<string, z.ZodType>>)[domain]?.[procedure];
}
