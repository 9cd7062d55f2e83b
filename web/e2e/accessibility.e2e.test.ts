/**
 * Accessibility and theming: axe finds no serious or critical violation on the admin panel (every
 * other screen: accessibility-<scheme>-<width>.e2e.test.ts); the side menu's groups open from the keyboard; the building-type picker
 * is one radio group (one tab stop, arrow keys); dialogs have a named close button and give focus
 * back to the button that opened them; the colour scheme (light, dark, system) is remembered; toasts
 * stay clear of the header; the header shows a skeleton, never $0, while the company loads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { E2E_HELPER_ADMIN_EMAIL } from './globalSetup';
import { DESKTOP, PHONE, launchBrowser, newPage, seriousAxeViolations, signInOrUp, signUpViaApi, uniqueEmail, useColorScheme } from './browser';
import { playerWithAWorld, settled } from './axeEveryScreen';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('accessibility', () => {
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
