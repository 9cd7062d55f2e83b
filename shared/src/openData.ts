/**
 * Open data (docs/open-data.md): the weekly data files' tables and their columns, with units, in
 * one place. The server makes the files from these definitions (db/src/game/opendata/), the
 * manifest lists them (GET /api/data/worlds/{id}/manifest.json), and the docs and clients read
 * them there. Column names are stable: a new version adds columns, never renames one.
 */

/** The files' formats, as the end of their URL: gzipped CSV (any tool) and Parquet (typed, columnar). */
export const DATA_FILE_FORMATS = ['csv.gz', 'parquet'] as const;
export type DataFileFormat = (typeof DATA_FILE_FORMATS)[number];

/** Bumped when a column changes meaning; adding a column or a table keeps it. */
export const DATA_FORMAT_VERSION = 1;

/**
 * How a column is stored: whole numbers (int32: ids, weeks, ranks, counts; int64: units and shares),
 * dollars (exact cents as a number with two decimals: a double in Parquet), text, or true/false.
 */
type DataColumnType = 'int32' | 'int64' | 'dollars' | 'text' | 'boolean';

export interface DataColumn {
  name: string;
  type: DataColumnType;
  /** week, id, text, dollars, units, shares, count, rank or flag. */
  unit: 'week' | 'id' | 'text' | 'dollars' | 'units' | 'shares' | 'count' | 'rank' | 'flag';
  description: string;
  /** May be empty (CSV) or null (Parquet). */
  nullable?: boolean;
}

export interface DataTable {
  name: string;
  description: string;
  /** What identifies a row within a week's file. */
  key: string[];
  columns: DataColumn[];
}

const week: DataColumn = { name: 'week', type: 'int32', unit: 'week', description: 'The game week the row describes (its turn has run)' };
const companyId: DataColumn = { name: 'company_id', type: 'int32', unit: 'id', description: 'The company (the id the API uses)' };
const company: DataColumn = { name: 'company', type: 'text', unit: 'text', description: "The company's name when the week's turn ran" };
const isBot: DataColumn = { name: 'is_bot', type: 'boolean', unit: 'flag', description: 'A computer-run competitor' };
const productId: DataColumn = { name: 'product_id', type: 'int32', unit: 'id', description: 'The product (GET /api/goods)' };
const product: DataColumn = { name: 'product', type: 'text', unit: 'text', description: "The product's name" };
const sharePrice: DataColumn = {
  name: 'share_price',
  type: 'dollars',
  unit: 'dollars',
  description: "The share price the week's turn set (its close; GET /api/stocks/history's price for the week)",
};
const totalShares: DataColumn = { name: 'total_shares', type: 'int64', unit: 'shares', description: 'Shares in issue after the week' };

/**
 * The tables of every finished week, in the order the manifest lists them. The exchange's weekly
 * clearings (the call auction) join here as a table `clearings` (per product: clearing price,
 * units cleared, units bid and asked) with its rows in db/src/game/opendata/tables.ts, once the
 * exchange records them.
 */
export const DATA_TABLES = [
  {
    name: 'prices',
    description: "The goods exchange per product: the week's posted price, where trading left the price curve, and the units bought and sold",
    key: ['week', 'product_id'],
    columns: [
      week,
      productId,
      product,
      { name: 'category', type: 'text', unit: 'text', description: "The product's category" },
      { name: 'base_price', type: 'dollars', unit: 'dollars', description: 'The price the exchange drifts back toward' },
      {
        name: 'posted_price',
        type: 'dollars',
        unit: 'dollars',
        description: "The exchange's posted price during the week (GET /api/market/products/{id} history)",
      },
      {
        name: 'curve_price',
        type: 'dollars',
        unit: 'dollars',
        description: "The price on the curve after the week's trading: posted_price x e^((units_bought - units_sold) / depth), before the spread",
      },
      { name: 'units_bought', type: 'int64', unit: 'units', description: 'Units companies bought from the exchange during the week' },
      { name: 'units_sold', type: 'int64', unit: 'units', description: 'Units companies sold to the exchange during the week' },
      { name: 'depth', type: 'int64', unit: 'units', description: "Net units bought that move the curve's price by a factor e" },
    ],
  },
  {
    name: 'city_retail',
    description: 'Shoppers per city and product: the reference price they expect, and what the stores sold them',
    key: ['week', 'city_id', 'product_id'],
    columns: [
      week,
      { name: 'city_id', type: 'int32', unit: 'id', description: 'The city (GET /api/cities)' },
      { name: 'city', type: 'text', unit: 'text', description: "The city's name" },
      { name: 'country', type: 'text', unit: 'text', description: "The city's country" },
      productId,
      product,
      {
        name: 'reference_price',
        type: 'dollars',
        unit: 'dollars',
        description: "The price shoppers expect during the week: the posted price x 130% x the city's price level (GET /api/cities/{id}/market-data)",
      },
      { name: 'stores', type: 'int32', unit: 'count', description: 'Stores that sold the product in the city during the week' },
      { name: 'units_sold', type: 'int64', unit: 'units', description: 'Units the stores sold (0 when none)' },
      { name: 'revenue', type: 'dollars', unit: 'dollars', description: 'What the shoppers paid for them: revenue / units_sold is the average price' },
    ],
  },
  {
    name: 'leaderboard',
    description: 'The leaderboard as the week closed: every active company by net worth, richest first (GET /api/leaderboard right after the turn)',
    key: ['week', 'company_id'],
    columns: [
      week,
      { name: 'rank', type: 'int32', unit: 'rank', description: 'Place by net worth (1 = richest; ties by company id)' },
      companyId,
      company,
      isBot,
      {
        name: 'net_worth',
        type: 'dollars',
        unit: 'dollars',
        description: 'Cash + goods + buildings + shares held - shares others hold in it (docs/economy.md, "Net worth")',
      },
      { name: 'cash', type: 'dollars', unit: 'dollars', description: 'Cash after the turn' },
      sharePrice,
    ],
  },
  {
    name: 'companies',
    description:
      "Each company's public figures as the week closed (what its week report, the leaderboard and the share lists show anyone), bankruptcies of the week included",
    key: ['week', 'company_id'],
    columns: [
      week,
      companyId,
      company,
      isBot,
      { name: 'strategy', type: 'text', unit: 'text', description: "A bot's strategy; empty for players", nullable: true },
      { name: 'status', type: 'text', unit: 'text', description: "active, or bankrupt when this week's turn made it so" },
      { name: 'rank', type: 'int32', unit: 'rank', description: 'Place on the leaderboard after the turn; empty when bankrupt', nullable: true },
      { name: 'companies_ranked', type: 'int32', unit: 'count', description: 'Companies on the leaderboard after the turn' },
      { name: 'net_worth', type: 'dollars', unit: 'dollars', description: 'Net worth after the turn' },
      { name: 'cash', type: 'dollars', unit: 'dollars', description: 'Cash after the turn' },
      { name: 'listed', type: 'boolean', unit: 'flag', description: 'Its shares trade (false once delisted by bankruptcy)' },
      sharePrice,
      totalShares,
      { name: 'market_cap', type: 'dollars', unit: 'dollars', description: 'share_price x total_shares' },
      { name: 'book_value_per_share', type: 'dollars', unit: 'dollars', description: "Equity per share at the turn: the share price's anchor" },
      { name: 'dividend_per_share', type: 'dollars', unit: 'dollars', description: "Dividend the week's turn paid per share (0 when none)" },
    ],
  },
  {
    name: 'shares',
    description: 'The stock exchange per listed company: the share price the week closed at and the shares traded with the issuer during the week',
    key: ['week', 'company_id'],
    columns: [
      week,
      companyId,
      company,
      sharePrice,
      totalShares,
      { name: 'shares_bought', type: 'int64', unit: 'shares', description: 'Shares bought from the issuer during the week (new shares)' },
      {
        name: 'shares_sold',
        type: 'int64',
        unit: 'shares',
        description: 'Shares sold back to the issuer during the week (buybacks, bankruptcy sales included)',
      },
      { name: 'market_cap', type: 'dollars', unit: 'dollars', description: 'share_price x total_shares' },
    ],
  },
] as const satisfies readonly DataTable[];

export type DataTableName = (typeof DATA_TABLES)[number]['name'];
export const DATA_TABLE_NAMES: readonly DataTableName[] = DATA_TABLES.map((table) => table.name);

export function isDataTableName(name: string): name is DataTableName {
  return (DATA_TABLE_NAMES as readonly string[]).includes(name);
}

/** The path of a data file under /api (what the manifest links and the routes answer). */
export function dataFilePath(worldId: number, week: number, table: DataTableName, format: DataFileFormat): string {
  return `/data/worlds/${worldId}/weeks/${week}/${table}.${format}`;
}

export const unknownDataTableMessage = (name: string) =>
  `Unknown table: ${name.slice(0, 40)}. The tables are ${DATA_TABLE_NAMES.join(', ')} (manifest.json lists their columns)`;
export const weekNotFinishedMessage = (week: number, currentWeek: number) =>
  `Week ${week} is not finished: the world is at week ${currentWeek}, and a week's data files exist once its turn has run (manifest.json lists the finished weeks)`;
export const weekNotPublishedMessage = (week: number) =>
  `Week ${week} has no data files: its turn ran before this server recorded open data (manifest.json lists the weeks that have them)`;
