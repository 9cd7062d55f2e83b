/**
 * axe on every screen in one colour scheme at one width: a player's world (a farm, a store with bread
 * on its shelf), then one test per screen, each with its own time budget. The four schemes and widths
 * are four files (accessibility-<scheme>-<width>.e2e.test.ts) so that they run side by side: one file
 * held the 88 scans and was the longest journey by far.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PHONE, apiGet, apiPost, launchBrowser, newPage, seriousAxeViolations, signUpViaApi, uniqueEmail, useColorScheme } from './browser';

/** Waits until the page's heading shows and nothing says 'Loading...' any more. */
export async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForFunction(() => !Array.from(document.querySelectorAll('[role="status"]')).some((element) => element.textContent?.includes('Loading')));
}

/** A player with a farm, a store with stock on its shelf, goods in the warehouse: every route has something to show. */
export async function playerWithAWorld(context: BrowserContext): Promise<{ farm: number; store: number; product: number; company: number }> {
  await signUpViaApi(context, uniqueEmail('a11y'));
  const cities: Array<{ id: number }> = await apiGet(context, '/cities');
  const farm = await apiPost(context, '/buildings', { type: 'farm', city_id: cities[0]!.id });
  const store = await apiPost(context, '/buildings', { type: 'store', city_id: cities[1]!.id });
  const goods: Array<{ id: number; name: string }> = await apiGet(context, '/goods');
  // Stores sell consumer goods only: bread on the shelf.
  const bread = goods.find((good) => good.name === 'White Bread')!;
  await apiPost(context, '/market/trade', { product_id: bread.id, quantity: 40, action: 'buy' });
  await apiPost(context, `/buildings/${store.id}/inventory/transfer-to-store`, { product_id: bread.id, quantity: 10, retail_price: 99.99 });
  const shares: Array<{ company_id: number; is_bot: boolean }> = await apiGet(context, '/shares');
  return { farm: farm.id, store: store.id, product: bread.id, company: shares.find((record) => record.is_bot)!.company_id };
}

const ROUTES = [
  '/',
  '/my-buildings',
  '/build',
  '/research',
  '/market',
  '/warehouse',
  '/transactions',
  '/reports',
  '/stocks',
  '/politics',
  '/leaderboard',
  '/profile',
  '/about',
  '/learning',
  '/community',
  '/no-such-page',
];

const WIDTHS = {
  '1366': { width: 1366, height: 900 },
  '375': PHONE,
} as const;

export function axeOnEveryScreen(scheme: 'light' | 'dark', width: keyof typeof WIDTHS): void {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let world: Awaited<ReturnType<typeof playerWithAWorld>>;
  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, WIDTHS[width]));
    await useColorScheme(context, scheme);
    // No transitions (the theme respects reduced motion): axe reads colours at rest, not mid-fade.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    world = await playerWithAWorld(context);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  describe(`accessibility: axe finds nothing serious, ${scheme}, ${width} px`, () => {
    const screens: Array<[label: string, path: () => string]> = [
      ...ROUTES.map((route): [string, () => string] => [route, () => route]),
      ['/market?product= (bread)', () => `/market?product=${world.product}`],
      ['/stocks?company= (a bot)', () => `/stocks?company=${world.company}`],
      ['/buildings/ (the farm)', () => `/buildings/${world.farm}`],
      ['/buildings/ (the store)', () => `/buildings/${world.store}`],
    ];
    for (const [label, path] of screens) {
      it(`on ${label}`, async () => {
        await page.goto(path());
        await settled(page);
        expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe(scheme);
        expect(await seriousAxeViolations(page)).toEqual([]);
      });
    }

    it("on the store's trade hall and the hire dialog", async () => {
      await page.goto(`/buildings/${world.store}`);
      await settled(page);
      await page.getByRole('tab', { name: 'Trade Hall' }).click();
      await page.getByRole('tab', { name: 'Store' }).click();
      await page.getByText('Active', { exact: true }).first().waitFor();
      expect(await seriousAxeViolations(page), 'trade hall').toEqual([]);
      await page.getByRole('tab', { name: 'Operations' }).click();
      await page.getByRole('button', { name: 'Hire Employees' }).click();
      const dialog = page.getByRole('dialog', { name: 'Hire Employees' });
      await dialog.waitFor();
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll('.mantine-Modal-content')).every((element) => getComputedStyle(element).opacity === '1'),
      );
      expect(await seriousAxeViolations(page), 'hire dialog').toEqual([]);
      await page.keyboard.press('Escape');
    });

    it('on the sign-in screen', async () => {
      await context.clearCookies();
      await page.goto('/');
      await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
    });
  });
}
