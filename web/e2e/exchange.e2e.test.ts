/**
 * The exchange journey (issue 22, docs/exchange.md): on a product's panel a player sees the
 * published curves and the indicative price, places a limit order (the form says what it holds and
 * where it stands), cancels it, places another that fills in the next turn's auction, sees the fill
 * in its orders, the clearing in the history and the fill in the week's results, and accepts a contract
 * another company offered (also in the week's results). Both companies play in a class world of the
 * test's own, whose instructor runs the turn: a turn of the public world would change what the
 * journeys running beside this one see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiGet, apiPost, classWorldOfItsOwn, launchBrowser, newPage, signUpViaApi, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('exchange journey', () => {
  it('places and cancels an order, sees the curves and the indicative price, gets a fill after a turn, and accepts a contract', async () => {
    const classWorld = await classWorldOfItsOwn(browser, { name: 'Exchange e2e', starting_cash: 500_000, bots: 0 });
    const { context, page } = await newPage(browser);
    await signUpViaApi(context, uniqueEmail('exchange'));
    await classWorld.join(context);
    const goods: Array<{ id: number; name: string; buy_price: number }> = await apiGet(context, '/goods');
    const wheat = goods.find((good) => good.name === 'Wheat')!;
    await page.goto(`/market?product=${wheat.id}`);
    const panel = page.getByTestId('exchange-panel');
    await panel.getByRole('heading', { name: 'Weekly Auction' }).waitFor();
    await panel.getByTestId('indicative-price').waitFor();

    // A buy at twice the buy price: the maker's schedule would fill it now.
    const limit = (Math.ceil(wheat.buy_price * 2 * 100) / 100).toFixed(2);
    await panel.getByRole('textbox', { name: 'Units', exact: true }).fill('10');
    await panel.getByRole('textbox', { name: 'Up to (per unit)' }).fill(limit);
    await expect.poll(() => panel.getByTestId('order-holds').textContent()).toMatch(/^It holds \$[\d,.]+ of your cash .* Now it would fill/);
    await panel.getByRole('button', { name: 'Place order' }).click();
    const cancel = panel.getByRole('button', { name: /^Cancel order \d+$/ });
    await cancel.waitFor();
    const company = await apiGet<{ cash_in_escrow: number }>(context, '/company');
    expect(company.cash_in_escrow).toBeGreaterThan(0);
    await cancel.click();
    await panel.getByText('cancelled').waitFor();
    expect((await apiGet<{ cash_in_escrow: number }>(context, '/company')).cash_in_escrow).toBe(0);

    // The curves: the indicative price of the book now that an order is in.
    await panel.getByRole('textbox', { name: 'Units', exact: true }).fill('10');
    await panel.getByRole('textbox', { name: 'Up to (per unit)' }).fill(limit);
    await panel.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(async () => (await panel.getByTestId('indicative-price').textContent()) ?? '').toMatch(/^\$/);
    await page.getByRole('figure', { name: /^Demand and supply of Wheat this week, crossing at \$/ }).waitFor();

    // A contract offered by another company, answered in the browser.
    const other = await newPage(browser);
    await signUpViaApi(other.context, uniqueEmail('exchange-seller'));
    await classWorld.join(other.context);
    await apiPost(other.context, '/market/trade', { product_id: wheat.id, quantity: 5, action: 'buy' });
    const me = await apiGet<{ id: number }>(context, '/company');
    const world = await apiGet<{ current_week: number }>(context, '/world');
    const offer = await apiPost<{ id: number }>(other.context, '/contracts', {
      buyer_company_id: me.id,
      product_id: wheat.id,
      quantity: 5,
      unit_price: 1,
      expires_week: world.current_week,
    });
    await page.goto('/');
    await page
      .getByTestId('incoming-offers')
      .getByRole('button', { name: `Accept offer ${offer.id} from ${(await apiGet<{ name: string }>(other.context, '/company')).name}` })
      .click();
    await page.getByTestId('incoming-offers').waitFor({ state: 'detached' });
    const contracts = await apiGet<Array<{ id: number; status: string }>>(context, '/contracts?direction=incoming');
    expect(contracts.find((contract) => contract.id === offer.id)?.status).toBe('accepted');
    await page.goto(`/market?product=${wheat.id}`);

    // The turn clears the auction: the order fills at one price, shown in my orders and the history.
    await classWorld.advance();
    await page.reload();
    await panel.getByRole('heading', { name: 'Weekly Auction' }).waitFor();
    await panel.getByText('filled', { exact: true }).waitFor();
    await panel.getByRole('region', { name: 'Past clearings of this product' }).getByRole('row').nth(1).waitFor();

    // The week's results list the fill (10 Wheat bought in the auction) and the contract delivered.
    await page.goto(`/reports/${world.current_week}`);
    const fill = page.getByTestId('report-fill').filter({ hasText: 'Wheat' });
    await fill.waitFor();
    expect(await fill.textContent()).toMatch(/^WheatBoughtAuction, order #\d+10\$/);
    await page
      .getByTestId('report-contract')
      .filter({ hasText: `Contract #${offer.id} from` })
      .waitFor();
    await other.context.close();
    await context.close();
    await classWorld.close();
  });
});
