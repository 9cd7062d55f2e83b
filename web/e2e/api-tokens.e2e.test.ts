/**
 * The official API end to end (issue 12): a player creates a token on /profile, a script (Node's
 * fetch, outside the browser) plays with it within its scope, the profile counts its use, the
 * leaderboard shows the API badge, the Learning Base shows the guide, and a revoked token stops.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DESKTOP, PHONE, baseURL, defaultCompanyName, launchBrowser, newPage, signUpViaApi, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** What a script does: plain fetch with the token, no cookies. */
async function script(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseURL()}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
}

describe('API tokens journey', () => {
  it('creates a trade token on /profile, a script trades with it, the profile and the leaderboard show it, revoking stops it', async () => {
    const { context, page } = await newPage(browser);
    const email = uniqueEmail('tokens');
    await signUpViaApi(context, email);
    await page.goto('/profile');
    const section = page.getByTestId('api-tokens');
    await section.getByRole('heading', { name: 'API tokens' }).waitFor();
    await section.getByText('No tokens yet').waitFor();

    // An empty name is refused by the shared schema, before any request.
    await section.getByRole('button', { name: 'Create token' }).click();
    await section.getByText('Token name cannot be empty').waitFor();

    await section.getByLabel('Token name').fill('restock bot');
    await section.getByText('Trade', { exact: true }).click();
    await section.getByText('Read, plus market, stock and store actions', { exact: false }).waitFor();
    await section.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Token created').waitFor();
    const dialog = page.getByRole('dialog', { name: 'Your new API token' });
    const token = (await dialog.getByTestId('new-api-token').textContent())?.trim() ?? '';
    expect(token).toMatch(/^mc_pat_[a-z2-9]{16}_[a-z2-9]{32}$/);
    await dialog.getByText('This is the only time the token is shown', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Done, I copied it' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const row = section.getByTestId('api-token-row').filter({ hasText: 'restock bot' });
    await row.getByText('trade', { exact: true }).waitFor();
    await row.getByText('active', { exact: true }).waitFor();
    await row.getByText('Never used').waitFor();
    // The token itself is never shown again.
    expect(await page.content()).not.toContain(token);

    // The script: reads the company and the market, buys on the market, is refused a building.
    const company = await script(token, 'GET', '/company');
    expect(company.status).toBe(200);
    expect(company.body.name).toBe(defaultCompanyName(email));
    expect(company.headers.get('ratelimit-limit')).toBe('120');
    const goods = await script(token, 'GET', '/goods');
    const wheat = goods.body.find((good: { name: string }) => good.name === 'Wheat');
    const bought = await script(token, 'POST', '/market/trade', { product_id: wheat.id, quantity: 5, action: 'buy' });
    expect(bought.status).toBe(200);
    expect(bought.headers.get('ratelimit-remaining')).toBe('29');
    const build = await script(token, 'POST', '/buildings', { type: 'farm', city_id: 1 });
    expect(build.status).toBe(403);
    expect(build.body.error).toContain('needs "manage"');

    // The profile counts the script's requests (the refused one was not counted) and its last use.
    await page.reload();
    await row.getByText('Never used').waitFor({ state: 'detached' });
    await row.getByText('3', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Usage of restock bot' }).click();
    await page.getByRole('dialog', { name: 'Requests of "restock bot", last 30 days' }).getByText('3 requests in 30 days', { exact: false }).waitFor();
    await page.keyboard.press('Escape');

    // The leaderboard's API badge on the company that acted through the token.
    await page.goto('/leaderboard');
    await page.getByTestId('leaderboard-you').getByTestId('api-badge').waitFor();
    // On a phone the badges beside a long name keep their words ("You" read "Y..." there).
    await page.setViewportSize(PHONE);
    await page.getByTestId('leaderboard-you').getByText('You', { exact: true }).waitFor();
    const clipped = await page
      .getByTestId('leaderboard-you')
      .locator('.mantine-Badge-label')
      .evaluateAll((labels) => labels.filter((label) => label.scrollWidth > label.clientWidth).map((label) => label.textContent));
    expect(clipped).toEqual([]);
    // The ranking's figure, net worth, is in view on a phone; cash and share price sit under the name.
    // The phone layout comes with a render after the resize (a media query): measure once it shows.
    await page
      .getByTestId('leaderboard-you')
      .getByTestId('leaderboard-details')
      .getByText(/^Cash \$[\d,]+ · Share \$[\d,.]+$/)
      .waitFor();
    await expect
      .poll(async () => {
        const box = (await page.getByTestId('leaderboard-you').getByTestId('leaderboard-net-worth').boundingBox())!;
        return box.x + box.width;
      })
      .toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize(DESKTOP);
    await page.getByRole('columnheader', { name: 'Share Price' }).waitFor();

    // Revoke on the profile: the script's next request answers 401 with the reason.
    await page.goto('/profile');
    await row.getByRole('button', { name: 'Revoke restock bot' }).click();
    await page.getByRole('dialog', { name: 'Revoke this token?' }).getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('Token revoked').waitFor();
    await row.getByText('revoked', { exact: true }).waitFor();
    const refused = await script(token, 'GET', '/company');
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatch(/^This API token was revoked on /);
    await context.close();
  });

  it('teaches scripting in the Learning Base, with both examples to copy or download, on a phone too', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signUpViaApi(context, uniqueEmail('scripting'));
    await page.goto('/profile');
    // On a phone each token is a card, and the profile fits the screen.
    const section = page.getByTestId('api-tokens');
    await section.getByLabel('Token name').fill('notebook');
    await section.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('dialog', { name: 'Your new API token' }).getByRole('button', { name: 'Done, I copied it' }).click();
    await section.getByTestId('api-token-card').filter({ hasText: 'notebook' }).getByText('read', { exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByTestId('api-tokens').getByRole('link', { name: 'Scripting your company' }).click();
    await page.waitForURL(/\/learning\?tab=scripting$/);
    await page.getByRole('tab', { name: 'Scripting', selected: true }).waitFor();
    await page.getByText('1. Create a token').waitFor();
    await page.getByText('async function restockStores', { exact: false }).waitFor();
    await page.getByRole('tab', { name: 'Python (requests)' }).click();
    await page.getByText('def restock_stores', { exact: false }).waitFor();
    const download = page.getByRole('link', { name: 'Download company_bot.py' });
    expect(await download.getAttribute('href')).toBe('/examples/company_bot.py');
    const served = await context.request.get('/examples/company_bot.py');
    expect(served.ok()).toBe(true);
    expect(await served.text()).toContain('def sell_surplus');
    // The page fits the phone's width (code scrolls inside its own box).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await context.close();
  });
});
