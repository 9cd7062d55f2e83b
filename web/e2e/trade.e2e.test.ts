/** The market's validation and the stock exchange: select a company, buy and sell shares. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { defaultCompanyName, launchBrowser, newPage, signUpViaApi, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('trade journey', () => {
  it('buys and sells shares of a bot company, and cannot trade its own', async () => {
    const { context, page } = await newPage(browser);
    const email = uniqueEmail('stocks');
    await signUpViaApi(context, email);
    const shares: Array<{ company_name: string; is_bot: boolean; buy_price: number }> = await (await context.request.get('/api/shares')).json();
    // Companies issue new shares to buyers: any bot whose shares cost less than the player's cash.
    const issuer = shares.find((record) => record.is_bot && record.buy_price > 0 && record.buy_price * 2 < 400_000);
    expect(issuer, 'a bot company to buy shares of').toBeDefined();
    const name = issuer?.company_name ?? '';

    await page.goto('/stocks');
    await page.getByRole('heading', { level: 1, name: 'Stock Exchange' }).waitFor();
    await page.getByText('Select a company to start trading').waitFor();

    // Your own company: listed, but not tradable.
    await page.getByRole('textbox', { name: 'Search companies' }).fill(defaultCompanyName(email));
    await page
      .getByRole('button', { name: new RegExp(defaultCompanyName(email)) })
      .first()
      .click();
    await page.getByTestId('own-company-note').waitFor();
    expect(await page.getByRole('button', { name: 'Buy', exact: true }).isDisabled()).toBe(true);

    await page.getByRole('textbox', { name: 'Search companies' }).fill(name);
    await page
      .getByRole('button', { name: new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
      .first()
      .click();
    await page.getByRole('heading', { level: 2, name }).waitFor();
    await page.getByText('Price History').waitFor();
    const input = page.getByRole('textbox', { name: 'Shares' });
    await input.fill('2');
    await page.getByTestId('trade-total').waitFor();
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.getByText('Purchased!').waitFor();
    await page.getByText(`2 shares of ${name}`).waitFor();
    expect(await input.inputValue()).toBe('0');
    await page.getByText('You own 2 shares.').waitFor();

    await input.fill('1');
    await page.getByRole('button', { name: 'Sell', exact: true }).click();
    await page.getByText('Sold!').waitFor();
    await page.getByText(`1 share of ${name}`).waitFor();
    await page.getByText('You own 1 share.').waitFor();
    // Selling more than you own is not offered.
    await input.fill('5');
    expect(await page.getByRole('button', { name: 'Sell', exact: true }).isDisabled()).toBe(true);

    // The dashboard values the share at what selling it would pay (the net worth's holdings term), not $100 a share.
    await page.goto('/');
    const company = await (await context.request.get('/api/company')).json();
    const holdings = company.net_worth_why.terms.find((term: { name: string }) => term.name === 'holdings').value as number;
    const portfolio = page.getByTestId('summary-portfolio');
    await portfolio.getByText(`$${Math.round(holdings).toLocaleString('en-US')}`).waitFor();
    await page.getByText('1 share, at what selling it would pay').waitFor();
    await context.close();
  });
});
