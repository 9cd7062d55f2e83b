/** Shared helpers of the journeys: Chromium (web/e2e/chromium.ts) through playwright-core, and quick sign-ups. */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const PASSWORD = 'correct horse battery';
export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 375, height: 812 };

export function baseURL(): string {
  return inject('baseURL');
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: inject('chromiumPath'),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

export async function newPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  return { context, page };
}

/** A fresh address for a journey's player: "e2e-<area>-<random>@e2e.test". */
export function uniqueEmail(area: string): string {
  return `e2e-${area}-${randomUUID().slice(0, 8)}@e2e.test`;
}

/** "e2e-nav-1a2b3c4d@e2e.test" -> "E2e Nav 1a2b3c4d Enterprises" (the server's default company name). */
export function defaultCompanyName(email: string): string {
  const local = email.split('@')[0]?.split('+')[0] ?? '';
  const words = local
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());
  return `${words.length ? words.join(' ') : 'New'} Enterprises`;
}

/** Signs up through the API inside the browser context, so its cookie jar holds the session. */
export async function signUpViaApi(context: BrowserContext, email: string): Promise<void> {
  const response = await context.request.post('/api/auth/signup', { data: { email, password: PASSWORD } });
  if (!response.ok()) throw new Error(`signup ${email} failed: ${response.status()} ${await response.text()}`);
}

/** Signs up in the browser's form. */
export async function signUpInBrowser(page: Page, email: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
  await page.getByRole('heading', { name: 'Create Account' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
}

/** Creates something through the REST API from inside the browser context (its session cookie, the app's Origin). */
export async function apiPost<T = any>(context: BrowserContext, path: string, data: unknown): Promise<T> {
  const response = await context.request.post(`/api${path}`, { data, headers: { origin: baseURL() } });
  if (!response.ok()) throw new Error(`POST ${path} failed: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function apiPut<T = any>(context: BrowserContext, path: string, data: unknown): Promise<T> {
  const response = await context.request.put(`/api${path}`, { data, headers: { origin: baseURL() } });
  if (!response.ok()) throw new Error(`PUT ${path} failed: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * The time budget of a journey that tells a story over several turns (the worlds, reports and
 * assignments journeys, and the admin's turn of the public world), where a single screen's test has
 * the config's 120 s: on a machine busy with other work (four journeys at once, vitest beside them)
 * such a story ran past 90 s. Each of its waits keeps its own bound (a locator's 20 s, a turn's).
 */
export const STORY_TIMEOUT_MS = 180_000;

/** How long a turn may take when a journey advances one (a busy machine runs it slower than the 20 s default). */
const TURN_TIMEOUT_MS = 150_000;

/**
 * A class world of one journey's own, with manual turns, made by an instructor of its own through
 * the API (the worlds journey makes one in the page). A journey whose story needs turns plays there:
 * its turns change nothing another journey sees, so it runs beside them, and its turn processes
 * only its own companies (the public world's turn processes every journey's and 25 bots).
 */
export interface ClassWorld {
  id: number;
  /** Seats the signed-in player of `context` in the world (a company named `companyName`, else the default name) and makes it the session's world. */
  join(context: BrowserContext, companyName?: string): Promise<void>;
  /** Runs the world's next turn as its instructor ('Advance turn now') and waits for it. */
  advance(): Promise<void>;
  close(): Promise<void>;
}

export async function classWorldOfItsOwn(browser: Browser, settings: { name: string; starting_cash: number; bots: number }): Promise<ClassWorld> {
  const instructor = await browser.newContext({ baseURL: baseURL() });
  await signUpViaApi(instructor, uniqueEmail('instructor'));
  const world = await apiPost<{ id: number; join_code: string }>(instructor, '/worlds', settings);
  return {
    id: world.id,
    async join(context, companyName) {
      await apiPost(context, '/worlds/join', { code: world.join_code, ...(companyName ? { company_name: companyName } : {}) });
      await apiPut(context, '/session/world', { world_id: world.id });
    },
    async advance() {
      const response = await instructor.request.post(`/api/worlds/${world.id}/advance`, { data: {}, headers: { origin: baseURL() }, timeout: TURN_TIMEOUT_MS });
      if (!response.ok()) throw new Error(`advancing the turn failed: ${response.status()} ${await response.text()}`);
    },
    close: () => instructor.close(),
  };
}

export async function apiGet<T = any>(context: BrowserContext, path: string): Promise<T> {
  const response = await context.request.get(`/api${path}`);
  if (!response.ok()) throw new Error(`GET ${path} failed: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What axe (WCAG 2 A and AA rules) finds serious or critical on the page as it is now: 'rule: target' lines. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the app's Content-Security-Policy refuses inline <script> tags.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: unknown,
          ) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .flatMap((violation) =>
        violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} (${(node.failureSummary ?? '').split('\n')[1]?.trim() ?? ''})`),
      );
  });
  return violations;
}

/** Picks the colour scheme the app starts with in this context ('light', 'dark' or 'auto'). */
export async function useColorScheme(context: BrowserContext, scheme: 'light' | 'dark' | 'auto'): Promise<void> {
  await context.addInitScript((value) => window.localStorage.setItem('marketcraft-color-scheme', value), scheme);
}

/**
 * Makes `email` (an account that exists) an admin the operator's way: `npm run admin -- grant`,
 * against the started app's embedded database (what an operator runs; docs/auth.md, "Admins").
 */
export async function grantAdmin(email: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const dataDir = inject('dataDir');
  if (dataDir) {
    env.DATA_DIR = dataDir;
    delete env.DATABASE_URL;
  }
  const repoRoot = path.resolve(import.meta.dirname, '..', '..');
  await promisify(execFile)(process.execPath, ['api/src/cli/admin.ts', 'grant', email], { cwd: repoRoot, env });
}

/** Signs in as the admin `email`, signing up and granting admin (grantAdmin) first if needed. */
export async function signInOrUp(context: BrowserContext, email: string): Promise<void> {
  const response = await context.request.post('/api/auth/signin', { data: { email, password: PASSWORD } });
  if (response.ok()) return;
  await signUpViaApi(context, email);
  await grantAdmin(email);
}
