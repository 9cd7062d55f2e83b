/**
 * The game's numbers, named. Values the spec states are marked "spec"; the others are
 * our choices for values the spec leaves unstated ("not shown"), documented in docs/economy.md.
 * Money constants are in whole dollars unless the name ends in _CENTS.
 */

// --- Turn cycle (spec section 4 and 9) ---
export const TURN_INTERVAL_HOURS = 12; // spec
export const PROCESSING_WINDOW_MINUTES = 30; // spec
export const TURN_CRON_SCHEDULE = '30 */12 * * *'; // spec: 00:30 and 12:30 UTC
export const TURN_JOB_NAME = 'advance-game-turn'; // spec
export const REALTIME_CHANNEL = 'game-updates'; // spec

// --- Starting capital (spec section 1 and 9: two readings) ---
export const INITIAL_CAPITAL = 100_000; // spec
export const EARLY_BIRD_CAPITAL = 500_000; // spec
export const EARLY_BIRD_PLAYER_LIMIT = 50; // spec
/**
 * Early-bird bonuses one network address can take (docs/auth.md, "Starting cash"): later sign-ups
 * from it still found their company, with the initial capital. Without it one person could sign up
 * 50 times and take every bonus; a class behind one address still joins (private worlds set their
 * own starting cash). The API's EARLY_BIRD_PER_ADDRESS setting changes it (browser journeys all
 * sign up from one machine).
 */
export const EARLY_BIRD_PER_ADDRESS = 3;
/**
 * Sign-ups one network address makes in an hour (docs/auth.md, "Sign-up throttle"; 0: no limit).
 * Every sign-up founds a company in the public world that every turn then runs: unthrottled, one
 * script could fill the leaderboard and slow the turn with thousands. A class signing up behind
 * one school address fits (then joins its private world by code). The API's
 * SIGNUPS_PER_ADDRESS_PER_HOUR setting changes it.
 */
export const SIGNUPS_PER_ADDRESS_PER_HOUR = 30;
export const SIGNUP_THROTTLE_MESSAGE = 'Too many accounts were created from your network address in the last hour. Try again later.';
export const SIGNUP_BONUS_MODES = ['early-bird', 'flat'] as const;
export type SignupBonusMode = (typeof SIGNUP_BONUS_MODES)[number];

// --- Scale (spec section 1 and 9) ---
export const PRODUCT_COUNT = 304;
export const CITY_COUNT = 50;
export const BOT_COUNT = 25;
export const RESEARCH_UPGRADE_COUNT = 15;
export const RESEARCH_TIERS = 5;

// --- Buildings (spec section 9) ---
export const MIN_EQUIPMENT_LEVEL = 1;
export const MAX_EQUIPMENT_LEVEL = 5; // spec: 5 equipment levels
/** Cost to reach each equipment level (index 0 = level 1). Spec: the schema's cost ladder. */
export const EQUIPMENT_LEVEL_COST_LADDER = [0, 10_000, 25_000, 50_000, 100_000] as const;
export const HIRE_COST_PER_EMPLOYEE = 5_000; // spec (factory view)
export const MAX_HIRE_PER_ACTION = 10; // spec: bulk count cap 10
export const MIN_PRODUCTION_RATE = 10; // spec
export const MAX_PRODUCTION_RATE = 200; // spec
export const EFFICIENCY_PER_EMPLOYEE = 10; // spec: min(100, employees x 10 + equipment_level x 15)
export const EFFICIENCY_PER_EQUIPMENT_LEVEL = 15; // spec
export const MAX_EFFICIENCY = 100; // spec
export const EFFICIENCY_WARNING_THRESHOLD = 90; // spec
/** Share of the construction cost refunded when a building is sold (our rule). */
export const BUILDING_SALE_REFUND_RATE = 0.5;

// --- Market (spec section 9 and our rules) ---
export const SUGGESTED_RETAIL_MARKUP = 1.5; // spec

// --- Stocks (spec section 3 and 9) ---
export const DIVIDEND_RATE = 0.2; // spec: 20% of profits each turn

// --- Politics (spec section 9) ---
export const POLITICAL_EVENT_CHANCE = 0.1; // spec
export const ELECTION_INTERVAL_WEEKS = 12; // spec
export const MAX_INFLUENCE_POINTS = 1_000; // spec: influence bar full at 1000
/** Price of one unit of political investment (spec: constant, value not shown). */
export const INFLUENCE_UNIT_COST = 1_000;
/** Influence points one unit buys (our rule). */
export const INFLUENCE_POINTS_PER_UNIT = 10;
export const MAX_TAX_RATE = 100;

// --- News feed (spec section 2 and 9) ---
export const LARGE_TRANSACTION_THRESHOLD = 10_000; // spec
export const NEWS_POLITICAL_EVENTS = 5; // spec
export const NEWS_LARGE_TRANSACTIONS = 5; // spec
export const NEWS_STOCK_UPDATES = 3; // spec
export const NEWS_MAX_ITEMS = 15; // spec
export const MOVERS_PANEL_SIZE = 10; // spec
export const TOP_INVENTORY_SIZE = 5; // spec

// --- Company profile (spec section 5) ---
export const MAX_BIO_LENGTH = 500; // spec
export const MIN_PASSWORD_LENGTH = 6; // spec
export const MAX_PASSWORD_LENGTH = 128;

// --- Production and trading (our rules, docs/economy.md, section 17) ---
/** Spec section 9 building detail: popularity = 250 + effective output x 2. */
export const BASE_POPULARITY = 250;
export const POPULARITY_PER_OUTPUT_UNIT = 2;
/** Largest quantity one trade, purchase or transfer may move (our rule: keeps totals exact). */
export const MAX_TRADE_QUANTITY = 1_000_000;

// --- Company, stocks, research (our rules, docs/economy.md, section 18) ---
/** Longest company name (our rule; the spec only says trimmed and not empty). */
export const MAX_COMPANY_NAME_LENGTH = 80;
/** Financial history entries returned (weekly, newest 52 = one game year). */
export const FINANCIAL_HISTORY_ENTRIES = 52;
/** Stock price history entries returned per company (newest 52 weeks). */
export const STOCK_HISTORY_ENTRIES = 52;
/** Most shares one stock trade may move. */
export const MAX_SHARES_PER_TRADE = 1_000_000;
/** Most dollars one political investment may spend. */
export const MAX_POLITICAL_INVESTMENT = 1_000_000_000;
/** The research_discount effects of researched upgrades add up to at most this percent. */
export const MAX_RESEARCH_DISCOUNT_PERCENT = 50;
/** Political events listed by GET /api/political-events. */
export const POLITICAL_EVENTS_LIST_SIZE = 20;

// --- Bots (spec section 1 and 3: 25+ bots, each with a strategy; our names) ---
/** Bot strategies: words separated by underscores (the leaderboard shows them with spaces). */
export const BOT_STRATEGIES = [
  'vertical_integration',
  'retail_focus',
  'commodity_trader',
  'aggressive_expansion',
  'value_investor',
  'luxury_specialist',
  'tech_innovator',
] as const;
export type BotStrategy = (typeof BOT_STRATEGIES)[number];
/** Employees in each building a bot starts with (the seeded world). */
export const BOT_STARTING_EMPLOYEES = 3;

/** Weeks a price sparkline shows, the current one included (market and stock tables; the web's 'Trend' header says it). */
export const SPARKLINE_WEEKS = 12;

// --- The turn (our rules, docs/economy.md) ---
/** Weekly wage of one employee, in cents ($100). */
export const WAGE_PER_EMPLOYEE_WEEKLY_CENTS = 10_000;
/** Overtime: every percent of production rate above 100 costs this many percent of the base wages on top (1.5x pay for overtime). */
export const OVERTIME_WAGE_PREMIUM_PERCENT = 150;
/** Wear: every percent of production rate above 100 adds this many percent to the operating cost. */
export const OVERTIME_WEAR_PERCENT = 100;
/**
 * Tired crews: the first point of production rate above 100 adds a full point of output, and each
 * point after it a little less, until the extra hours add nothing at 100 + this many points (150%:
 * 125% of the output at 100%). Output above 100% therefore costs more and more per unit (the
 * overtime wages and wear of each point buy less of it), and past 150% only the costs grow
 * (docs/economy.md, "Overtime: where the extra output stops paying").
 */
export const OVERTIME_OUTPUT_LIMIT_POINTS = 50;
/** The production rates the building forecast prices side by side (the player's overtime table). */
export const FORECAST_PRODUCTION_RATES = [100, 125, 150, 175, 200] as const;
/** Overhead of size: each building a company owns beyond its first adds this many percent to every building's operating cost. */
export const SIZE_OVERHEAD_PERCENT_PER_BUILDING = 2;
/** research effects of one kind never add up to more than this percent (cost_reduction, material_reduction). */
export const MAX_REDUCTION_PERCENT = 50;

// --- The goods exchange (docs/economy.md, "The market") ---
/** Half the spread: buyers pay this many basis points above the curve, sellers get this many below (2.5% each way). */
export const MARKET_HALF_SPREAD_BP = 250;
/**
 * The wholesale margin: consumer goods (WHOLESALE_CATEGORIES: what stores' shoppers buy) bought from
 * the exchange cost this many basis points more, on top of the spread (20%). Retailing goods you
 * made pays the whole retail margin; retailing goods you bought leaves the wholesaler its share
 * (docs/economy.md, "The market": a reseller out-earned every maker per dollar without it).
 */
export const WHOLESALE_MARGIN_BP = 2_000;
// --- The exchange between players (docs/exchange.md) ---
/**
 * The exchange's fee, basis points of the traded value, each side (1%: the issue allows at most 2%).
 * A buyer pays it on top of the clearing price (its escrow holds it at the limit price), a seller
 * receives the clearing price less it. Charged on an order's filled value so far, rounded up to the
 * cent (exchangeFeeRule), so splitting an order never saves a cent of it.
 */
export const EXCHANGE_FEE_BP = 100;
/** The longest a limit order stays in the weekly auctions: 1 (this week's only, the default) to 8 weeks. */
export const EXCHANGE_MAX_ORDER_WEEKS = 8;
/** Open limit orders a company may have at once (every one is a row every auction reads). */
export const EXCHANGE_MAX_OPEN_ORDERS = 200;
/**
 * Open contract offers one company may have to one other company at once. A buyer's list of offers
 * shows the newest 200: without a cap one seller could bury a real supplier's offer under offers of
 * one unit each (docs/exchange.md, "Contracts").
 */
export const CONTRACT_MAX_OPEN_OFFERS_PER_BUYER = 10;
/** A product's market depth, in weeks of output of one building running its recipe at 100%: buying one building-week moves the price by e^(1/40), about 2.5%. */
export const MARKET_DEPTH_BUILDING_WEEKS = 40;
/**
 * Each turn a product's price closes this share of its (log) gap to the base price. Small on purpose:
 * the drift back is predictable, so it must stay below the spread for any ordinary gap (up to about
 * 65% off base), or buying after someone else's dump and selling the next week would pay without
 * making anything.
 */
export const MARKET_REVERSION_PERCENT = 10;
/** Each turn a product's price also moves by seeded noise with this standard deviation (basis points of its log): the world outside the game. */
export const MARKET_NOISE_BP = 200;
export const MIN_PRICE_FACTOR = 0.25; // product price never below 0.25 x base
export const MAX_PRICE_FACTOR = 4; // product price never above 4 x base
/** A demand level moved away from its base (a shock) drifts back this share of the gap each turn (at least one point). */
export const DEMAND_RECOVERY_RATE = 0.25;

// --- Retail (docs/economy.md, "Store sales") ---
/** A city's consumer reference price = the market price x this percent x the city's price factor. */
export const RETAIL_MARKUP_PERCENT = 130;
/** What consumers of a city of REFERENCE_POPULATION at demand level 50 spend on one product per week at its reference price, cents ($8,000). */
export const CONSUMER_SPEND_PER_PRODUCT_CENTS = 800_000;
/** The population CONSUMER_SPEND_PER_PRODUCT_CENTS is for; spending grows with the square root of population. */
export const REFERENCE_POPULATION = 500_000;
/** Demand level at which consumers spend CONSUMER_SPEND_PER_PRODUCT_CENTS (spec: demand 0-100). */
export const SALES_NEUTRAL_DEMAND = 50;
/**
 * How fast a city's total demand falls as the average shelf price rises above the reference price:
 * (reference / average)^4. At 2 a store pricing at twice the reference still earned 50% more revenue
 * per unit of demand, so reselling bought goods at high prices paid more than making them
 * (docs/economy-benchmark.md); at 4 revenue peaks near the reference price and falls above it.
 */
export const DEMAND_PRICE_ELASTICITY = 4;
/** Demand at low prices is at most this multiple of the demand at the reference price. */
export const MAX_DEMAND_MULTIPLE = 2;
/** How strongly shoppers prefer the cheaper store: a store's weight is (reference / its price)^4. */
export const STORE_PRICE_SENSITIVITY = 4;
/** Nothing sells above this multiple of the city's reference price. */
export const SALES_MAX_PRICE_MULTIPLE = 3;
/**
 * What one store can sell per week at 100% efficiency and rate, valued at its shelf prices, cents
 * ($30,000): a store's revenue is capped, however high it prices (valued at reference prices, a
 * store pricing at 2x took in twice its capacity).
 */
export const STORE_SALES_CAPACITY_CENTS = 3_000_000;
/**
 * Products one store sells at once: products with units on its shelves (a product that sold out or
 * was taken off the shelf frees its place; more of a product already there is always fine). Every
 * product has its own demand in each city, so a store with unlimited shelves could fill its capacity
 * at three times the reference price from dozens of products: bought goods resold that way earned
 * 2.46x per dollar what the best making strategy earned (docs/economy.md, "Store sales").
 */
export const MAX_STORE_PRODUCTS = 6;

// --- Taxes, dividends, bankruptcy, valuation ---
/** Bankruptcy: consecutive turns ending with negative cash before a company goes bankrupt. */
export const BANKRUPTCY_TURNS = 4;

// --- Shares (docs/economy.md, "Shares") ---
/** A new company lists at about this share price (dollars): its shares = book value / this. */
export const LISTING_SHARE_PRICE = 100;
/** A share's depth is this percent of the company's shares: buying that many moves its price by e. */
export const SHARE_DEPTH_PERCENT = 50;
/** Each turn, buying or selling pressure on a share price (sentiment) falls by this percent. */
export const SHARE_SENTIMENT_DECAY_PERCENT = 50;
/** Each turn in a row a company ends with negative cash cuts its fundamental share value by this percent. */
export const DISTRESS_DISCOUNT_PERCENT_PER_TURN = 20;

// --- Politics (docs/economy.md, "Politics") ---
/** Weeks an event stays active (it starts the week after it happens). */
export const POLITICAL_EVENT_WEEKS = 4;
/** Tax events move the rate by 2 to this many points. */
export const MAX_TAX_EVENT_POINTS = 5;
/** Subsidies pay this many dollars per building in the country, each week they are active. */
export const SUBSIDY_PER_BUILDING = 500;
/** An election moves the tax rate this many points toward the winning platform. */
export const ELECTION_TAX_STEP_POINTS = 3;
/** Elections keep the tax rate within this many points of its base. */
export const ELECTION_MAX_DISTANCE_FROM_BASE = 10;
/** Citizens' weight in every election, in influence points, for bringing the rate back to its base (higher while below it, lower while above). */
export const PUBLIC_INFLUENCE_FOR_BASE_RATE = 300;
/** Influence halves after each election. */
export const INFLUENCE_DECAY_RATE = 0.5;
/** The platforms a company can back with its influence in a country. */
export const POLITICAL_PLATFORMS = ['lower_taxes', 'higher_taxes'] as const;
export type PoliticalPlatform = (typeof POLITICAL_PLATFORMS)[number];
/** PostgreSQL NOTIFY channel the worker signals after each turn (the API relays it as the 'game-updates' event). */
export const GAME_UPDATES_PG_CHANNEL = 'game_updates';
/** Largest id a PostgreSQL integer column holds; larger ids are refused as invalid input (400), never a database error. */
export const MAX_ROW_ID = 2_147_483_647;
/**
 * Most procedure calls one tRPC batch request may carry (the web's batch link sends at most this
 * many). Unbounded, one 7.6 kB GET of 600 calls made the server answer 7.7 MB.
 */
export const MAX_TRPC_BATCH_CALLS = 10;

// Worlds and classroom worlds (docs/worlds.md).
export const MAX_WORLD_NAME_LENGTH = 60;
export const MAX_TURN_INTERVAL_MINUTES = 1440;
export const MAX_WORLD_BOTS = 25;
/** Starting cash an instructor may give every player, dollars. */
export const MIN_WORLD_STARTING_CASH = 1_000;
export const MAX_WORLD_STARTING_CASH = 10_000_000;
/**
 * Private worlds one user may run (created, not ended) at once; site admins have no limit. Each
 * world copies the cities' markets (15,200 rows) and turns on its own clock, so an account must not
 * be able to create them without end.
 */
export const MAX_OPEN_WORLDS_PER_INSTRUCTOR = 20;

/** Sandboxes (private forks of the public world, docs/replay.md) a player keeps open at once. */
export const MAX_OPEN_SANDBOXES_PER_PLAYER = 3;
/** Days after its creation when the worker deletes a sandbox. */
export const SANDBOX_LIFETIME_DAYS = 7;
/** Tax rates one fork request may set (one per country). */
export const MAX_FORK_TAX_RATES = 50;
/** Products the forked debrief compares at once. */
export const MAX_FORK_COMPARISON_PRODUCTS = 8;
/** Player companies a private world admits (a class and a few guests). */
export const MAX_WORLD_PLAYERS = 200;
/** Members a class world's company may have (the instructor's team size, docs/classroom.md "Teams"). */
export const MIN_TEAM_SIZE = 1;
export const MAX_TEAM_SIZE = 6;
/** Characters of a company's team code (the join code's alphabet). */
export const TEAM_CODE_LENGTH = 6;
/** Characters of a generated join code (letters and digits without look-alikes). */
export const JOIN_CODE_LENGTH = 8;
/** Wrong join codes a user (or an address) may try in JOIN_ATTEMPT_WINDOW_MINUTES before 429. */
export const MAX_WRONG_JOIN_CODES = 10;
export const JOIN_ATTEMPT_WINDOW_MINUTES = 10;
/** A shock moves its target by -90% to +200% for 1 to 52 weeks. */
export const MIN_SHOCK_PERCENT = -90;
export const MAX_SHOCK_PERCENT = 200;
export const MAX_SHOCK_WEEKS = 52;
export const MAX_ANNOUNCEMENT_LENGTH = 500;
