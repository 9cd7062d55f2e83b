/**
 * The "Scripting your company" examples (web/public/examples, shown in docs/scripting.md and the
 * Learning Base) run against a real server with a personal access token: one pass restocks the
 * store's shelf to 50 units and sells the warehouse's surplus above 100 units. docs/scripting.md
 * shows the files verbatim.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProductionWorld, type ProductionWorld } from './helpers/productionFixtures.ts';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const TS_EXAMPLE = path.join(repoRoot, 'web/public/examples/company-bot.ts');
const PY_EXAMPLE = path.join(repoRoot, 'web/public/examples/company_bot.py');
const TYPED_EXAMPLE = path.join(repoRoot, 'clients/typescript/examples/company-bot.ts');

function pythonWithRequests(): boolean {
  try {
    execFileSync('python3', ['-c', 'import requests'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('scripting examples', () => {
  let app: TestApp;
  let world: ProductionWorld;
  beforeAll(async () => {
    app = await startTestApp();
    world = await createProductionWorld(app.database.db);
  });
  afterAll(async () => {
    await app.close();
  });

  /** A player with a store selling 10 bread and 150 wheat in the warehouse, and a trade token. */
  async function scriptedCompany() {
    const player = await app.createPlayer({ cash: 1_000_000 });
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await app.api(method, route, { token: player.token, body });
      expect(response.status, `${method} ${route}: ${JSON.stringify(response.body)}`).toBe(200);
      return response.body;
    };
    const store = await call('POST', '/buildings', { type: 'store', city_id: world.retailCity.id });
    await call('POST', `/buildings/${store.id}/inventory/purchase`, { product_id: world.bread.id, quantity: 10 });
    await call('POST', `/buildings/${store.id}/inventory/transfer-to-store`, { product_id: world.bread.id, quantity: 10, retail_price: 6 });
    await call('POST', '/market/trade', { product_id: world.wheat.id, quantity: 150, action: 'buy' });
    const { token } = await call('POST', '/tokens', { name: 'company bot', scope: 'trade' });
    return { player, store, token: token as string, call };
  }

  async function expectOnePassDone(company: Awaited<ReturnType<typeof scriptedCompany>>, output: string) {
    expect(output).toContain('Restocked 40');
    expect(output).toContain('Sold 50');
    const shelf = (await company.call('GET', `/stores/${company.store.id}/products`)) as { product_id: number; quantity: number; retail_price: number }[];
    const bread = shelf.find((product) => product.product_id === world.bread.id)!;
    expect(bread.quantity).toBe(50);
    expect(bread.retail_price).toBeGreaterThan(0);
    const warehouse = (await company.call('GET', '/inventory')) as { product_id: number; quantity: number }[];
    expect(warehouse.find((item) => item.product_id === world.wheat.id)?.quantity).toBe(100);
  }

  it('the TypeScript (fetch) example plays one turn with a trade token', async () => {
    const company = await scriptedCompany();
    const { stdout } = await run(process.execPath, [TS_EXAMPLE, '--once'], {
      env: { ...process.env, MARKETCRAFT_URL: app.baseUrl, MARKETCRAFT_TOKEN: company.token },
      timeout: 60_000,
    });
    await expectOnePassDone(company, stdout);
  });

  it('the typed client example (openapi-fetch, generated types) plays one turn with a trade token', async () => {
    const company = await scriptedCompany();
    const { stdout } = await run(process.execPath, [TYPED_EXAMPLE, '--once'], {
      env: { ...process.env, MARKETCRAFT_URL: app.baseUrl, MARKETCRAFT_TOKEN: company.token },
      timeout: 60_000,
    });
    await expectOnePassDone(company, stdout);
  });

  // A Node process that loads the whole API and openapi-typescript: the test's timeout is above the process's own 120 s
  // (the default 60 s ended the test first at a load of 22).
  it("the typed client's types are what the OpenAPI document gives now (openapi-typescript)", { timeout: 180_000 }, async () => {
    const { stdout } = await run(process.execPath, [path.join(repoRoot, 'clients/typescript/scripts/generate.ts'), '--check'], { timeout: 120_000 });
    expect(stdout).toContain('is up to date');
  });

  it("the TypeScript example stops with the server's message when the token lacks the scope", async () => {
    const company = await scriptedCompany();
    const { token: readOnly } = await company.call('POST', '/tokens', { name: 'read only', scope: 'read' });
    const failed = await run(process.execPath, [TS_EXAMPLE, '--once'], {
      env: { ...process.env, MARKETCRAFT_URL: app.baseUrl, MARKETCRAFT_TOKEN: readOnly },
      timeout: 60_000,
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect('code' in failed && failed.code).toBe(1);
    expect(`${failed.stdout}${failed.stderr}`).toContain('needs "trade"');
  });

  it.skipIf(!pythonWithRequests())('the Python (requests) example plays one turn with a trade token', async () => {
    const company = await scriptedCompany();
    const { stdout } = await run('python3', [PY_EXAMPLE, '--once'], {
      env: { ...process.env, MARKETCRAFT_URL: app.baseUrl, MARKETCRAFT_TOKEN: company.token },
      timeout: 60_000,
    });
    await expectOnePassDone(company, stdout);
  });

  it('docs/scripting.md shows the examples verbatim', async () => {
    const guide = await readFile(path.join(repoRoot, 'docs/scripting.md'), 'utf8');
    const blocks = [...guide.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((match) => ({ language: match[1], code: match[2] }));
    expect(blocks).toContainEqual({ language: 'ts', code: await readFile(TS_EXAMPLE, 'utf8') });
    expect(blocks).toContainEqual({ language: 'python', code: await readFile(PY_EXAMPLE, 'utf8') });
    expect(blocks).toContainEqual({ language: 'ts', code: await readFile(TYPED_EXAMPLE, 'utf8') });
  });
});
