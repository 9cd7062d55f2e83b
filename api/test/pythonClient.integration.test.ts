/**
 * The Python client and its notebook (clients/python, docs/open-data.md) against a started server:
 * a class world with bots plays 20 weeks, then the system python3 runs the season notebook's cells
 * (clients/python/run_notebook.py) with a read token. What it prints is checked against the API
 * and the data files: the product's posted prices are GET /api/market/products/{id}'s history, its
 * units and the leaderboard's spread per week are the files' figures (which
 * openData.integration.test.ts checks against the API). pandas and matplotlib are optional: their
 * cells run when python3 has them (CI installs Debian's packages when it can, .ci/run) and say they
 * were skipped otherwise.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createWorld, joinWorld, users } from '@marketcraft/db';
import { runTurn } from '../../worker/src/turn/index.ts';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The system's python3 (Debian's packages install for it), else the first on PATH. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const WEEKS = 20;

/** The rows of a gzipped CSV data file (no quoted commas in these tables' numbers). */
function csvRows(content: Buffer): Array<Record<string, string>> {
  const [header, ...lines] = gunzipSync(content).toString('utf8').trimEnd().split('\r\n');
  const names = header!.split(',');
  return lines.map((line) => {
    const values = [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map((match) => match[1]!);
    return Object.fromEntries(values.map((value, index) => [names[index]!, value]));
  });
}

async function pythonHas(module: string): Promise<boolean> {
  return run(PYTHON, ['-c', `import ${module}`]).then(
    () => true,
    () => false,
  );
}

describe('the Python client and its notebook', { timeout: 300_000 }, () => {
  let app: TestApp;
  let student: TestPlayer;
  let worldId: number;
  let token: string;
  let cache: string;
  let output: string;

  const python = (args: string[], env: Record<string, string> = {}) =>
    run(PYTHON, args, {
      cwd: cache,
      timeout: 180_000,
      env: {
        ...process.env,
        PYTHONPATH: path.join(repoRoot, 'clients/python'),
        MARKETCRAFT_URL: app.baseUrl,
        MARKETCRAFT_TOKEN: token,
        MARKETCRAFT_WORLD: String(worldId),
        MARKETCRAFT_CACHE: path.join(cache, 'files'),
        MPLBACKEND: 'Agg',
        ...env,
      },
    });
  const dataFile = async (week: number, table: string) => {
    const response = await fetch(`${app.baseUrl}/api/data/worlds/${worldId}/weeks/${week}/${table}.csv.gz`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    return csvRows(Buffer.from(await response.arrayBuffer()));
  };

  beforeAll(async () => {
    app = await startTestApp();
    const teacher = await app.createPlayer({ name: 'Notebook Teacher' });
    student = await app.createPlayer({ name: 'Notebook Student' });
    const db = app.database.db;
    const world = await createWorld(
      db,
      { id: teacher.userId, isAdmin: false },
      { name: 'Notebook class', turnIntervalMinutes: null, startingCashDollars: 100_000, bots: 4, seed: 2025, maxPlayers: 30 },
    );
    worldId = world.id;
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, student.userId));
    await joinWorld(db, { id: student.userId, isAdmin: false, email: user!.email }, { code: world.join_code! });
    token = (await app.api('POST', '/tokens', { token: student.token, body: { name: 'notebook', scope: 'read' } })).body.token;
    expect((await app.api('PUT', '/session/world', { token: student.token, body: { world_id: worldId } })).status).toBe(200);
    for (let week = 1; week <= WEEKS; week += 1) expect((await runTurn(db, { worldId })).status).toBe('advanced');
    cache = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-notebook-'));
    output = (await python([path.join(repoRoot, 'clients/python/run_notebook.py'), path.join(repoRoot, 'clients/python/notebooks/season.ipynb')])).stdout;
    // 20 turns, then the notebook makes and reads 20 weeks of files: minutes on a loaded machine.
  }, 600_000);
  afterAll(async () => {
    await app.close();
    if (cache) await rm(cache, { recursive: true, force: true });
  });

  const linesOf = (prefix: string) =>
    output
      .split('\n')
      .filter((line) => line.startsWith(`${prefix} `))
      .map((line) => line.slice(prefix.length + 1));

  it('loads the 20 finished weeks of the world', () => {
    expect(linesOf('WORLD')).toEqual([`${worldId} 'Notebook class': current week ${WEEKS + 1}`]);
    expect(linesOf('WEEKS')).toEqual([`${WEEKS} from 1 to ${WEEKS}`]);
  });

  it("prints the most traded product's price and volume per week: the API's price history, the files' units", async () => {
    const [productLine] = linesOf('PRODUCT');
    const [, name, productId, traded] = /^(.+) \(id (\d+)\): (\d+) units traded in 20 weeks$/.exec(productLine!)!;
    expect(Number(traded)).toBeGreaterThan(0); // the bots traded it
    const detail = (await app.api('GET', `/market/products/${productId}`, { token: student.token })).body;
    expect(detail.name).toBe(name);
    const printed = linesOf('PRICE').map((line) => line.split(' '));
    expect(printed).toHaveLength(WEEKS);
    let units = 0;
    for (const [week, posted, curve, bought, sold] of printed) {
      expect(Number(posted)).toBe(detail.history.find((point: { week: number }) => point.week === Number(week)).price);
      const row = (await dataFile(Number(week), 'prices')).find((candidate) => candidate.product_id === productId)!;
      expect([curve, bought, sold]).toEqual([row.curve_price, row.units_bought, row.units_sold]);
      units += Number(bought) + Number(sold);
    }
    expect(units).toBe(Number(traded));
  });

  it("prints the leaderboard's spread per week from the leaderboard files", async () => {
    const printed = linesOf('SPREAD');
    expect(printed).toHaveLength(WEEKS);
    for (const line of printed) {
      const [week, companies, lowest, median, highest, spread] = line.split(' ').map(Number) as [number, number, number, number, number, number];
      const worths = (await dataFile(week, 'leaderboard')).map((row) => Number(row.net_worth)).sort((a, b) => a - b);
      expect(companies).toBe(worths.length);
      expect(companies).toBe(5); // 4 bots and the student
      expect([lowest, median, highest]).toEqual([worths[0], worths[2], worths[4]]);
      expect(spread).toBeCloseTo(worths[4]! - worths[0]!, 2);
    }
  });

  it('draws the charts and the DataFrames when python3 has matplotlib and pandas, and says so when not', async () => {
    if (await pythonHas('matplotlib')) {
      expect(linesOf('CHARTS')).toEqual(['saved to season.png']);
      expect((await readFile(path.join(cache, 'season.png'))).subarray(1, 4).toString()).toBe('PNG');
    } else {
      expect(linesOf('CHARTS')[0]).toMatch(/^skipped: matplotlib is not installed/);
    }
    if (await pythonHas('pandas')) {
      const products = (await dataFile(1, 'prices')).length;
      expect(linesOf('PANDAS')[0]).toMatch(new RegExp(`^${WEEKS * products} rows, ${WEEKS} weeks of `));
    } else {
      expect(linesOf('PANDAS')[0]).toMatch(/^skipped: pandas is not installed/);
    }
  });

  it("keeps each file once, by checksum, and says what went wrong in the server's words", async () => {
    // 20 weeks of prices and of the leaderboard, each kept once however often the notebook read it.
    expect((await readdir(path.join(cache, 'files'))).filter((name) => /^[0-9a-f]{64}$/.test(name))).toHaveLength(2 * WEEKS);
    const { stdout } = await python([
      '-c',
      [
        'import os',
        'from marketcraft import Client, ApiError',
        'game = Client(os.environ["MARKETCRAFT_URL"], os.environ["MARKETCRAFT_TOKEN"], cache_dir="")',
        'world = int(os.environ["MARKETCRAFT_WORLD"])',
        'rows = game.read_week(world, 3, "companies")',
        'print("TYPES", type(rows[0]["week"]).__name__, type(rows[0]["net_worth"]).__name__, type(rows[0]["listed"]).__name__)',
        'try:\n    game.read_week(world, 21, "prices")\nexcept ValueError as error:\n    print("UNFINISHED", error)',
        'try:\n    game.get("/data/worlds/999999/manifest.json")\nexcept ApiError as error:\n    print("MISSING", error.status, error.message)',
      ].join('\n'),
    ]);
    expect(stdout).toContain('TYPES int float bool');
    expect(stdout).toContain(`UNFINISHED World ${worldId} has no prices.csv.gz for week 21`);
    expect(stdout).toContain('MISSING 404 World not found');
  });
});
