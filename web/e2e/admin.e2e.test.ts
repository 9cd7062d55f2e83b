/** The admin panel for the admin (admin@e2e.test, granted with `npm run admin -- grant`), and a redirect for everyone else. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { E2E_ADMIN_EMAIL } from './globalSetup';
import { PASSWORD, STORY_TIMEOUT_MS, baseURL, grantAdmin, launchBrowser, newPage, signUpInBrowser, signUpViaApi, uniqueEmail } from './browser';
import { PROCESSING_WINDOW_MS } from '../src/lib/countdown';

/**
 * Builds a refinery and buys the cheapest good with what is left, until less than one unit's price
 * remains. Orders walk the market's price curve, so an order that would cost more than the cash is
 * refused (409) and a smaller one is tried.
 */
async function spendNearlyAllCash(context: BrowserContext): Promise<void> {
  const headers = { origin: baseURL() };
  const cities: Array<{ id: number }> = await (await context.request.get('/api/cities')).json();
  const built = await context.request.post('/api/buildings', { data: { type: 'refinery', city_id: cities[0]?.id }, headers });
  expect(built.ok()).toBe(true);
  const goods: Array<{ id: number; current_price: number }> = await (await context.request.get('/api/goods')).json();
  const cheapest = goods.reduce((best, good) => (good.current_price < best.current_price ? good : best));
  const priceCents = Math.round(cheapest.current_price * 100);
  let quantity = Number.POSITIVE_INFINITY;
  for (;;) {
    const company: { cash: number } = await (await context.request.get('/api/company')).json();
    quantity = Math.min(quantity, 1_000_000, Math.floor(Math.round(company.cash * 100) / priceCents));
    if (quantity < 1) break;
    const bought = await context.request.post('/api/market/trade', { data: { product_id: cheapest.id, quantity, action: 'buy' }, headers });
    if (!bought.ok()) {
      expect([409, 422]).toContain(bought.status());
      quantity = Math.floor(quantity / 2);
    }
  }
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('admin journey', () => {
  // A story's time (browser.ts): the operator's CLI grant, the clock paused and resumed, a player's
  // purchases, then a turn of the public world over every journey's companies and its bots, while
  // vitest still runs beside the journeys in `npm test` (50 s at load 28 here, when the limit was 90 s).
  it('shows the world state and the schedule to the admin, and advances a turn', { timeout: STORY_TIMEOUT_MS }, async () => {
    const { context, page } = await newPage(browser);
    // The operator's first run: sign up in the form, then `npm run admin -- grant` and reload.
    // When this journey runs again (a retry), the account exists and the admin signs in instead.
    const signedIn = await context.request.post('/api/auth/signin', { data: { email: E2E_ADMIN_EMAIL, password: PASSWORD } });
    if (signedIn.ok()) await page.goto('/');
    else {
      await signUpInBrowser(page, E2E_ADMIN_EMAIL);
      await page.getByRole('heading', { name: /^Welcome, / }).waitFor();
      await grantAdmin(E2E_ADMIN_EMAIL);
      await page.reload();
    }
    await page.getByRole('heading', { name: /^Welcome( back)?, / }).waitFor();

    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Admin Panel' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByRole('heading', { level: 1, name: 'Admin Panel' }).waitFor();
    expect(await page.title()).toBe('Admin Panel | Marketcraft');

    // Other journeys may have advanced the world already: this one starts from the week it finds.
    const { current_week: week } = (await (await context.request.get('/api/world')).json()) as { current_week: number };
    const world = page.getByTestId('world-state-card');
    await world.getByRole('heading', { name: 'World State' }).waitFor();
    // The public world's, whichever world the admin plays in (docs/worlds.md).
    await world
      .getByTestId('admin-world-name')
      .getByText(/^Public world, whichever world you play in\./)
      .waitFor();
    await world.getByTestId('admin-current-week').getByText(String(week), { exact: true }).waitFor();
    expect(await world.getByText('Time Until Next Turn').isVisible()).toBe(true);

    const schedule = page.getByTestId('schedule-card');
    await schedule.getByRole('heading', { name: 'Automated Turn Schedule' }).waitFor();
    await schedule.getByText('advance-game-turn').waitFor();
    await schedule.getByText('30 */12 * * *').waitFor();
    expect(await schedule.getByText('Automatic turns run at 00:30 and 12:30 UTC daily.').isVisible()).toBe(true);
    await page.screenshot({ path: '/tmp/marketcraft-desktop-admin.png', fullPage: true });

    // The public world's clock: paused, then running again (other journeys share this world; the
    // finally puts it back should a step fail).
    const clock = page.getByTestId('public-clock-card');
    try {
      await clock.getByRole('heading', { name: 'Public World Clock' }).waitFor();
      await clock.getByTestId('public-clock-status').getByText('Running', { exact: true }).waitFor();
      await clock.getByRole('button', { name: 'Pause the clock' }).click();
      const pauseDialog = page.getByRole('dialog', { name: "Pause the public world's clock?" });
      await pauseDialog.getByRole('button', { name: 'Pause clock' }).click();
      await page.getByText('Clock paused', { exact: true }).waitFor();
      await pauseDialog.waitFor({ state: 'hidden' });
      await clock.getByTestId('public-clock-status').getByText('Paused', { exact: true }).waitFor();
      // The header says 'Paused', unless a turn ran less than 30 minutes ago (other journeys advance
      // the week): the spec's processing window comes first.
      const { last_turn_at: lastTurnAt } = (await (await context.request.get('/api/world')).json()) as { last_turn_at: string | null };
      const processing = lastTurnAt !== null && Date.now() - Date.parse(lastTurnAt) < PROCESSING_WINDOW_MS;
      await page
        .getByTestId('header-next-turn')
        .getByText(processing ? /^Processing \(\d+m \d+s\)$/ : /^Paused$/)
        .waitFor();
      expect(((await (await context.request.get(`/api/worlds/1`)).json()) as { status: string }).status).toBe('paused');
      await clock.getByRole('button', { name: 'Resume the clock' }).click();
      await page.getByRole('dialog', { name: "Resume the public world's clock?" }).getByRole('button', { name: 'Resume clock' }).click();
      await page.getByText('Clock running', { exact: true }).waitFor();
      await clock.getByTestId('public-clock-status').getByText('Running', { exact: true }).waitFor();
    } finally {
      await context.request.patch('/api/worlds/1', { data: { status: 'active' }, headers: { origin: baseURL() } });
    }

    // A player elsewhere, listening on the realtime stream. It spends nearly all its cash before
    // the turn (a refinery, then the cheapest good), so the turn's wages and operating costs
    // ($50 + $1,200, more than any subsidy) leave it in debt.
    const player = await newPage(browser);
    await signUpViaApi(player.context, uniqueEmail('listener'));
    await spendNearlyAllCash(player.context);
    const streamOpened = player.page.waitForResponse((response) => response.url().endsWith('/api/realtime') && response.status() === 200);
    await player.page.goto('/');
    await player.page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    await streamOpened;

    const playerToast = player.page.getByText('Turn processed!').waitFor({ timeout: 80_000 });
    const playerToastText = player.page.getByText('The game week has advanced. Check your earnings!').waitFor({ timeout: 80_000 });

    await page.getByRole('button', { name: 'Advance Turn Manually' }).click();
    const outcome = await Promise.race([
      page
        .getByText('Turn Advanced Successfully')
        .waitFor({ timeout: 80_000 })
        .then(() => 'advanced' as const),
      page
        .getByText('Error Advancing Turn')
        .waitFor({ timeout: 80_000 })
        .then(() => 'failed' as const),
    ]);
    expect(outcome, 'advancing the turn failed (is the worker running?)').toBe('advanced');
    await page
      .getByTestId('header-week')
      .getByText(String(week + 1), { exact: true })
      .waitFor();
    await world
      .getByTestId('admin-current-week')
      .getByText(String(week + 1), { exact: true })
      .waitFor();

    // The player hears about it without reloading.
    await playerToast;
    await playerToastText;
    await player.page
      .getByTestId('header-week')
      .getByText(String(week + 1), { exact: true })
      .waitFor();
    // The turn just ran: the header counts down its 30-minute processing window.
    await player.page
      .getByTestId('header-next-turn')
      .getByText(/^Processing \(\d+m \d+s\)$/)
      .waitFor();
    // The dashboard now has a turn of history to chart.
    await player.page.getByRole('heading', { name: 'Cash Flow History' }).waitFor();
    await player.page.getByText('Your cash after each of the last 1 turn').waitFor();
    await player.page.locator('.recharts-wrapper').first().waitFor();
    // The turn ended with negative cash: the dashboard counts it against the bankruptcy limit.
    const debt = player.page.getByTestId('debt-warning');
    await debt.getByText('Your cash is negative').waitFor();
    expect(await debt.getByTestId('debt-turns').textContent()).toBe('1 of 4 turns in debt');
    await debt.getByText(/3 more turns ending with negative cash and your company goes bankrupt/).waitFor();
    await player.context.close();
    await context.close();
  });

  it('redirects a non-admin from /admin to the dashboard and hides the admin links', async () => {
    const { context, page } = await newPage(browser);
    await signUpViaApi(context, uniqueEmail('notadmin'));
    await page.goto('/admin');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    expect(await page.getByRole('link', { name: 'Admin Panel' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    await context.close();
  });
});
