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
export const DEFAULT_EMPLOYEES = 1; // spec
export const MIN_PRODUCTION_RATE = 10; // spec
export const MAX_PRODUCTION_RATE = 200; // spec
export const DEFAULT_PRODUCTION_RATE = 100; // spec
export const EFFICIENCY_PER_EMPLOYEE = 10; // spec: min(100, employees x 10 + equipment_level x 15)
export const EFFICIENCY_PER_EQUIPMENT_LEVEL = 15; // spec
export const MAX_EFFICIENCY = 100; // spec
export const EFFICIENCY_WARNING_THRESHOLD = 90; // spec
/** Share of the construction cost refunded when a building is sold (our rule). */
export const BUILDING_SALE_REFUND_RATE = 0.5;

// --- Market (spec section 9 and our rules) ---
export const SUGGESTED_RETAIL_MARKUP = 1.5; // spec
/** Selling to the market pays the current price less this spread (our rule). */
export const MARKET_SELL_SPREAD = 0.05;
export const MIN_PRICE_FACTOR = 0.25; // product price never below 0.25 x base
export const MAX_PRICE_FACTOR = 4; // product price never above 4 x base
export const MAX_DEMAND_LEVEL = 100; // spec: demand level 0-100

// --- Stocks (spec section 3 and 9) ---
export const DEFAULT_TOTAL_SHARES = 100; // spec
export const DEFAULT_SHARE_PRICE = 100; // spec
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

// --- Production and trading (our rules, docs/rules-production.md) ---
/** Spec section 9 building detail: overall efficiency = min(100, 70 + total bonus). */
export const BASE_OVERALL_EFFICIENCY = 70;
/** Spec section 9 building detail: popularity = 250 + effective output x 2. */
export const BASE_POPULARITY = 250;
export const POPULARITY_PER_OUTPUT_UNIT = 2;
/** Largest quantity one trade, purchase or transfer may move (our rule: keeps totals exact). */
export const MAX_TRADE_QUANTITY = 1_000_000;

// --- Company, stocks, research (our rules, docs/rules-finance.md) ---
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
