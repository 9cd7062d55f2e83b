/**
 * The app runs under its own Content-Security-Policy (api/src/securityHeaders.ts): signing up in
 * the form, every page of the menu (charts, tables, forms), a profile change and the API docs page
 * report no violation, and a page of another origin cannot frame the app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseURL, launchBrowser, newPage, signUpInBrowser, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PAGES = [
  '/',
  '/build',
  '/market',
  '/warehouse',
  '/stocks',
  '/transactions',
  '/politics',
  '/leaderboard',
  '/my-buildings',
  '/research',
  '/learning',
  '/community',
  '/about',
  '/profile',
  '/api/docs',
];

/** Every CSP violation the page reports, as 'directive blocked-uri' (kept across navigations in the context). */
async function recordViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation(
        `${event.effectiveDirective} ${event.blockedURI} ${location.pathname} (${event.sourceFile}:${event.lineNumber}:${event.columnNumber})`,
      );
    });
  });
  return violations;
}

describe('Content-Security-Policy', () => {
  it('lets the whole app run: sign-up, every page, a form, the API docs', async () => {
    const { context, page } = await newPage(browser);
    const violations = await recordViolations(page);
    const response = await page.goto('/');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await signUpInBrowser(page, uniqueEmail('csp'));
    await page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    for (const path of PAGES) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    await page.goto('/profile');
    await page.getByRole('heading', { level: 1, name: 'Company Profile' }).waitFor();
    await page.getByRole('textbox', { name: 'Company Name' }).fill('Policy Abiding Ltd');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile updated!').first().waitFor();
    expect(violations).toEqual([]);
    await context.close();
  });

  it('cannot be framed by another page', async () => {
    /** Frames the app's home page from a page of another origin; true when the app's document (its #root) is in the frame. */
    const frameTheApp = async (withoutFramingHeaders: boolean) => {
      const { context, page } = await newPage(browser);
      if (withoutFramingHeaders) {
        // The control: the same answer without X-Frame-Options and the CSP shows the app in the frame.
        await page.route(`${baseURL()}/`, async (route) => {
          const response = await route.fetch();
          const headers = { ...response.headers() };
          delete headers['x-frame-options'];
          delete headers['content-security-policy'];
          await route.fulfill({ response, headers });
        });
      }
      // setContent waits for the page's load event, which waits for the frame's document (shown or refused).
      await page.setContent(`<iframe src="${baseURL()}/"></iframe>`);
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      const framed = frame ? await frame.evaluate(() => document.getElementById('root') !== null).catch(() => false) : false;
      await context.close();
      return framed;
    };
    expect(await frameTheApp(true)).toBe(true);
    expect(await frameTheApp(false)).toBe(false);
  });
});
