/**
 * A machine with only Node runs the journeys: the Chromium shipped by the npm package launches with
 * playwright-core and runs the app's own page, whether or not Debian's Chromium is installed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { baseURL } from './browser';
import { packagedChromiumPath, resolveChromium } from './chromium.ts';

describe('Chromium for the journeys', () => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it('launches the npm package Chromium and renders the sign-in page', async () => {
    browser = await chromium.launch({
      executablePath: await packagedChromiumPath(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const page = await browser.newPage();
    await page.goto(baseURL());
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor({ state: 'visible', timeout: 20_000 });
    expect(await page.title()).toBe('Sign In | Marketcraft');
  });

  it('prefers CHROMIUM_PATH, then Debian, then the package', async () => {
    expect(await resolveChromium({ CHROMIUM_PATH: '/opt/my/chromium' })).toEqual({ path: '/opt/my/chromium', source: 'CHROMIUM_PATH' });
    const fallback = await resolveChromium({});
    expect(['debian', '@sparticuz/chromium']).toContain(fallback.source);
  });
});
