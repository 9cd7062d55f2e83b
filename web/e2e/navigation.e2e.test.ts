/** Every menu link renders its page, unknown paths show the 404 page, and the phone layout works. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PHONE, launchBrowser, newPage, signUpViaApi, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function signedInPage(viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser, viewport);
  await signUpViaApi(opened.context, uniqueEmail('nav'));
  await opened.page.goto('/');
  await opened.page.getByRole('heading', { name: /^Welcome, / }).waitFor();
  return opened;
}

const SIDE_MENU: Array<{ link: string; path: string; heading: string | RegExp; title: string }> = [
  { link: 'Build', path: '/build', heading: 'Build', title: 'Build' },
  { link: 'Market', path: '/market', heading: 'Market', title: 'Market' },
  { link: 'Warehouse', path: '/warehouse', heading: 'Warehouse', title: 'Warehouse' },
  { link: 'Stock Exchange', path: '/stocks', heading: 'Stock Exchange', title: 'Stock Exchange' },
  { link: 'Transactions', path: '/transactions', heading: 'Transactions', title: 'Transactions' },
  // A new player has no week results yet: the page says so (it opens the latest week once there is one).
  { link: 'Week Results', path: '/reports', heading: 'Week results', title: 'Week results' },
  { link: 'Politics', path: '/politics', heading: 'Politics', title: 'Politics' },
  { link: 'Leaderboard', path: '/leaderboard', heading: 'Leaderboard', title: 'Leaderboard' },
  { link: 'My Buildings', path: '/my-buildings', heading: 'My Buildings', title: 'My Buildings' },
  { link: 'Dashboard', path: '/', heading: /^Welcome back, /, title: 'Dashboard' },
];

const TABS: Array<{ link: string; path: string; heading: string }> = [
  { link: 'Build New', path: '/build', heading: 'Build' },
  { link: 'Research', path: '/research', heading: 'Research and Development' },
  { link: 'Learning', path: '/learning', heading: 'Learning Base' },
  { link: 'Community', path: '/community', heading: 'Community' },
  { link: 'About', path: '/about', heading: 'About Marketcraft' },
  { link: 'Profile', path: '/profile', heading: 'Company Profile' },
];

describe('navigation journey', () => {
  it('renders the page of every side-menu link, with its document title', async () => {
    const { context, page } = await signedInPage();
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    // Non-admins have no Admin Panel link.
    expect(await menu.getByRole('link', { name: 'Admin Panel' }).count()).toBe(0);
    for (const entry of SIDE_MENU) {
      await menu.getByRole('link', { name: entry.link }).first().click();
      await page.waitForURL((url) => url.pathname === entry.path);
      await page.getByRole('heading', { level: 1, name: entry.heading }).waitFor();
      await page.waitForFunction((title) => document.title === title, `${entry.title} | Marketcraft`);
      expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe(`${entry.title} | Marketcraft`);
    }
    await context.close();
  });

  it('renders the tab bar pages, each with a back button to the dashboard', async () => {
    const { context, page } = await signedInPage();
    const tabs = page.getByRole('navigation', { name: 'Sections' });
    for (const tab of TABS) {
      await tabs.getByRole('link', { name: tab.link, exact: true }).click();
      await page.waitForURL((url) => url.pathname === tab.path);
      await page.getByRole('heading', { level: 1, name: tab.heading, exact: true }).waitFor();
      expect(await tabs.getByRole('link', { name: tab.link, exact: true }).getAttribute('aria-current')).toBe('page');
    }
    // On a desktop a toast never covers the tab bar (it sat over its right end for 5 s): bottom right.
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Profile updated!' });
    await toast.waitFor();
    const [toastBox, tabsBox] = [await toast.boundingBox(), await tabs.boundingBox()];
    expect(toastBox!.y, 'the toast sits below the tab bar').toBeGreaterThan(tabsBox!.y + tabsBox!.height);
    await page.getByRole('link', { name: 'Back to Dashboard' }).first().click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: /^Welcome back, / }).waitFor();
    await context.close();
  });

  it('shows the 404 page for an unknown path and redirects /login to /', async () => {
    const { context, page } = await signedInPage();
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true);
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: /^Welcome back, / }).waitFor();
    await context.close();
  });

  it('works at 375x812 with the burger menu', async () => {
    const { context, page } = await signedInPage(PHONE);
    await page.screenshot({ path: '/tmp/marketcraft-phone-dashboard.png', fullPage: false });
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    expect(await menu.isVisible()).toBe(false);
    // No sideways scrolling of the page itself.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByTestId('header-cash').getByText('$500,000').waitFor();
    // The header has no room for the world switcher on a phone: the dashboard names the world, the side menu holds the switcher.
    await page.getByTestId('dashboard-world').getByText('Public world').waitFor();
    // The tab bar at its start: an arrow says more tabs are to the right, none to the left.
    const tabFrame = page.getByRole('navigation', { name: 'Sections' }).locator('..');
    await tabFrame.getByTestId('more-to-the-right').waitFor();
    expect(await tabFrame.getByTestId('more-to-the-left').count()).toBe(0);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.waitFor({ state: 'visible' });
    await page.getByLabel('Current world').filter({ visible: true }).waitFor();
    await page.screenshot({ path: '/tmp/marketcraft-phone-menu.png', fullPage: false });
    await menu.getByRole('link', { name: 'Leaderboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Leaderboard' }).waitFor();
    await menu.waitFor({ state: 'hidden' });
    // Scrolled to the Leaderboard tab: tabs out of view on both sides, an arrow on each.
    await tabFrame.getByTestId('more-to-the-left').waitFor();
    await tabFrame.getByTestId('more-to-the-right').waitFor();

    // Keyboard: the burger opens the menu with Enter.
    await page.getByRole('button', { name: 'Open menu' }).focus();
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'visible' });
    // The open menu covers the page: Tab never wanders into the hidden page under it...
    expect(await page.locator('main').evaluate((main) => (main as HTMLElement).inert)).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('main') === null)).toBe(true);
    // ...and Escape closes it, the focus back on the burger.
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open menu');
    expect(await page.locator('main').evaluate((main) => (main as HTMLElement).inert)).toBe(false);
    await context.close();
  });

  it('offers a reload when a page chunk of an older release is gone', async () => {
    const { context, page } = await signedInPage();
    // As after a release: the server answers the old chunk's address with the app's HTML.
    await page.route(/\/assets\/MarketPage-[^/]+\.js$/, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html></html>' }),
    );
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Market' }).click();
    await page.getByText('Marketcraft has been updated').waitFor();
    await page.getByRole('button', { name: 'Reload' }).waitFor();
    // The rest of the app still works.
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Leaderboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Leaderboard' }).waitFor();
    await context.close();
  });
});
