/** Build a farm, see it in the side menu and My Buildings, open it, and buy goods on the market. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, signUpViaApi, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('build journey', () => {
  it('builds a farm and manages it', async () => {
    const { context, page } = await newPage(browser);
    await signUpViaApi(context, uniqueEmail('build'));
    await page.goto('/build');
    await page.getByRole('heading', { level: 1, name: 'Build' }).waitFor();
    const buildButton = page.getByRole('button', { name: /^Build/ }).last();
    expect(await buildButton.isDisabled()).toBe(true);

    await page.getByRole('radio', { name: 'Farm' }).click();
    await page.getByTestId('build-cost').getByText('$20,000').waitFor();
    await page.getByPlaceholder('Choose a city').click();
    await page.getByRole('option').first().click();
    await page.getByRole('button', { name: /^Build Farm in / }).click();
    await page.getByText('Building constructed!').waitFor();
    await page.getByText('Your new Farm is now operational.').waitFor();
    await page.getByTestId('header-cash').getByText('$480,000').waitFor();
    await page.getByTestId('my-buildings-count').getByText('1', { exact: true }).waitFor();

    // The side menu groups it under Extraction; open the group and the building.
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByText('Extraction').click();
    await menu.getByRole('link', { name: /Farm/ }).click();
    await page.waitForURL(/\/buildings\/\d+$/);
    await page.getByRole('heading', { level: 1, name: 'Farm' }).waitFor();
    await page.getByRole('tab', { name: 'Operations' }).click();
    await page.getByRole('button', { name: 'Select What to Produce' }).click();
    await page.getByRole('dialog').getByRole('radio').first().click();
    await page.getByRole('button', { name: 'Select Recipe' }).click();
    await page.getByText('Production recipe selected!').waitFor();

    await page.goto('/my-buildings');
    await page.getByText('Active Production').waitFor();
    await page.goto('/buildings/999999');
    await page.getByRole('heading', { name: 'Building Not Found' }).waitFor();
    await context.close();
  });

  it('buys goods on the market and sees them in the dashboard inventory', async () => {
    const { context, page } = await newPage(browser);
    await signUpViaApi(context, uniqueEmail('market'));
    await page.goto('/market');
    await page.getByRole('heading', { level: 1, name: 'Market' }).waitFor();
    await page.getByRole('textbox', { name: 'Search products' }).fill('wheat');
    const card = page.locator('[data-testid^="product-card-"]').first();
    const quantity = card.getByRole('textbox', { name: /^Quantity of / });
    await quantity.fill('5');
    const productName = (await card.locator('p').first().textContent())?.trim() ?? '';
    await card.getByRole('button', { name: 'Buy' }).click();
    await page.getByText('Purchased!').waitFor();
    await page.getByText(`5 units of ${productName}`).waitFor();
    expect(await quantity.inputValue()).toBe('0');

    await page.goto('/');
    await page.getByText(productName).first().waitFor();
    await page.getByTestId('summary-inventory').getByText('1', { exact: true }).waitFor();
    await context.close();
  });

  it('stocks a store through its trade hall', async () => {
    const { context, page } = await newPage(browser);
    await signUpViaApi(context, uniqueEmail('store'));
    await page.goto('/build');
    await page.getByRole('radio', { name: 'Store' }).click();
    await page.getByPlaceholder('Choose a city').click();
    await page.getByRole('option').first().click();
    await page.getByRole('button', { name: /^Build Store in / }).click();
    await page.getByText('Your new Store is now operational.').waitFor();

    await page.goto('/my-buildings');
    await page.getByText('Retail', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: /Store/ }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Store' }).waitFor();
    await page.getByRole('tab', { name: 'Trade Hall' }).click();
    await page.getByRole('button', { name: 'Purchase', exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Purchase Product' });
    expect(await dialog.getByRole('textbox', { name: 'Quantity' }).inputValue()).toBe('10');
    await dialog.getByRole('button', { name: 'Purchase' }).click();
    await page.getByText('Products purchased successfully!').waitFor();

    await page.getByRole('tab', { name: 'Inventory' }).click();
    await page.getByRole('button', { name: 'Add to Store' }).first().click();
    await page.getByRole('dialog', { name: 'Add Product to Store' }).getByRole('button', { name: 'Add to Store' }).click();
    await page.getByText('Product added to store!').waitFor();

    await page.getByRole('tab', { name: 'Store' }).click();
    await page.getByText('Active', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: /^Deactivate / }).first().click();
    await page.getByText('Product status updated!').waitFor();
    await page.getByText('Inactive', { exact: true }).first().waitFor();
    await context.close();
  });
});
