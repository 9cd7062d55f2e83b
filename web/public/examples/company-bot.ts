/**
 * A Marketcraft company bot: once per turn it reads the market, restocks every store shelf and
 * sells the warehouse's surplus on the market. Guide: docs/scripting.md, or the Learning Base's
 * "Scripting" tab; the game serves this file at /examples/company-bot.ts.
 *
 *   MARKETCRAFT_TOKEN=mc_pat_... node company-bot.ts          # runs every turn until stopped
 *   MARKETCRAFT_TOKEN=mc_pat_... node company-bot.ts --once   # one pass, then exits
 *
 * Node 22.18 or newer runs this TypeScript file as it is. The token needs the "trade" scope.
 * MARKETCRAFT_URL is the game's address (default http://localhost:3000).
 */
const BASE_URL = process.env.MARKETCRAFT_URL ?? 'http://localhost:3000';
const TOKEN = process.env.MARKETCRAFT_TOKEN ?? '';

const RESTOCK_TO = 50; // units on every shelf after restocking
const MARKUP = 1.25; // retail price = the city's market price x 1.25
const KEEP_IN_WAREHOUSE = 100; // units of each product kept for production; the rest is sold
const CHECK_EVERY_MS = 60_000; // how often to look whether a new turn (week) began

interface World { current_week: number; next_turn_at: string | null }
interface Company { name: string; cash: number }
interface Building { id: number; name: string; category: string; city_name: string }
interface ShelfProduct { product_id: number; product_name: string; quantity: number; market_price: number | null }
interface WarehouseItem { product_id: number; product_name: string; quantity: number }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One API call. Waits and retries when the rate limit answers 429; throws the server's message on any other error. */
async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  for (;;) {
    const response = await fetch(`${BASE_URL}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 429) {
      const seconds = Number(response.headers.get('retry-after') ?? '5');
      console.log(`Rate limited: waiting ${seconds} s`);
      await sleep(seconds * 1000);
      continue;
    }
    const data = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${data.error}`);
    return data as T;
  }
}

const cents = (dollars: number) => Math.round(dollars * 100) / 100;

/** Fills every shelf of every store back up to RESTOCK_TO units, bought at the city's market price. */
async function restockStores(): Promise<void> {
  const buildings = await api<Building[]>('GET', '/buildings');
  for (const store of buildings.filter((building) => building.category === 'retail')) {
    const shelf = await api<ShelfProduct[]>('GET', `/stores/${store.id}/products`);
    for (const product of shelf) {
      const missing = RESTOCK_TO - product.quantity;
      if (missing <= 0 || product.market_price === null) continue;
      try {
        await api('POST', `/buildings/${store.id}/inventory/purchase`, { product_id: product.product_id, quantity: missing });
        const retailPrice = cents(product.market_price * MARKUP);
        await api('POST', `/buildings/${store.id}/inventory/transfer-to-store`, { product_id: product.product_id, quantity: missing, retail_price: retailPrice });
        console.log(`Restocked ${missing} ${product.product_name} in ${store.name} (${store.city_name}) at $${retailPrice}`);
      } catch (error) {
        console.log(`Could not restock ${product.product_name}: ${(error as Error).message}`);
      }
    }
  }
}

/** Sells what the warehouse holds beyond KEEP_IN_WAREHOUSE units of a product. */
async function sellSurplus(): Promise<void> {
  const warehouse = await api<WarehouseItem[]>('GET', '/inventory');
  for (const item of warehouse) {
    const surplus = item.quantity - KEEP_IN_WAREHOUSE;
    if (surplus <= 0) continue;
    const sale = await api<{ total: number }>('POST', '/market/trade', { product_id: item.product_id, quantity: surplus, action: 'sell' });
    console.log(`Sold ${surplus} ${item.product_name} for $${sale.total}`);
  }
}

async function playTurn(week: number): Promise<void> {
  const company = await api<Company>('GET', '/company');
  console.log(`Week ${week}: ${company.name} has $${company.cash}`);
  await restockStores();
  await sellSurplus();
}

async function main(): Promise<void> {
  if (!TOKEN) throw new Error('Set MARKETCRAFT_TOKEN to a personal access token (create one on your Company Profile).');
  let lastWeek = 0;
  for (;;) {
    const world = await api<World>('GET', '/world');
    if (world.current_week !== lastWeek) {
      await playTurn(world.current_week);
      lastWeek = world.current_week;
      if (process.argv.includes('--once')) return;
      console.log(`Next turn at ${world.next_turn_at ?? 'when an admin advances it'}`);
    }
    await sleep(CHECK_EVERY_MS);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
