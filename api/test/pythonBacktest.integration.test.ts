/**
 * The scripting guide's backtest (docs/scripting.md, "4. Backtest in a sandbox"), run as the guide
 * prints it: the system python3 with the Python client (clients/python) and a manage token, against
 * a started server whose public world played 4 weeks (the worker's replay and turn run in the
 * test's process, as the API sends them). It makes a sandbox, plays it to the public world's week,
 * and compares the player's net worth with the real one; what it prints is checked against the API.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { runTurn } from '../../worker/src/turn/index.ts';
import { workerServices } from './helpers/workerServices.ts';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const WEEKS = 4;

/** The guide's Python block under its "Backtest in a sandbox" heading. */
async function guideBacktest(): Promise<string> {
  const guide = await readFile(path.join(repoRoot, 'docs/scripting.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## 4. Backtest in a sandbox'));
  const code = /```python\n([\s\S]*?)```/.exec(section);
  if (!code) throw new Error('docs/scripting.md has no Python block in "4. Backtest in a sandbox"');
  return code[1]!;
}

describe("the scripting guide's Python backtest", { timeout: 300_000 }, () => {
  let app: TestApp;
  let player: TestPlayer;
  let folder: string;

  beforeAll(async () => {
    app = await startTestApp({ services: workerServices });
    player = await app.createPlayer({ name: 'Backtester' });
    for (let week = 1; week <= WEEKS; week += 1)
      expect((await runTurn(app.database.db, { worldId: PUBLIC_WORLD_ID, nextTurnAt: () => null })).status).toBe('advanced');
    folder = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-backtest-'));
  });
  afterAll(async () => {
    await app?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('makes a sandbox, plays its weeks again with other trades, and prints the net worth beside the real one', async () => {
    const token = (await app.api('POST', '/tokens', { token: player.token, body: { name: 'backtest', scope: 'manage' } })).body.token as string;
    const script = path.join(folder, 'backtest.py');
    await writeFile(script, await guideBacktest());
    const { stdout } = await run(PYTHON, [script], {
      cwd: folder,
      timeout: 240_000,
      env: { ...process.env, PYTHONPATH: path.join(repoRoot, 'clients/python'), MARKETCRAFT_URL: app.baseUrl, MARKETCRAFT_TOKEN: token, BACKTEST_WEEKS: '3' },
    });
    const [sandbox] = await app.database.db.execute<{ id: number; owner: number; week: number }>(
      sql`select id, sandbox_owner_user_id as owner, current_week as week from worlds where sandbox_owner_user_id is not null`,
    );
    expect(Number(sandbox!.owner)).toBe(player.userId);
    // From week 2 (3 weeks before week 5) to the public world's week 5: three turns of its own.
    expect(Number(sandbox!.week)).toBe(WEEKS + 1);
    expect(stdout).toContain(`sandbox ${sandbox!.id} at week 2, deleted `);
    expect(stdout).toMatch(/week 3: cash \$[\d,]+\.\d\d\nweek 4: cash \$[\d,]+\.\d\d\nweek 5: cash \$[\d,]+\.\d\d\n/);
    const comparison = await app.api('GET', `/worlds/${sandbox!.id}/fork-comparison`, { token });
    const mine = comparison.body.companies.find((company: { name: string }) => company.name === 'Backtester');
    const last = mine.points.at(-1);
    const money = (value: number) => `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    expect(stdout).toContain(`net worth after week ${last.week}: sandbox ${money(last.fork)}, for real ${money(last.original)}`);
    // Its trades happened in the sandbox only: the public world's log has none of them.
    const [trades] = await app.database.db.execute<{ sandbox: number; public: number }>(sql`
      select count(*) filter (where world_id = ${sandbox!.id})::int as sandbox, count(*) filter (where world_id = ${PUBLIC_WORLD_ID})::int as public
      from world_actions where action = 'marketTrade' and acting_user_id = ${player.userId} and (outcome->>'applied')::boolean`);
    expect(Number(trades!.public)).toBe(0);
    expect(Number(trades!.sandbox)).toBe(5); // three buys, two sells
  });
});
