/**
 * The lists of companies a page at a time (docs/api.md, "Lists of companies"; docs/web.md): the
 * leaderboard and the stock exchange fetch 50 companies at a time, search by name on the server,
 * and the leaderboard shows your place whatever page is open. The world of the journeys holds
 * however many companies the earlier journeys made, so the steps read the server's own figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { COMPANY_LIST_PAGE_SIZE } from '@marketcraft/shared';
import { PHONE, apiGet, defaultCompanyName, launchBrowser, newPage, signUpViaApi, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Ranked = { id: number; name: string; rank: number; is_you: boolean };

describe('lists of companies', () => {
  it('the leaderboard: a page of the ranking, a search by name with the true rank, your place from any page, on a phone too', async () => {
    const { context, page } = await newPage(browser);
    const email = uniqueEmail('ranks');
    await signUpViaApi(context, email);
    const name = defaultCompanyName(email);
    const board = await apiGet<{ companies: Ranked[]; total: number; you: Ranked }>(context, `/leaderboard?limit=${COMPANY_LIST_PAGE_SIZE}`);

    await page.goto('/leaderboard');
    await page.getByRole('heading', { level: 1, name: 'Leaderboard' }).waitFor();
    await page.getByRole('img', { name: 'Gold medal, rank 1' }).waitFor();
    const range = page.getByTestId('list-range');
    // Other journeys run beside this one and sign up players of their own: the page's count lies
    // between the API's count read before the page loaded and the API's count read after.
    const shownRange = async () => {
      const match = /^(?:1-(\d+) of )?([\d,]+) companies$/.exec(((await range.textContent()) ?? '').trim());
      return match ? { last: match[1] === undefined ? null : Number(match[1]), total: Number(match[2]!.replace(/,/g, '')) } : { last: null, total: 0 };
    };
    await expect.poll(async () => (await shownRange()).total).toBeGreaterThanOrEqual(board.total);
    const shown = await shownRange();
    const totalAfter = (await apiGet<{ total: number }>(context, `/leaderboard?limit=1`)).total;
    expect(shown.total).toBeLessThanOrEqual(totalAfter);
    expect(shown.last).toBe(shown.total > COMPANY_LIST_PAGE_SIZE ? COMPANY_LIST_PAGE_SIZE : null);
    // The page's rows (your own row pinned on top when you rank on another page is not one of them).
    const rows = page.locator('tbody tr:not([data-pinned])');
    expect(await rows.count()).toBe(Math.min(shown.total, COMPANY_LIST_PAGE_SIZE));

    // Your company: its row on this page, or pinned at the top of the table with its rank when it ranks lower.
    // Other journeys' players sign up and trade meanwhile, and move past yours or fall behind it: the
    // rank a row shows lies between your rank read before the page asked and your rank read after.
    const yourRank = async () => (await apiGet<{ you: Ranked }>(context, '/leaderboard?limit=1')).you.rank;
    const rankShownBetweenNow = async (row: Locator, before: number) => {
      const cell = row.getByText(/^#[\d,]+$/).first();
      await cell.waitFor();
      const shown = Number(((await cell.textContent()) ?? '').slice(1).replace(/,/g, ''));
      const after = await yourRank();
      expect(shown).toBeGreaterThanOrEqual(Math.min(before, after));
      expect(shown).toBeLessThanOrEqual(Math.max(before, after));
      return shown;
    };
    const you = page.getByTestId('leaderboard-you');
    const rank = await rankShownBetweenNow(you, board.you.rank);
    await you.getByText('You', { exact: true }).waitFor();
    const onFirstPage = rank <= COMPANY_LIST_PAGE_SIZE;
    expect(await you.getAttribute('data-pinned')).toBe(onFirstPage ? null : 'true');
    if (!onFirstPage) {
      // 'Show my place' opens the page your company ranks on, with its row among the others.
      await page.getByRole('button', { name: 'Show my place' }).click();
      await page.waitForURL(new RegExp(`[?&]page=${Math.ceil(rank / COMPANY_LIST_PAGE_SIZE)}`));
      await expect.poll(() => you.getAttribute('data-pinned')).toBeNull();
      await page.goto('/leaderboard');
      await rows.first().waitFor();
    }

    if (shown.total > COMPANY_LIST_PAGE_SIZE) {
      // The second page starts at rank 51, and the address keeps it.
      await page.getByRole('button', { name: 'Page 2' }).click();
      await page.waitForURL(/[?&]page=2/);
      await rows
        .first()
        .getByText(`#${COMPANY_LIST_PAGE_SIZE + 1}`)
        .waitFor();
      await page.getByRole('img', { name: 'Gold medal, rank 1' }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Page 1' }).click();
    }

    // A search on the server, any letter case: the company keeps its place on the whole leaderboard.
    const search = page.getByRole('textbox', { name: 'Search companies' });
    const rankBeforeSearch = await yourRank();
    await search.fill(name.toLowerCase());
    await page.waitForURL(/[?&]q=/);
    await expect.poll(() => rows.count()).toBe(1);
    await rankShownBetweenNow(rows.first(), rankBeforeSearch);
    expect(await rows.first().getAttribute('data-testid')).toBe('leaderboard-you');
    await range.getByText('1 company').waitFor();

    await search.fill('no company is called this');
    await page.getByTestId('leaderboard-empty').getByText(`No company's name contains "no company is called this".`).waitFor();

    // On a phone: nothing wider than the screen but the table's own scroller.
    await page.setViewportSize(PHONE);
    await search.fill('');
    await rows.first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await context.close();
  });

  it('the stock exchange: a page of the listed companies, searched on the server, and a selected company of any page', async () => {
    const { context, page } = await newPage(browser);
    const email = uniqueEmail('exchange');
    await signUpViaApi(context, email);
    const name = defaultCompanyName(email);
    const overview = await apiGet<{ total: number; companies: Array<{ company_id: number; company_name: string }> }>(context, '/stocks/overview?limit=1');
    const last = await apiGet<{ companies: Array<{ company_id: number; company_name: string }> }>(
      context,
      `/stocks/overview?limit=1&offset=${overview.total - 1}`,
    );

    await page.goto('/stocks');
    await page.getByRole('heading', { level: 1, name: 'Stock Exchange' }).waitFor();
    const rows = page.getByTestId('stock-row');
    await rows.first().waitFor();
    // Other journeys run beside this one and list companies of their own: the page's count lies
    // between the API's count read before the page loaded and the API's count read after.
    const shownTotal = async () => {
      const match = /([\d,]+) listed compan/.exec((await page.getByTestId('list-range').textContent()) ?? '');
      return match ? Number(match[1]!.replace(/,/g, '')) : 0;
    };
    await expect.poll(shownTotal).toBeGreaterThanOrEqual(overview.total);
    const totalAfter = (await apiGet<{ total: number }>(context, '/stocks/overview?limit=1')).total;
    const total = await shownTotal();
    expect(total).toBeLessThanOrEqual(totalAfter);
    // A page of them (the count the page shows, not the one read before it loaded).
    expect(await rows.count()).toBe(Math.min(total, COMPANY_LIST_PAGE_SIZE));

    // The address may name a company on another page: its detail opens all the same.
    const far = last.companies[0]!;
    await page.goto(`/stocks?company=${far.company_id}`);
    await page.getByRole('heading', { level: 2, name: far.company_name }).waitFor();

    await page.getByRole('textbox', { name: 'Search companies' }).fill(name.toUpperCase());
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByText(name).waitFor();
    await page.getByRole('textbox', { name: 'Search companies' }).fill('no company is called this');
    await page.getByTestId('stocks-empty').waitFor();
    await context.close();
  });
});
