/** Sign up, see the dashboard, log out, sign back in, and a wrong password in the red box. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PASSWORD, defaultCompanyName, launchBrowser, newPage, signUpInBrowser, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('auth journey', () => {
  it('signs up, sees the dashboard, logs out and signs back in', async () => {
    const { context, page } = await newPage(browser);
    const email = uniqueEmail('auth');
    const company = defaultCompanyName(email);

    await page.goto('/');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    expect(await page.getByText('Master Economics Through Play').isVisible()).toBe(true);
    expect(await page.getByText('Join thousands of players competing in real-time').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Continue with Google' }).isVisible()).toBe(true);
    expect(await page.title()).toBe('Sign In | Marketcraft');

    await signUpInBrowser(page, email);
    await page.getByRole('heading', { name: `Welcome, ${company}!` }).waitFor();
    await page.getByTestId('header-cash').getByText('$500,000').waitFor();
    expect(await page.getByTestId('header-week').textContent()).toMatch(/^\d+$/);
    expect(await page.title()).toBe('Dashboard | Marketcraft');
    // The countdown has loaded (no longer 'Loading...').
    await page.waitForFunction(() => !document.querySelector('[data-testid="header-next-turn"]')?.textContent?.includes('Loading'));

    await page.getByRole('button', { name: 'Logout' }).first().click();
    await page.getByRole('heading', { name: 'Welcome Back', exact: true }).waitFor();
    const session = await context.request.get('/api/auth/session');
    expect((await session.json()).user).toBeNull();

    await page.getByLabel('Email').fill(email);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('heading', { name: `Welcome back, ${company}!` }).waitFor();
    await page.getByTestId('header-cash').getByText('$500,000').waitFor();
    await context.close();
  });

  it('shows a wrong password in the red box, and toggling clears it', async () => {
    const { context, page } = await newPage(browser);
    const email = uniqueEmail('authbad');
    await signUpInBrowser(page, email);
    await page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).first().click();
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();

    await page.getByLabel('Email').fill(email);
    await page.locator('input[name="password"]').fill('wrong password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const box = page.getByTestId('auth-error');
    await box.waitFor();
    expect((await box.textContent())?.trim()).toBeTruthy();
    expect(await box.getAttribute('role')).toBe('alert');
    // Still on the sign-in screen, inputs enabled again.
    expect(await page.getByLabel('Email').isEnabled()).toBe(true);

    await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    expect(await box.count()).toBe(0);

    // Signing up again with the same email: the red box offers to sign in with it, keeping what was typed.
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await box.getByText('An account with this email already exists').waitFor();
    await box.getByTestId('sign-in-instead').click();
    await page.getByRole('heading', { name: 'Welcome Back', exact: true }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('heading', { name: /^Welcome back, / }).waitFor();
    await context.close();
  });

  it('shows the server error when Google sign-in is not configured', async () => {
    const { context, page } = await newPage(browser);
    const providers = await (await context.request.get('/api/auth/providers')).json();
    await page.goto('/');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    if (providers.google) {
      await page.waitForURL((url) => !url.pathname.startsWith('/api/auth/google') || url.host !== new URL(page.url()).host);
    } else {
      const box = page.getByTestId('auth-error');
      await box.waitFor();
      // It says what to do instead.
      expect(await box.textContent()).toBe('Google sign-in is not configured on this server: sign in (or sign up) with your email and password');
      expect(await page.getByRole('button', { name: 'Continue with Google' }).isEnabled()).toBe(true);
    }
    await context.close();
  });
});
