/**
 * "Week N results" (issue 10, point 3), the first-week checklist (point 5) and "why this number"
 * (point 6): a player with a farm and bread on a store's shelf hears about the turn, follows the
 * toast's link to the week's results, reads its sale, production, cash and rank there (the API's
 * figures), finds the results again from the dashboard, sees the checklist tick itself and the net
 * worth explained. axe finds nothing serious on the report, light and dark, desktop and phone.
 * Each test's player plays in a class world of the test's own, whose instructor runs its turn (the
 * chain journey says why): this file runs beside the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  apiGet,
  apiPost,
  apiPut,
  classWorldOfItsOwn,
  launchBrowser,
  newPage,
  seriousAxeViolations,
  signUpViaApi,
  uniqueEmail,
  useColorScheme,
  STORY_TIMEOUT_MS,
} from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A player of a new class world of their own (its starting cash the public world's early-bird $500,000, no bots). */
async function playerOfAClassWorld(context: BrowserContext, area: string) {
  const world = await classWorldOfItsOwn(browser, { name: `Reports e2e ${area}`, starting_cash: 500_000, bots: 0 });
  await signUpViaApi(context, uniqueEmail(area));
  await world.join(context);
  return world;
}

/** As the web formats money: "$1,234.50". */
const money = (dollars: number) =>
  `${dollars < 0 ? '-' : ''}$${Math.abs(dollars).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

type Good = { id: number; name: string; buy_price: number; sell_price: number };

/** A farm growing wheat with staff, and a store with bread on its shelf at a price shoppers pay (its forecast sells some). */
async function farmAndStore(context: BrowserContext): Promise<{ farm: number; store: number; bread: Good; wheat: Good }> {
  const cities: Array<{ id: number; bonus_type: string }> = await apiGet(context, '/cities');
  const goods: Good[] = await apiGet(context, '/goods');
  const wheat = goods.find((good) => good.name === 'Wheat')!;
  const bread = goods.find((good) => good.name === 'White Bread')!;
  const farm = await apiPost(context, '/buildings', { type: 'farm', city_id: (cities.find((city) => city.bonus_type === 'agricultural') ?? cities[0]!).id });
  const recipes: Array<{ id: number; output_product_id: number }> = await apiGet(context, '/recipes?building_type=farm');
  await apiPut(context, `/buildings/${farm.id}/select-recipe`, { recipe_id: recipes.find((recipe) => recipe.output_product_id === wheat.id)!.id });
  await apiPost(context, `/buildings/${farm.id}/hire-employees`, { count: 3 });
  const store = await apiPost(context, '/buildings', { type: 'store', city_id: (cities.find((city) => city.bonus_type === 'retail') ?? cities[1]!).id });
  await apiPost(context, `/buildings/${store.id}/inventory/purchase`, { product_id: bread.id, quantity: 50 });
  await apiPost(context, `/buildings/${store.id}/inventory/transfer-to-store`, { product_id: bread.id, quantity: 50, retail_price: bread.buy_price });
  const forecast = (await apiGet(context, `/buildings/${store.id}`)).forecast as { sales: Array<{ units: number }> };
  expect(forecast.sales[0]?.units ?? 0, 'the store forecast sells some bread').toBeGreaterThan(0);
  return { farm: farm.id, store: store.id, bread, wheat };
}

// The two tests share nothing (a class world each): they run at the same time, each with its own `expect` (expect.poll must know its test).
describe.concurrent('week results', { timeout: STORY_TIMEOUT_MS }, () => {
  it("tells the turn's story: from the toast to the week's results, the dashboard's card, the checklist, the net worth's why", async ({ expect }) => {
    const { context, page } = await newPage(browser);
    const world = await playerOfAClassWorld(context, 'report');
    const { farm, store, bread, wheat } = await farmAndStore(context);

    // Before any turn: the checklist shows where the player is, and /reports says there is nothing yet.
    await page.goto('/reports');
    await page.getByText("No week results yet. Your first week's results appear here after the next turn.").waitFor();
    const streamOpened = page.waitForResponse((response) => response.url().endsWith('/api/realtime') && response.status() === 200);
    await page.goto('/');
    const checklist = page.getByTestId('first-week-checklist');
    await checklist.getByRole('heading', { name: 'Your first week' }).waitFor();
    for (const step of ['farm', 'hire', 'recipe', 'store', 'shelf'])
      expect(await checklist.getByTestId(`checklist-${step}`).getAttribute('data-done'), step).toBe('true');
    for (const step of ['mill', 'bakery', 'sale']) expect(await checklist.getByTestId(`checklist-${step}`).getAttribute('data-done'), step).toBe('false');
    await streamOpened;

    // The net worth, explained: the API's terms in a popover.
    const company = await apiGet(context, '/company');
    await page.getByRole('button', { name: 'Why this number: Net worth' }).click();
    const why = page.getByRole('group', { name: 'Why this number: Net worth' });
    await why.waitFor();
    await why.getByText(`Net worth: ${money(company.net_worth)}`).waitFor();
    for (const term of company.net_worth_why.terms as Array<{ label: string; value: number }>) {
      expect(await why.locator('tr', { hasText: term.label }).textContent()).toContain(money(term.value));
    }
    await page.keyboard.press('Escape');
    await why.waitFor({ state: 'hidden' });

    // A store's forecast sales, explained: units x shelf price (+ price bonus), the API's terms.
    const { forecast: storeForecast } = await apiGet(context, `/buildings/${store}`);
    await page.goto(`/buildings/${store}`);
    await page.getByRole('tab', { name: 'Efficiency' }).click();
    const revenueLabel = `Revenue from ${bread.name}`;
    await page.getByRole('button', { name: `Why this number: ${revenueLabel}` }).click();
    const revenueWhy = page.getByRole('group', { name: `Why this number: ${revenueLabel}` });
    await revenueWhy.getByText(`${revenueLabel}: ${money(storeForecast.sales[0].revenue)}`).waitFor();
    await revenueWhy.getByText(`${revenueLabel} = ${storeForecast.sales[0].revenue_why.formula}`).waitFor();
    await page.keyboard.press('Escape');
    // ...and its units: the share of the city's demand, the price against the other stores', the capacity.
    const unitsLabel = `Units of ${bread.name} sold`;
    await page.getByRole('button', { name: `Why this number: ${unitsLabel}` }).click();
    const unitsWhy = page.getByRole('group', { name: `Why this number: ${unitsLabel}` });
    await unitsWhy.getByText(`${unitsLabel} = ${storeForecast.sales[0].units_why.formula}`).waitFor();
    const unitTerms = storeForecast.sales[0].units_why.terms as Array<{ name: string; label: string }>;
    expect(unitTerms.map((term) => term.name)).toEqual(
      expect.arrayContaining(['city_demand', 'share', 'price', 'other_stores', 'capacity', 'from_other_stores']),
    );
    for (const term of unitTerms) await unitsWhy.locator('tr', { hasText: term.label }).waitFor();
    await page.keyboard.press('Escape');
    const streamReopened = page.waitForResponse((response) => response.url().endsWith('/api/realtime') && response.status() === 200);
    await page.goto('/');
    await page.getByRole('heading', { name: /^Welcome back, / }).waitFor();
    await streamReopened;

    // A turn runs (an admin elsewhere); the toast links to the week it processed.
    const { current_week: week } = await apiGet<{ current_week: number }>(context, '/world');
    // The toast shows for 5 s: the click waits for it from before the turn starts.
    const toastLink = page.getByTestId('toast-week-results');
    const followed = toastLink.click({ timeout: 80_000 });
    await world.advance();
    await followed;
    await page.waitForURL((url) => url.pathname === `/reports/${week}`);
    await page.getByRole('heading', { level: 1, name: `Week ${week} results` }).waitFor();
    // Followed, the toast closes: it would cover the top of the results page.
    await page
      .getByTestId('toast-week-results')
      .filter({ hasText: `See week ${week} results` })
      .first()
      .waitFor({ state: 'hidden' });

    // The page shows the API's report: cash, net worth, rank, the bread sold, the wheat grown.
    const report = await apiGet(context, `/reports/${week}`);
    expect(await page.getByTestId('report-cash-start').textContent()).toBe(money(report.cash_start));
    expect(await page.getByTestId('report-cash-end').textContent()).toBe(money(report.cash_end));
    expect(await page.getByTestId('report-net-worth').textContent()).toBe(money(report.net_worth));
    expect(await page.getByTestId('report-rank').textContent()).toBe(`#${report.rank}`);
    const sale = page.getByTestId('report-sale');
    expect(await sale.count()).toBe(1);
    await sale.getByRole('link', { name: bread.name }).waitFor();
    await sale.getByText(money(report.sales[0].revenue)).waitFor();
    expect(report.sales[0]).toMatchObject({ building_id: store, product_id: bread.id });
    expect(report.sales[0].units).toBeGreaterThan(0);
    const grown = page.getByTestId('report-production');
    await grown.getByText(wheat.name).waitFor();
    // Units and revenue in view in their half-width cards, on a phone too: no table scrolls sideways.
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      for (const label of ['Revenue by store and product', 'Production by building']) {
        const region = page.getByRole('region', { name: label });
        // Polled (the config's 20 s, as a locator waits): the layout settles a moment after the resize.
        await expect
          .poll(() => region.evaluate((box) => box.scrollWidth - box.clientWidth), { message: `${label} at ${viewport.width} px` })
          .toBeLessThanOrEqual(0);
      }
    }
    await page.setViewportSize(DESKTOP);
    expect(report.production).toEqual([expect.objectContaining({ building_id: farm, product_id: wheat.id, role: 'output' })]);
    // Only the farm made something: the note says where to look for the others.
    await page
      .getByTestId('report-production-note')
      .getByText('A building not listed made nothing this week: its page says what it lacks (a recipe, staff or inputs).')
      .waitFor();
    await page.getByRole('link', { name: `Every transaction of week ${week}` }).waitFor();
    expect(await page.getByTestId('report-cash-flow').count()).toBe(report.cash_flows.length);

    // The week's ledger on a phone: every line's amount in view, no sideways scroll to find it.
    await page.setViewportSize(PHONE);
    await page.getByRole('link', { name: `Every transaction of week ${week}` }).click();
    await page.waitForURL((url) => url.pathname === '/transactions');
    const amounts = page.getByTestId('ledger-amount');
    await amounts.first().waitFor();
    for (const amount of await amounts.all()) {
      const box = (await amount.boundingBox())!;
      expect(box.x + box.width, (await amount.textContent()) ?? undefined).toBeLessThanOrEqual(PHONE.width);
    }
    await page.getByTestId('ledger-line').first().getByTestId('ledger-type').waitFor();
    await page.setViewportSize(DESKTOP);
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: `Week ${week} results` }).waitFor();

    // The dashboard keeps the latest results one click away; the checklist's last step ticked.
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    const latest = page.getByTestId('latest-results');
    await latest.getByText(`Week ${week} results`, { exact: true }).waitFor();
    expect(await checklist.getByTestId('checklist-sale').getAttribute('data-done')).toBe('true');
    // Dismissed, it stays away; the Learning Base's Basics brings it back.
    await checklist.getByRole('button', { name: 'Dismiss' }).click();
    await checklist.waitFor({ state: 'detached' });
    await page.reload();
    await latest.waitFor();
    expect(await checklist.count()).toBe(0);
    await page.goto('/learning');
    await page.getByTestId('learning-checklist-link').click();
    await checklist.waitFor();
    await latest.getByRole('link', { name: `See week ${week} results` }).click();
    await page.waitForURL((url) => url.pathname === `/reports/${week}`);

    // Past weeks stay readable; /reports opens the latest.
    await page.goto('/reports');
    await page.waitForURL((url) => url.pathname === `/reports/${week}`);

    // For 30 minutes after the turn the header reads 'Processing': nothing waits on it, and it
    // opens the turn's results.
    await page.goto('/');
    const processing = page.getByTestId('header-next-turn').getByRole('link', { name: /^Processing \(\d+m \d+s\)$/ });
    await processing.hover();
    await page.getByRole('tooltip').getByText('The last turn is done: its results are in. Nothing waits on this window: keep playing.').waitFor();
    await processing.click();
    await page.waitForURL((url) => url.pathname === `/reports/${week}`);

    // A building's figures, explained: the efficiency and output popovers show the API's formula and terms.
    const { forecast } = await apiGet(context, `/buildings/${farm}`);
    await page.goto(`/buildings/${farm}`);
    await page.getByRole('tab', { name: 'Efficiency' }).click();
    for (const [label, figure] of [
      ['Efficiency', forecast.efficiency],
      ['Planned output', forecast.planned_output],
    ] as const) {
      await page.getByRole('button', { name: `Why this number: ${label}` }).click();
      const explained = page.getByRole('group', { name: `Why this number: ${label}` });
      await explained.getByText(`${label} = ${figure.formula}`).waitFor();
      expect(await explained.locator('tr').count()).toBe(figure.terms.length);
      await page.keyboard.press('Escape');
      await explained.waitFor({ state: 'hidden' });
    }
    await context.close();
    await world.close();
  });

  it('axe finds nothing serious on a week report and on explained figures, light and dark, 1366 and 375 px', async ({ expect }) => {
    const found: string[] = [];
    const owner = await newPage(browser, DESKTOP);
    const world = await playerOfAClassWorld(owner.context, 'report-a11y');
    const { store } = await farmAndStore(owner.context);
    const { current_week: week } = await apiGet<{ current_week: number }>(owner.context, '/world');
    await world.advance();
    await world.close();
    const cookies = await owner.context.cookies();
    await owner.context.close();
    for (const scheme of ['light', 'dark'] as const) {
      for (const viewport of [{ width: 1366, height: 900 }, PHONE]) {
        const { context, page } = await newPage(browser, viewport);
        await context.addCookies(cookies);
        await useColorScheme(context, scheme);
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.goto(`/reports/${week}`);
        await page.getByRole('heading', { level: 1, name: `Week ${week} results` }).waitFor();
        await page.getByTestId('report-sale').first().waitFor();
        for (const violation of await seriousAxeViolations(page)) found.push(`${scheme} ${viewport.width}px ${violation}`);
        // A store's Efficiency tab: its figures with their 'why this number' buttons, and one open.
        await page.goto(`/buildings/${store}`);
        await page.getByRole('tab', { name: 'Efficiency' }).click();
        await page.getByTestId('explained-figures').waitFor();
        for (const violation of await seriousAxeViolations(page)) found.push(`${scheme} ${viewport.width}px efficiency ${violation}`);
        await page.getByRole('button', { name: 'Why this number: Wages' }).click();
        await page.getByRole('group', { name: 'Why this number: Wages' }).waitFor();
        for (const violation of await seriousAxeViolations(page)) found.push(`${scheme} ${viewport.width}px why popover ${violation}`);
        await context.close();
      }
    }
    expect(found).toEqual([]);
  });
});
