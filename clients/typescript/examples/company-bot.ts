/**
 * The company bot of docs/scripting.md with the typed client (@marketcraft/client: openapi-fetch
 * over types generated from the OpenAPI document): once per turn it restocks every store shelf and
 * sells the warehouse's surplus. Every path, body and answer below is checked by the compiler.
 *
 *   MARKETCRAFT_TOKEN=mc_pat_... node examples/company-bot.ts --once
 *
 * The token needs the "trade" scope. MARKETCRAFT_URL is the game's address (default http://localhost:3000).
 */
import { createMarketcraftClient } from '@marketcraft/client';

const RESTOCK_TO = 50; // units on every shelf after restocking
const MARKUP = 1.25; // retail price = the city's market price x 1.25
const KEEP_IN_WAREHOUSE = 100; // units of each product kept for production; the rest is sold
const CHECK_EVERY_MS = 60_000; // how often to look whether a new turn (week) began

const game = createMarketcraftClient({
  baseUrl: process.env.MARKETCRAFT_URL ?? 'http://localhost:3000',
  token: process.env.MARKETCRAFT_TOKEN ?? '',
  onRateLimited: (seconds) => console.log(`Rate limited: waiting ${seconds} s`),
});

/** The answer's data, or the server's message as an error. */
function ok<T>(result: { data?: T; error?: { error: string } }, call: string): T {
  if (result.error || result.data === undefined) throw new Error(`${call}: ${result.error?.error ?? 'no answer'}`);
  return result.data;
}

const cents = (dollars: number) => Math.round(dollars * 100) / 100;

async function restockStores(): Promise<void> {
  const buildings = ok(await game.GET('/buildings'), 'GET /buildings');
  for (const store of buildings.filter((building) => building.category === 'retail')) {
    const shelf = ok(await game.GET('/stores/{id}/products', { params: { path: { id: store.id } } }), 'GET /stores/{id}/products');
    for (const product of shelf) {
      const missing = RESTOCK_TO - product.quantity;
      if (missing <= 0 || product.market_price === null) continue;
      const path = { id: store.id };
      const bought = await game.POST('/buildings/{id}/inventory/purchase', { params: { path }, body: { product_id: product.product_id, quantity: missing } });
      if (bought.error) {
        console.log(`Could not restock ${product.product_name}: ${bought.error.error}`);
        continue;
      }
      const retailPrice = cents(product.market_price * MARKUP);
      ok(
        await game.POST('/buildings/{id}/inventory/transfer-to-store', { params: { path }, body: { product_id: product.product_id, quantity: missing, retail_price: retailPrice } }),
        'POST /buildings/{id}/inventory/transfer-to-store',
      );
      console.log(`Restocked ${missing} ${product.product_name} in ${store.name} (${store.city_name}) at $${retailPrice}`);
    }
  }
}

async function sellSurplus(): Promise<void> {
  const warehouse = ok(await game.GET('/inventory'), 'GET /inventory');
  for (const item of warehouse) {
    const surplus = item.quantity - KEEP_IN_WAREHOUSE;
    if (surplus <= 0) continue;
    const sale = ok(await game.POST('/market/trade', { body: { product_id: item.product_id, quantity: surplus, action: 'sell' } }), 'POST /market/trade');
    console.log(`Sold ${surplus} ${item.product_name} for $${sale.total}`);
  }
}

async function main(): Promise<void> {
  if (!process.env.MARKETCRAFT_TOKEN) throw new Error('Set MARKETCRAFT_TOKEN to a personal access token (create one on your Company Profile).');
  let lastWeek = 0;
  for (;;) {
    const world = ok(await game.GET('/world'), 'GET /world');
    if (world.current_week !== lastWeek) {
      const company = ok(await game.GET('/company'), 'GET /company');
      console.log(`Week ${world.current_week}: ${company.name} has $${company.cash}`);
      await restockStores();
      await sellSurplus();
      lastWeek = world.current_week;
      if (process.argv.includes('--once')) return;
      console.log(`Next turn at ${world.next_turn_at ?? 'when an admin advances it'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS));
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
