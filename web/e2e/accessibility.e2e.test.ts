/**
 * Accessibility and theming: axe finds no serious or critical violation on any route at 1366 and
 * 375 px, in light and dark; the side menu's groups open from the keyboard; the building-type picker
 * is one radio group (one tab stop, arrow keys); dialogs have a named close button and give focus
 * back to the button that opened them; the colour scheme (light, dark, system) is remembered; toasts
 * stay clear of the header; the header shows a skeleton, never $0, while the company loads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_HELPER_ADMIN_EMAIL } from './globalSetup';
import {
  DESKTOP,
  PHONE,
  apiGet,
  apiPost,
  launchBrowser,
  newPage,
  seriousAxeViolations,
  signInOrUp,
  signUpViaApi,
  uniqueEmail,
  useColorScheme,
} from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Waits until the page's heading shows and nothing says 'Loading...' any more. */
async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForFunction(() => !Array.from(document.querySelectorAll('[role="status"]')).some((element) => element.textContent?.includes('Loading')));
}

/** A player with a farm, a store with stock on its shelf, goods in the warehouse: every route has something to show. */
async function playerWithAWorld(context: BrowserContext): Promise<{ farm: number; store: number; product: number; company: number }> {
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

describe('accessibility', () => {
  // One player's world per scheme and width, then one test per screen: each screen's axe scan has
  // its own time budget (twenty scans in one test ran past any budget on a loaded machine).
  for (const scheme of ['light', 'dark'] as const) {
    for (const viewport of [
      { name: '1366', size: { width: 1366, height: 900 } },
      { name: '375', size: PHONE },
    ]) {
      describe(`axe finds nothing serious, ${scheme}, ${viewport.name} px`, () => {
        let context: BrowserContext;
        let page: Page;
        let world: Awaited<ReturnType<typeof playerWithAWorld>>;
        beforeAll(async () => {
          ({ context, page } = await newPage(browser, viewport.size));
          await useColorScheme(context, scheme);
          // No transitions (the theme respects reduced motion): axe reads colours at rest, not mid-fade.
          await page.emulateMedia({ reducedMotion: 'reduce' });
          world = await playerWithAWorld(context);
        });
        afterAll(async () => {
          await context?.close();
        });

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
  }

  it('axe finds nothing serious on the admin panel, light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await newPage(browser, DESKTOP);
      await useColorScheme(context, scheme);
      await signInOrUp(context, E2E_HELPER_ADMIN_EMAIL);
      await page.goto('/admin');
      await page.getByRole('heading', { name: 'World State' }).waitFor();
      await settled(page);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it('opens the side menu groups from the keyboard; the building-type picker is one tab stop with arrow keys', async () => {
    const { context, page } = await newPage(browser);
    await playerWithAWorld(context);
    await page.goto('/');
    await settled(page);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    const group = menu.getByRole('button', { name: /Extraction/ });
    await group.focus();
    expect(await menu.getByRole('link', { name: /Farm/ }).count()).toBe(0);
    await page.keyboard.press('Enter');
    await menu.getByRole('link', { name: /Farm/ }).waitFor();
    await page.keyboard.press('Space');
    await menu.getByRole('link', { name: /Farm/ }).waitFor({ state: 'detached' });
    await page.keyboard.press('Space');
    await menu.getByRole('link', { name: /Farm/ }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('Farm');

    await page.goto('/build');
    await settled(page);
    const farm = page.getByRole('radio', { name: 'Farm' });
    await farm.focus();
    await page.keyboard.press('Space');
    expect(await farm.isChecked()).toBe(true);
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: 'Mine' }).isChecked()).toBe(true);
    await page.getByTestId('build-cost').getByText('$30,000').waitFor();
    // One tab stop: Tab leaves the group for the city field.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.placeholder)).toBe('Choose a city');
    await context.close();
  });

  it('names dialog close buttons, returns focus to the opener after Esc or Close', async () => {
    const { context, page } = await newPage(browser);
    const { farm } = await playerWithAWorld(context);
    await page.goto(`/buildings/${farm}`);
    await settled(page);
    await page.getByRole('tab', { name: 'Operations' }).click();
    const opener = page.getByRole('button', { name: 'Hire Employees' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Hire Employees' });
    await dialog.waitFor();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent)).toContain('Employees to hire');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Hire Employees');

    await opener.click();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Hire Employees');
    await context.close();
  });

  it('remembers the colour scheme: light, dark or the system', async () => {
    const { context, page } = await newPage(browser);
    await signUpViaApi(context, uniqueEmail('scheme'));
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await settled(page);
    const scheme = () => page.evaluate(() => document.documentElement.dataset.mantineColorScheme);
    // Nothing chosen yet: the system's (dark here).
    expect(await scheme()).toBe('dark');
    const toggle = page.getByRole('radiogroup', { name: 'Colour scheme' });
    await toggle.getByText('Light', { exact: true }).click();
    expect(await scheme()).toBe('light');
    await page.reload();
    await settled(page);
    expect(await scheme()).toBe('light');
    expect(await toggle.getByRole('radio', { name: 'Light' }).isChecked()).toBe(true);
    await toggle.getByText('Dark', { exact: true }).click();
    await page.goto('/market');
    await settled(page);
    expect(await scheme()).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(255, 255, 255)');
    await toggle.getByText('System', { exact: true }).click();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.mantineColorScheme === 'light');
    await context.close();
  });

  it('shows toasts below the header, and a skeleton (never $0) while the company loads', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await newPage(browser, viewport);
      await signUpViaApi(context, uniqueEmail('toast'));
      // Hold the company's answer back for a moment: the header must not claim $0 meanwhile.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/api\/trpc\/.*company\.get/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/profile');
      const cash = page.getByTestId('header-cash');
      await cash.getByLabel('Loading cash').waitFor();
      expect(await cash.textContent()).not.toContain('$0');
      release();
      await cash.getByText('$500,000').waitFor();
      await page.unroute(/\/api\/trpc\/.*company\.get/);

      await page.getByRole('button', { name: 'Save Changes' }).click();
      const toast = page.getByRole('alert').or(page.locator('.mantine-Notification-root')).filter({ hasText: 'Profile updated!' }).first();
      await toast.waitFor();
      const header = await page.locator('header').boundingBox();
      const box = await toast.boundingBox();
      expect(box!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
      await context.close();
    }
  });
});
