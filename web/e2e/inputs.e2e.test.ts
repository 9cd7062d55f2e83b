/**
 * Input that never guesses (issue 10, point 2), each input the issue found clamped or rounded: the
 * field keeps exactly what was typed, the spec's message shows under it as it is typed, and the
 * submit button stays disabled; no cost line shows a negative amount. Then the Warehouse page's
 * actions (point 1): to a store's back room, back to the warehouse, to the shelf, sold on the market.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { apiGet, apiPost, apiPut, launchBrowser, newPage, signUpViaApi, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Types each text into `field` and expects it kept as typed, `message` shown in `scope`, and `submit` disabled. */
async function refusesEach(page: Page, scope: Locator, field: Locator, submit: Locator, message: string, texts: string[]): Promise<void> {
  for (const text of texts) {
    await field.fill(text);
    expect(await field.inputValue(), `kept as typed: ${text}`).toBe(text);
    await scope.getByText(message).waitFor();
    expect(await submit.isDisabled(), `submit disabled for ${text}`).toBe(true);
    // The production rate dialog's overtime table is next week's profit at fixed rates, whatever is
    // typed (a loss at 200% is a real figure): the typed value's cost is the rest of the dialog.
    const table = scope.getByTestId('overtime-table');
    const tableText = (await table.count()) > 0 ? ((await table.textContent()) ?? '') : '';
    expect(((await scope.textContent()) ?? '').replace(tableText, ''), `no negative cost for ${text}`).not.toContain('-$');
  }
}

describe('input that never guesses', () => {
  it('refuses each invalid input with the spec message under the field and the submit disabled; the warehouse actions move goods', async () => {
    const { context, page } = await newPage(browser);
    await signUpViaApi(context, uniqueEmail('inputs'));
    const cities: Array<{ id: number }> = await apiGet(context, '/cities');
    const goods: Array<{ id: number; name: string; buy_price: number }> = await apiGet(context, '/goods');
    // A consumer good: stores shelve nothing else.
    const bread = goods.find((good) => good.name === 'White Bread')!;
    const farm = await apiPost(context, '/buildings', { type: 'farm', city_id: cities[0]!.id });
    const store = await apiPost(context, '/buildings', { type: 'store', city_id: cities[1]!.id });
    await apiPut(context, `/buildings/${store.id}/select-category`, { category: 'Processed' }).catch(() => undefined);
    await apiPost(context, '/market/trade', { product_id: bread.id, quantity: 30, action: 'buy' });

    // Hire: 0, -3, 11 and 2.5 are refused as typed, never clamped to 1 or 10, never a negative cost.
    await page.goto(`/buildings/${farm.id}`);
    await page.getByRole('tab', { name: 'Operations' }).click();
    await page.getByRole('button', { name: 'Hire Employees' }).click();
    const hire = page.getByRole('dialog', { name: 'Hire Employees' });
    const hireButton = hire.getByRole('button', { name: 'Hire', exact: true });
    await refusesEach(page, hire, hire.getByRole('textbox', { name: 'Employees to hire' }), hireButton, 'Please enter a number between 1 and 10', [
      '0',
      '-3',
      '11',
      '2.5',
    ]);
    await hire.getByRole('textbox', { name: 'Employees to hire' }).fill('2');
    expect(await hireButton.isDisabled()).toBe(false);
    await hire.getByRole('button', { name: 'Cancel' }).click();

    // Production rate: typing never snaps back; "50" stays 50, "50" then "100" is 50100 and refused.
    await page.getByRole('button', { name: 'Adjust Production' }).click();
    const rateDialog = page.getByRole('dialog', { name: 'Adjust Production Level' });
    const rate = rateDialog.getByRole('textbox', { name: /Production rate/ });
    // What the rate means (a pace, not a number of units) and what overtime costs, from the game's constants.
    expect(await rateDialog.getByTestId('rate-rule').textContent()).toBe(
      "100 is the recipe's normal pace, 50 half; above 100 tired crews add less each point, and 150 or more makes 125% of it. Above 100, each point adds 1.5% to the wages (overtime) and 1% to the running cost.",
    );
    // The overtime table: the week's profit at 100-200% and the best rate, as the server priced them.
    const overtime = rateDialog.getByTestId('overtime-table');
    await overtime.getByRole('rowheader', { name: '150%' }).waitFor();
    expect(await overtime.getByRole('rowheader').allTextContents()).toEqual(['100%', '125%', '150%', '175%', '200%']);
    expect(await rateDialog.getByTestId('best-rate').textContent()).toMatch(
      /^Best rate: \d+% \(-?\$[\d,]+ a week\)\. Above it the extra output costs more than it sells for\.$/,
    );
    await rate.fill('');
    await rate.pressSequentially('50');
    expect(await rate.inputValue()).toBe('50');
    expect(await rateDialog.getByRole('button', { name: 'Update Rate' }).isDisabled()).toBe(false);
    await rate.pressSequentially('100');
    expect(await rate.inputValue()).toBe('50100');
    await rateDialog.getByText('Production rate must be between 10 and 200').waitFor();
    expect(await rateDialog.getByRole('button', { name: 'Update Rate' }).isDisabled()).toBe(true);
    await refusesEach(page, rateDialog, rate, rateDialog.getByRole('button', { name: 'Update Rate' }), 'Production rate must be between 10 and 200', [
      '9',
      '201',
      '55.5',
    ]);
    await rateDialog.getByRole('button', { name: 'Cancel' }).click();

    // Trade Hall purchase: 0 and -1 buy nothing.
    await page.goto(`/buildings/${store.id}`);
    await page.getByRole('tab', { name: 'Trade Hall' }).click();
    await page
      .getByRole('button', { name: /^Purchase / })
      .first()
      .click();
    const purchase = page.getByRole('dialog', { name: 'Purchase Product' });
    await refusesEach(
      page,
      purchase,
      purchase.getByRole('textbox', { name: 'Quantity' }),
      purchase.getByRole('button', { name: 'Purchase' }),
      'Please enter a valid quantity',
      ['0', '-1', '1.5'],
    );
    await purchase.getByRole('button', { name: 'Cancel' }).click();

    // The Warehouse page: bread to the store's back room, part of it back, then to the shelf.
    await page.goto('/warehouse');
    await page.getByRole('heading', { level: 1, name: 'Warehouse' }).waitFor();
    await page.getByRole('button', { name: 'To back room: White Bread' }).first().click();
    const toBackRoom = page.getByRole('dialog', { name: "Move to a Store's Back Room" });
    const moveQuantity = toBackRoom.getByRole('textbox', { name: 'Quantity' });
    await moveQuantity.fill('31');
    await toBackRoom.getByText('Please enter a valid quantity: you have 30').waitFor();
    await moveQuantity.fill('12');
    await toBackRoom.getByRole('button', { name: /^Move/ }).click();
    await toBackRoom.waitFor({ state: 'hidden' });
    const holdings = async () =>
      (await apiGet<{ items: Array<{ product_id: number; location: string; quantity: number }> }>(context, '/warehouse')).items.filter(
        (item) => item.product_id === bread.id,
      );
    const at = async (location: string) => (await holdings()).find((item) => item.location === location)?.quantity ?? 0;
    await expect.poll(() => at('back_room')).toBe(12);
    expect(await at('warehouse')).toBe(18);
    await page.getByRole('button', { name: 'To warehouse: White Bread' }).first().click();
    const toWarehouse = page.getByRole('dialog', { name: 'Move to the Warehouse' });
    await toWarehouse.getByRole('textbox', { name: 'Quantity' }).fill('2');
    await toWarehouse.getByRole('button', { name: /^Move/ }).click();
    await toWarehouse.waitFor({ state: 'hidden' });
    await expect.poll(() => at('warehouse')).toBe(20);

    // From the warehouse to the shelf: 0, -3 and 0.001 are not prices.
    const warehouseRow = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Warehouse', exact: true }) })
      .filter({ hasText: 'White Bread' });
    // The store's best price arrives while the player is in the (untouched) price field: a suggestion
    // never changes the text under the cursor (one that landed as a price was typed over kept both).
    let answerBestPrice!: () => void;
    const bestPriceHeld = new Promise<void>((resolve) => (answerBestPrice = resolve));
    await page.route(/buildings\.shelfPrice/, async (route) => {
      await bestPriceHeld;
      await route.continue();
    });
    await warehouseRow.getByRole('button', { name: 'To shelf: White Bread' }).click();
    const shelf = page.getByRole('dialog', { name: 'Add Product to Store' });
    const addButton = shelf.getByRole('button', { name: 'Add to Store' });
    const priceField = shelf.getByRole('textbox', { name: 'Retail price' });
    const markupPrice = await priceField.inputValue();
    await priceField.focus();
    answerBestPrice();
    await shelf.getByTestId('shelf-best-price').waitFor();
    expect(await priceField.inputValue(), 'the field the player is in keeps its text').toBe(markupPrice);
    await page.unroute(/buildings\.shelfPrice/);
    await refusesEach(page, shelf, shelf.getByRole('textbox', { name: 'Retail price' }), addButton, 'Please enter a valid price', ['0', '-3', '0.001']);
    await shelf.getByRole('textbox', { name: 'Quantity' }).fill('5');
    await shelf.getByRole('textbox', { name: 'Retail price' }).fill((bread.buy_price * 1.2).toFixed(2));
    await addButton.click();
    await page.getByText('Product added to store!').waitFor();
    await expect.poll(() => at('shelf')).toBe(5);
    // A shelf is stocked from its store's back room first, then from the warehouse (docs/web.md).
    expect(await at('back_room')).toBe(5);
    expect(await at('warehouse')).toBe(20);

    // Sold on the market: the rest of the warehouse's bread.
    await warehouseRow.getByRole('button', { name: 'Sell White Bread' }).click();
    const sell = page.getByRole('dialog', { name: 'Sell on the Market' });
    const sellQuantity = sell.getByRole('textbox', { name: 'Quantity' });
    const left = await at('warehouse');
    await sellQuantity.fill(String(left + 1));
    await sell.getByText(`Please enter a valid quantity: you have ${left}`).waitFor();
    expect(await sell.getByRole('button', { name: 'Sell', exact: true }).isDisabled()).toBe(true);
    await sellQuantity.fill(String(left));
    await sell.getByRole('button', { name: 'Sell', exact: true }).click();
    await sell.waitFor({ state: 'hidden' });
    await expect.poll(() => at('warehouse')).toBe(0);
    await context.close();
  });
});
