/**
 * The market reads like one: a sortable, searchable table (buy and sell price, weekly change,
 * sparkline, holdings); a product's panel with its trade form, price history, prices by city and
 * recipes one step each way; the stock exchange's table with sparklines, market value and gains.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PHONE, apiGet, apiPost, launchBrowser, newPage, signUpViaApi, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The product names of the table's rows, top to bottom. */
async function rowNames(page: Page): Promise<string[]> {
  return page.getByTestId('market-row').locator('td:first-child p:first-child').allTextContents();
}

describe('market journey', () => {
  it('sorts and searches the table, opens a product, refuses 0, buys, and follows a recipe', async () => {
    const { context, page } = await newPage(browser);
    await signUpViaApi(context, uniqueEmail('market'));
    await page.goto('/market');
    await page.getByRole('heading', { level: 1, name: 'Market' }).waitFor();
    await page.getByTestId('market-row').first().waitFor();
    const goods: Array<{ id: number; name: string; buy_price: number }> = await apiGet(context, '/goods');
    expect(await page.getByTestId('market-row').count()).toBe(goods.length);
    // Every row is in the page, but a sparkline draws its line only near the screen: the first row's
    // is drawn, the last row's (300 rows down the scrolling table) once scrolled to. Both are labelled from the start.
    const lineOf = (row: ReturnType<Page['getByTestId']>) => row.locator('svg polyline, svg line');
    await expect.poll(() => lineOf(page.getByTestId('market-row').first()).count()).toBe(1);
    const lastRow = page.getByTestId('market-row').last();
    expect(await lastRow.getByRole('img', { name: /price/ }).count()).toBe(1);
    expect(await lineOf(lastRow).count()).toBe(0);
    await lastRow.scrollIntoViewIfNeeded();
    await expect.poll(() => lineOf(lastRow).count()).toBe(1);
    await page.getByTestId('market-row').first().scrollIntoViewIfNeeded();
    // The sparkline's period is in its header: its colour is that period's change, not the Week column's.
    expect(await page.getByTestId('trend-period').textContent()).toBe('12 weeks');

    // Sort by buy price, most expensive first, then cheapest first.
    const buyHeader = page.getByRole('columnheader', { name: /Buy/ });
    await buyHeader.getByRole('button').click();
    expect(await buyHeader.getAttribute('aria-sort')).toBe('descending');
    const mostExpensive = [...goods].sort((a, b) => b.buy_price - a.buy_price || a.name.localeCompare(b.name))[0]!;
    expect((await rowNames(page))[0]).toBe(mostExpensive.name);
    await buyHeader.getByRole('button').click();
    expect(await buyHeader.getAttribute('aria-sort')).toBe('ascending');
    const cheapest = [...goods].sort((a, b) => a.buy_price - b.buy_price || a.name.localeCompare(b.name))[0]!;
    expect((await rowNames(page))[0]).toBe(cheapest.name);

    // Search narrows it; nothing found shows the empty text.
    await page.getByRole('textbox', { name: 'Search products' }).fill('no such product at all');
    await page.getByText('No products found in this category.').waitFor();
    await page.getByRole('textbox', { name: 'Search products' }).fill('wheat flour');
    await page
      .getByRole('button', { name: /^Wheat Flour/ })
      .first()
      .click();
    await page.waitForURL(/\?product=\d+/);
    const panel = page.getByRole('heading', { level: 2, name: 'Wheat Flour' });
    await panel.waitFor();
    // Made from wheat at a mill, made into bread at a bakery; prices by city; the sparkline's words.
    await page.getByTestId('made-by').getByText('Mill').waitFor();
    await page
      .getByTestId('made-by')
      .getByRole('button', { name: /\d+ Wheat$/ })
      .waitFor();
    await page.getByTestId('used-by').getByText('Bakery').first().waitFor();
    await page.getByRole('region', { name: 'Prices of Wheat Flour by city' }).first().getByRole('row').nth(1).waitFor();
    await page.getByRole('img', { name: /^Wheat Flour price: / }).waitFor();

    // 0 is refused under the field, Buy disabled; 5 shows what it costs, then buys.
    const quantity = page.getByRole('textbox', { name: 'Quantity' });
    await quantity.fill('');
    await quantity.fill('0');
    await page.getByText('Please enter a quantity greater than 0').waitFor();
    expect(await page.getByRole('button', { name: 'Buy Wheat Flour' }).isDisabled()).toBe(true);
    await quantity.fill('2.5');
    await page.getByText('Please enter a quantity greater than 0').waitFor();
    expect(await quantity.inputValue()).toBe('2.5');
    const flour = goods.find((good) => good.name === 'Wheat Flour')!;
    // The unit price of a curve-priced order is an average, rounded to the cent: where quantity x
    // that price is not the total, the line says so (20 x $9.23 beside $184.56 read as a wrong sum).
    type Quote = { total: number; unit_price: number };
    const isExact = (quote: Quote, units: number) => Math.round(quote.unit_price * 100) * units === Math.round(quote.total * 100);
    for (const units of [3, 6, 7, 9, 11, 13]) {
      const probe: Quote = await apiGet(context, `/market/quote?product_id=${flour.id}&quantity=${units}&action=buy`);
      if (isExact(probe, units)) continue;
      await quantity.fill(String(units));
      await page
        .getByTestId('buy-total')
        .getByText(`${units} x $${probe.unit_price.toFixed(2)} on average`)
        .waitFor();
      break;
    }
    await quantity.fill('5');
    // The cost line is the market's own quote for the whole order (the curve walked, the spread).
    const quote: Quote = await apiGet(context, `/market/quote?product_id=${flour.id}&quantity=5&action=buy`);
    await page
      .getByTestId('buy-total')
      .getByText(`Buying costs: $${quote.total.toFixed(2)}`)
      .waitFor();
    await page
      .getByTestId('buy-total')
      .getByText(`5 x $${quote.unit_price.toFixed(2)}${isExact(quote, 5) ? '' : ' on average'}`, { exact: true })
      .waitFor();
    // Nothing held: selling is not offered.
    expect(await page.getByRole('button', { name: 'Sell Wheat Flour' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Buy Wheat Flour' }).click();
    await page.getByText('Purchased!').waitFor();
    await page.getByText('5 units of Wheat Flour').waitFor();
    await page.getByText('You hold 5 in your warehouse.').waitFor();
    const flourRow = page.getByTestId('market-row').filter({ has: page.getByRole('button', { name: /^Wheat Flour Processed/ }) });
    await flourRow.locator('td').last().getByText('5', { exact: true }).waitFor();
    await quantity.fill('6');
    expect(await page.getByRole('button', { name: 'Sell Wheat Flour' }).isDisabled()).toBe(true);
    await quantity.fill('5');
    await page.getByTestId('sell-total').waitFor();
    expect(await page.getByRole('button', { name: 'Sell Wheat Flour' }).isDisabled()).toBe(false);

    // Following the recipe to wheat.
    await page
      .getByTestId('made-by')
      .getByRole('button', { name: /\d+ Wheat$/ })
      .click();
    await page.getByRole('heading', { level: 2, name: 'Wheat' }).waitFor();
    await page.getByTestId('used-by').getByText('Mill').first().waitFor();
    await context.close();
  });

  it('opens a product from the address and fits a phone', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signUpViaApi(context, uniqueEmail('marketphone'));
    const goods: Array<{ id: number; name: string }> = await apiGet(context, '/goods');
    const bread = goods.find((good) => good.name === 'White Bread') ?? goods[0]!;
    await page.goto(`/market?product=${bread.id}`);
    await page.getByRole('heading', { level: 2, name: bread.name }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // The table is wider than a phone: it scrolls sideways (a swipe, here the wheel), so its last columns are in reach.
    const table = page.getByRole('region', { name: 'Products' });
    await table.locator('tbody tr').first().waitFor();
    await table.hover();
    await page.mouse.wheel(400, 0);
    await expect.poll(() => table.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    // Scrolled: an arrow now says the first columns (the product names) are out of view to the left.
    await table.locator('..').getByTestId('more-to-the-left').waitFor();

    // A tap on a row's price picks the product, as a tap on its name does (only the name did: a tap
    // in the middle of the row, on a phone, picked nothing).
    const wheat = goods.find((good) => good.name === 'Wheat')!;
    await page.goto('/market');
    await page.getByRole('textbox', { name: 'Search products' }).fill('wheat');
    const wheatRow = page.getByTestId('market-row').filter({ has: page.getByRole('button', { name: /^Wheat Agricultural/ }) });
    await wheatRow.locator('td').nth(1).click();
    await page.getByRole('heading', { level: 2, name: 'Wheat' }).waitFor();
    expect(new URL(page.url()).searchParams.get('product')).toBe(String(wheat.id));
    // The panel comes to the top of the screen under the header (it stopped with only its title in view at the foot).
    const panelTop = () => page.locator('[data-picked]').evaluate((panel) => panel.getBoundingClientRect().top);
    await expect.poll(panelTop).toBeLessThan(120);

    // The stock exchange's trade form on a phone: Buy and Sell on the Shares field's row.
    const [listed, other] = await apiGet<Array<{ company_id: number; company_name: string; is_bot: boolean }>>(context, '/shares').then((all) =>
      all.filter((record) => record.is_bot),
    );
    // Its rows too: a tap on a share price picks the company.
    await page.goto('/stocks');
    await page.getByTestId('stock-row').filter({ hasText: other!.company_name }).locator('td').nth(1).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('company')).toBe(String(other!.company_id));
    await expect.poll(panelTop).toBeLessThan(120);
    await page.goto(`/stocks?company=${listed!.company_id}`);
    const sharesField = page.getByRole('textbox', { name: 'Shares' });
    await sharesField.waitFor();
    const rowOf = async (locator: typeof sharesField) => Math.round((await locator.boundingBox())!.y + (await locator.boundingBox())!.height);
    // Polled: the form settles once the page's lazy chunks have loaded (under load that is after the field shows).
    for (const name of ['Buy', 'Sell']) {
      await expect
        .poll(async () => Math.abs((await rowOf(page.getByRole('button', { name, exact: true }))) - (await rowOf(sharesField))), { message: name })
        .toBeLessThanOrEqual(4);
    }
    await context.close();
  });

  it('shows the stock table with sparklines, market value and the gain of a position', async () => {
    const { context, page } = await newPage(browser);
    await signUpViaApi(context, uniqueEmail('stocktable'));
    const shares: Array<{ company_id: number; company_name: string; is_bot: boolean; share_price: number }> = await apiGet(context, '/shares');
    const issuer = shares.find((record) => record.is_bot && record.share_price * 3 < 100_000)!;
    await apiPost(context, '/stocks/trade', { company_id: issuer.company_id, shares: 3, action: 'buy' });

    await page.goto('/stocks');
    await page.getByRole('heading', { level: 1, name: 'Stock Exchange' }).waitFor();
    await page.getByText(/^Your portfolio: \$/).waitFor();
    const rows = page.getByTestId('stock-row');
    await rows.first().waitFor();
    expect(await page.getByTestId('trend-period').textContent()).toBe('12 weeks');
    // The table shows a page of the listed companies: find the issuer by name (searched on the server).
    await page.getByRole('textbox', { name: 'Search companies' }).fill(issuer.company_name);
    await expect.poll(() => rows.filter({ hasNotText: issuer.company_name }).count()).toBe(0);
    const row = rows.filter({ hasText: issuer.company_name });
    await row.getByText('3 owned').waitFor();
    await row.getByRole('img', { name: new RegExp(`share price`) }).waitFor();
    // Sorting by market value, largest first.
    const valueHeader = page.getByRole('columnheader', { name: /Market value/ });
    await valueHeader.getByRole('button').click();
    expect(await valueHeader.getAttribute('aria-sort')).toBe('descending');
    await row.getByRole('button').click();
    await page.waitForURL(/\?company=\d+/);
    await page.getByRole('heading', { level: 2, name: issuer.company_name }).waitFor();
    await page.getByText('You own 3 shares.').waitFor();
    await context.close();
  });
});
