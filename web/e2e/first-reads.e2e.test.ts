/**
 * A page opened by its address asks for its own reads in the first round trip, with the layout's
 * (web/src/pageReads.ts), not after its chunk has loaded and rendered: on a slow phone each round
 * trip in series delayed the largest paint (docs/benchmarks.md). The tRPC link sends the calls
 * made together as one request (ten at most), so the page's reads are in the first request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiGet, apiPost, launchBrowser, newPage, signUpViaApi, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The procedures of each tRPC request the page sends, in the order they are sent. */
function recordTrpcCalls(page: Page): string[][] {
  const calls: string[][] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/trpc/')) calls.push(decodeURIComponent(url.pathname.slice('/api/trpc/'.length)).split(','));
  });
  return calls;
}

describe('first reads', () => {
  it("asks for the dashboard's and a building's reads in the first request, with the layout's", async () => {
    const { context, page } = await newPage(browser);
    await signUpViaApi(context, uniqueEmail('first-reads'));
    const cities: Array<{ id: number }> = await apiGet(context, '/cities');
    const farm: { id: number; name: string } = await apiPost(context, '/buildings', { type: 'farm', city_id: cities[0]!.id });

    const dashboardCalls = recordTrpcCalls(page);
    await page.goto('/');
    await page.getByTestId('welcome').waitFor();
    expect(dashboardCalls[0]).toEqual(expect.arrayContaining(['world.state', 'company.get', 'buildings.list', 'warehouse.holdings']));

    const buildingPage = await context.newPage();
    const buildingCalls = recordTrpcCalls(buildingPage);
    await buildingPage.goto(`/buildings/${farm.id}`);
    await buildingPage.getByRole('heading', { level: 1, name: farm.name }).waitFor();
    expect(buildingCalls[0]).toEqual(expect.arrayContaining(['world.state', 'buildings.get', 'research.upgrades']));
    await context.close();
  });
});
