/**
 * Forks with changes, teams and the forked debrief, and sandboxes (docs/replay.md, "Changes at the
 * fork", "The forked debrief", "Sandbox backtests"), through the API with the worker's real replay
 * and turn (the services the API sends its jobs to, run in the test's process).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MAX_OPEN_SANDBOXES_PER_PLAYER, PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { createWorld, deleteExpiredSandboxes } from '@marketcraft/db';
import { runTurn } from '../../worker/src/turn/index.ts';
import { workerServices } from './helpers/workerServices.ts';
import { replayWorld } from '../../worker/src/replay/replay.ts';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

describe('forks with changes, teams, the forked debrief and sandboxes', { timeout: 240_000 }, () => {
  let app: TestApp;
  let teacher: TestPlayer;
  let ana: TestPlayer;
  let ben: TestPlayer;
  let cleo: TestPlayer;
  let outsider: TestPlayer;
  let classWorld: number;
  let product: number;
  let country: number;

  const db = () => app.database.db;
  const turn = async (worldId: number) => {
    const result = await runTurn(db(), { worldId, nextTurnAt: () => null });
    expect(result.status).toBe('advanced');
  };
  const worldCount = async () => Number((await db().execute<{ n: number }>(sql`select count(*)::int as n from worlds`))[0]!.n);

  beforeAll(async () => {
    app = await startTestApp({ services: workerServices });
    teacher = await app.createPlayer({ name: 'Fork Options Teacher' });
    ana = await app.createPlayer({ name: 'Ana Public' });
    ben = await app.createPlayer({ name: 'Ben Public' });
    cleo = await app.createPlayer({ name: 'Cleo Public' });
    outsider = await app.createPlayer({ name: 'Outsider Public' });
    const world = (
      await app.api('POST', '/worlds', { token: teacher.token, body: { name: 'Fork options class', bots: 1, team_size: 2, turn_interval_minutes: null } })
    ).body;
    classWorld = world.id;
    const join = (player: TestPlayer, body: Record<string, unknown>) =>
      app.api('POST', '/worlds/join', { token: player.token, body: { code: world.join_code, ...body } });
    expect((await join(ana, { company_name: 'Ana and Ben' })).status).toBe(200);
    const anaTeam = (await app.api('GET', `/worlds/${classWorld}/teams`, { token: ana.token })).body.teams[0];
    expect((await join(ben, { team_code: anaTeam.team_code })).status).toBe(200);
    expect((await join(cleo, { company_name: 'Cleo Alone' })).status).toBe(200);
    const role = await app.api('PATCH', `/worlds/${classWorld}/teams/members/${ben.userId}`, { token: teacher.token, body: { role: 'finance' } });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    await turn(classWorld);
    await turn(classWorld);
    product = Number((await db().execute<{ id: number }>(sql`select id from products order by id limit 1`))[0]!.id);
    country = Number((await db().execute<{ id: number }>(sql`select id from countries order by id limit 1`))[0]!.id);
  });
  afterAll(async () => {
    await app.close();
  });

  const fork = (token: string, worldId: number, body: Record<string, unknown>) => app.api('POST', `/worlds/${worldId}/fork`, { token, body });

  it("refuses changes that are not valid with the shared schema's messages, or name what does not exist (404), creating nothing", async () => {
    const before = await worldCount();
    const shock = { kind: 'price', product_id: product, percent: 0, weeks: 2 };
    expect(await fork(teacher.token, classWorld, { week: 2, shock })).toMatchObject({ status: 400, body: { error: 'A shock of 0% changes nothing' } });
    expect(await fork(teacher.token, classWorld, { week: 2, shock: { kind: 'price', percent: 10, weeks: 1 } })).toMatchObject({
      status: 400,
      body: { error: 'Choose the product the shock changes' },
    });
    expect(await fork(teacher.token, classWorld, { week: 2, tax_rates: [{ country_id: country, tax_rate: 101 }] })).toMatchObject({
      status: 400,
      body: { error: 'Tax rate must be between 0 and 100' },
    });
    const twice = [
      { country_id: country, tax_rate: 10 },
      { country_id: country, tax_rate: 20 },
    ];
    expect(await fork(teacher.token, classWorld, { week: 2, tax_rates: twice })).toMatchObject({
      status: 400,
      body: { error: 'Each country can have one tax rate' },
    });
    expect(await fork(teacher.token, classWorld, { week: 2, bots: 'off' })).toMatchObject({
      status: 400,
      body: { error: 'bots must be true (they keep playing) or false (they stop)' },
    });
    expect(await fork(teacher.token, classWorld, { week: 2, tax_rates: [{ country_id: 99_999, tax_rate: 10 }] })).toMatchObject({
      status: 404,
      body: { error: 'No country found with id 99999' },
    });
    expect(await worldCount()).toBe(before);
  });

  it('a fork with a shock, a tax rate and the bots off: the changes hold, the teams come across with their roles, and everyone is told', async () => {
    const answer = await fork(teacher.token, classWorld, {
      week: 2,
      shock: { kind: 'price', product_id: product, percent: 30, weeks: 3 },
      tax_rates: [{ country_id: country, tax_rate: 33 }],
      bots: false,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const forkId = answer.body.id as number;
    expect(answer.body).toMatchObject({ name: 'Fork options class from week 2', current_week: 2, forked_from_world_id: classWorld, forked_at_week: 2 });
    expect(answer.body).toMatchObject({ bots_active: false, sandbox: false, deletes_at: null, team_size: 2 });
    const [tax] = await db().execute<{ tax_rate: number }>(sql`select tax_rate from world_countries where world_id = ${forkId} and country_id = ${country}`);
    expect(Number(tax!.tax_rate)).toBe(33);
    const shocks = (await app.api('GET', `/worlds/${forkId}/shocks`, { token: teacher.token })).body;
    expect(shocks).toMatchObject([{ kind: 'price', product_id: product, percent: 30, start_week: 2, end_week: 4 }]);
    // Ben joined Ana's team by its code and got his role in week 1: he is her teammate in the fork too, with his role and her team's code.
    const members = async (worldId: number) =>
      (
        await db().execute<{ user_id: number; company: string; role: string | null }>(sql`
          select m.user_id, c.name as company, m.role from company_members m join companies c on c.world_id = m.world_id and c.id = m.company_id
          where m.world_id = ${worldId} order by m.user_id`)
      ).map((row) => ({ user_id: Number(row.user_id), company: row.company, role: row.role }));
    expect(await members(forkId)).toEqual(await members(classWorld));
    expect((await members(forkId)).find((member) => member.user_id === ben.userId)).toMatchObject({ company: 'Ana and Ben', role: 'finance' });
    const teamCodes = async (worldId: number) =>
      (await db().execute<{ team_code: string | null }>(sql`select team_code from companies where world_id = ${worldId} and not is_bot order by id`)).map(
        (row) => row.team_code,
      );
    expect(await teamCodes(forkId)).toEqual(await teamCodes(classWorld));
    for (const player of [ana, ben, cleo]) {
      const worlds = (await app.api('GET', '/worlds', { token: player.token })).body as Array<{ id: number; joined: boolean }>;
      expect(worlds.find((world) => world.id === forkId)).toMatchObject({ joined: true });
    }
    const [notice] = await db().execute<{ message: string }>(sql`select message from world_announcements where world_id = ${forkId}`);
    expect(notice!.message).toContain('This world is a fork of Fork options class at the start of week 2');
    expect(notice!.message).toContain('tax rate set to 33%');
    expect(notice!.message).toContain('the bots make no more moves');

    // The fork's turn of week 2: its bot makes no move for week 3, while the original's turn of week 2 had its bot move.
    const advanced = await app.api('POST', `/worlds/${forkId}/advance`, { token: teacher.token });
    expect(advanced).toMatchObject({ status: 200, body: { current_week: 3 } });
    const botMoves = async (worldId: number) =>
      Number(
        (
          await db().execute<{ n: number }>(sql`
            select count(*)::int as n from world_actions a join companies c on c.world_id = a.world_id and c.id = a.company_id
            where a.world_id = ${worldId} and a.by_turn and c.is_bot and a.week = 3`)
        )[0]!.n,
      );
    expect(await botMoves(classWorld)).toBeGreaterThan(0);
    expect(await botMoves(forkId)).toBe(0);

    // The fork is a world like any other: its own log replays it (the changes included) to the same hashes.
    const admin = await app.createPlayer({ name: 'Replay Admin', isAdmin: true });
    const target = await createWorld(
      db(),
      { id: admin.userId, isAdmin: true },
      {
        name: 'Fork replayed',
        seed: Number((await db().execute<{ seed: number }>(sql`select seed from worlds where id = ${forkId}`))[0]!.seed),
        bots: 1,
        startingCashDollars: 100_000,
        maxPlayers: 200,
        turnIntervalMinutes: null,
      },
    );
    const replay = await replayWorld(db(), forkId, {
      db: db(),
      worldId: target.id,
      admin: { id: admin.userId, isAdmin: true },
      userFor: async (userId) => {
        // One account per original user (a founding and the team moves name the same one).
        const [user] = await db().execute<{ id: number }>(sql`
          insert into users (email) values (${`replayed-${userId}@example.com`})
          on conflict ((lower(email))) do update set email = excluded.email returning id`);
        return Number(user!.id);
      },
    });
    expect(replay.weeks.map((week) => [week.week, week.matches])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(replay.mismatches).toEqual([]);

    // The forked debrief: both worlds from the week before the fork on, the shocked product by default.
    const comparison = await app.api('GET', `/worlds/${forkId}/fork-comparison`, { token: teacher.token });
    expect(comparison.status, JSON.stringify(comparison.body)).toBe(200);
    expect(comparison.body).toMatchObject({ fork: { id: forkId }, original: { id: classWorld, name: 'Fork options class' }, fork_week: 2, weeks: [1, 2] });
    const anaCompany = comparison.body.companies.find((company: { name: string }) => company.name === 'Ana and Ben');
    expect(anaCompany.points.map((point: { week: number }) => point.week)).toEqual([1, 2]);
    expect(anaCompany.points[0].fork).toBe(anaCompany.points[0].original);
    expect(comparison.body.products).toHaveLength(1);
    const [week1, week2] = comparison.body.products[0].points;
    expect(comparison.body.products[0].product_id).toBe(product);
    expect(week1.fork).toBe(week1.original);
    expect(week2.fork).toBeGreaterThan(week2.original);
    expect(comparison.body.product_choices.length).toBeGreaterThan(10);
    const chosen = await app.api('GET', `/worlds/${forkId}/fork-comparison?product_ids=${product + 1},${product + 2}`, { token: teacher.token });
    expect(chosen.body.products.map((entry: { product_id: number }) => entry.product_id)).toEqual([product + 1, product + 2]);
    // Who may read it, and bad input.
    expect((await app.api('GET', `/worlds/${forkId}/fork-comparison`, { token: ana.token })).status).toBe(403);
    expect((await app.api('GET', `/worlds/${forkId}/fork-comparison`, { token: outsider.token })).status).toBe(404);
    expect(await app.api('GET', `/worlds/${classWorld}/fork-comparison`, { token: teacher.token })).toMatchObject({
      status: 422,
      body: { error: 'This world is not a fork: its debrief compares it with nothing' },
    });
    expect(await app.api('GET', `/worlds/${forkId}/fork-comparison?product_ids=1,x`, { token: teacher.token })).toMatchObject({
      status: 400,
      body: { error: 'product_ids must be ids separated by commas' },
    });
    expect(await app.api('GET', `/worlds/${forkId}/fork-comparison?product_ids=99999`, { token: teacher.token })).toMatchObject({
      status: 404,
      body: { error: 'No product found with id 99999' },
    });
  });

  describe('sandboxes of the public world', () => {
    let manageToken: string;
    let sandbox: number;

    beforeAll(async () => {
      await turn(PUBLIC_WORLD_ID);
      await turn(PUBLIC_WORLD_ID);
      manageToken = (await app.api('POST', '/tokens', { token: ana.token, body: { name: 'backtests', scope: 'manage' } })).body.token;
    });

    it('a player makes one with a manage token: only they see it and advance it; the other players get 404', async () => {
      const answer = await fork(manageToken, PUBLIC_WORLD_ID, { week: 2, private: true });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      sandbox = answer.body.id;
      expect(answer.body).toMatchObject({ kind: 'private', sandbox: true, role: 'instructor', joined: true, current_week: 2, forked_from_world_id: 1 });
      expect(new Date(answer.body.deletes_at).getTime() - new Date(answer.body.created_at).getTime()).toBe(7 * 24 * 3600 * 1000);
      expect(answer.body.name).toBe('Sandbox: Public world from week 2');
      // Her company plays in it; the others' companies are there (the history needs them) but play for nobody.
      const [own] = await db().execute<{ name: string }>(sql`select name from companies where world_id = ${sandbox} and user_id = ${ana.userId}`);
      expect(own!.name).toBe('Ana Public');
      const [others] = await db().execute<{ n: number }>(
        sql`select count(*)::int as n from companies where world_id = ${sandbox} and not is_bot and user_id is null`,
      );
      expect(Number(others!.n)).toBeGreaterThanOrEqual(3);
      for (const other of [ben, outsider]) {
        expect(await app.api('GET', `/worlds/${sandbox}`, { token: other.token })).toMatchObject({ status: 404, body: { error: 'World not found' } });
        expect((await app.api('POST', `/worlds/${sandbox}/advance`, { token: other.token })).status).toBe(404);
        const listed = (await app.api('GET', '/worlds', { token: other.token })).body as Array<{ id: number }>;
        expect(listed.some((world) => world.id === sandbox)).toBe(false);
      }
      // Nobody joins it: no join code is drawn and no co-instructor added, and a code it got before
      // that rule seats nobody (a company there would play in a world that answers its player 404).
      const alone = { status: 422, body: { error: 'A sandbox is yours alone: nobody joins it, and it has no join code or co-instructors' } };
      expect(await app.api('POST', `/worlds/${sandbox}/join-code`, { token: ana.token })).toMatchObject(alone);
      expect(await app.api('POST', `/worlds/${sandbox}/co-instructors`, { token: ana.token, body: { email: ben.email } })).toMatchObject(alone);
      await db().execute(sql`update worlds set join_code = 'SANDBXQZ' where id = ${sandbox}`);
      expect(await app.api('POST', '/worlds/join', { token: ben.token, body: { code: 'SANDBXQZ' } })).toMatchObject({
        status: 404,
        body: { error: 'No world has this join code' },
      });
      const [seated] = await db().execute<{ n: number }>(sql`select count(*)::int as n from companies where world_id = ${sandbox} and user_id = ${ben.userId}`);
      expect(Number(seated!.n)).toBe(0);
      expect(await app.api('POST', `/worlds/${sandbox}/advance`, { token: manageToken })).toMatchObject({ status: 200, body: { current_week: 3 } });
      const mine = await app.api('GET', '/company', { token: manageToken, headers: { 'X-World-Id': String(sandbox) } });
      expect(mine).toMatchObject({ status: 200, body: { name: 'Ana Public' } });
    });

    it('a player who signed up on the website (their address kept for the sign-up bonus) makes one after a turn: the replay matches', async () => {
      const signup = await app.api('POST', '/auth/signup', { body: { email: 'sandbox-signup@example.com', password: 'secret1' } });
      expect(signup.status).toBe(200);
      const [company] = await db().execute<{ signup_address: string | null }>(
        sql`select c.signup_address from companies c join users u on u.id = c.user_id where u.email = 'sandbox-signup@example.com'`,
      );
      expect(company!.signup_address).not.toBeNull();
      await turn(PUBLIC_WORLD_ID);
      const week = (await db().execute<{ w: number }>(sql`select current_week as w from worlds where id = 1`))[0]!.w;
      const answer = await fork(signup.body.token, PUBLIC_WORLD_ID, { week, private: true });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ sandbox: true, current_week: week });
    });

    it('tokens fork only into sandboxes and advance only sandboxes; sandboxes are of the public world, by its players', async () => {
      const before = await worldCount();
      const teacherToken = (await app.api('POST', '/tokens', { token: teacher.token, body: { name: 'class', scope: 'manage' } })).body.token;
      const tokensOnly = /^API tokens can fork only into a sandbox/;
      expect(await fork(teacherToken, classWorld, { week: 1 })).toMatchObject({ status: 403, body: { error: expect.stringMatching(tokensOnly) } });
      expect(await app.api('POST', `/worlds/${classWorld}/advance`, { token: teacherToken })).toMatchObject({
        status: 403,
        body: { error: expect.stringMatching(tokensOnly) },
      });
      const readToken = (await app.api('POST', '/tokens', { token: ana.token, body: { name: 'read only', scope: 'read' } })).body.token;
      expect((await fork(readToken, PUBLIC_WORLD_ID, { week: 1, private: true })).status).toBe(403);
      expect(await fork(teacher.token, classWorld, { week: 1, private: true })).toMatchObject({
        status: 422,
        body: { error: 'A sandbox is a fork of the public world: a class world is forked by its instructors' },
      });
      const stranger = await app.createPlayer({ name: 'No company yet' });
      await db().execute(sql`update companies set status = 'bankrupt' where id = ${stranger.companyId}`);
      expect(await fork(stranger.token, PUBLIC_WORLD_ID, { week: 1, private: true })).toMatchObject({
        status: 403,
        body: { error: 'Only players of the public world can make a sandbox: found your company first' },
      });
      expect(await fork(ana.token, sandbox, { week: 1 })).toMatchObject({
        status: 422,
        body: { error: 'A sandbox cannot be forked: make another sandbox of the public world' },
      });
      expect(await worldCount()).toBe(before);
    });

    it(`at most ${MAX_OPEN_SANDBOXES_PER_PLAYER} open sandboxes per player (409 beyond); ending one makes room`, async () => {
      for (let made = 1; made < MAX_OPEN_SANDBOXES_PER_PLAYER; made += 1)
        expect((await fork(ana.token, PUBLIC_WORLD_ID, { week: 1, private: true })).status).toBe(200);
      expect(await fork(ana.token, PUBLIC_WORLD_ID, { week: 1, private: true })).toMatchObject({
        status: 409,
        body: { error: 'You already have 3 sandboxes: end one (or wait until one is deleted, 7 days after it was made) before you make another' },
      });
      // Another player's limit is their own.
      expect((await fork(ben.token, PUBLIC_WORLD_ID, { week: 1, private: true })).status).toBe(200);
      expect((await app.api('POST', `/worlds/${sandbox}/end`, { token: ana.token })).status).toBe(200);
      expect((await fork(ana.token, PUBLIC_WORLD_ID, { week: 1, private: true })).status).toBe(200);
    });

    it('sent all at once, one request more than the limit still makes only the limit', async () => {
      const dana = await app.createPlayer({ name: 'Dana Public' });
      const answers = await Promise.all(
        Array.from({ length: MAX_OPEN_SANDBOXES_PER_PLAYER + 1 }, () => fork(dana.token, PUBLIC_WORLD_ID, { week: 1, private: true })),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 409]);
      const [made] = await db().execute<{ n: number }>(sql`select count(*)::int as n from worlds where sandbox_owner_user_id = ${dana.userId}`);
      expect(Number(made!.n)).toBe(MAX_OPEN_SANDBOXES_PER_PLAYER);
    });

    it('the worker deletes sandboxes 7 days after they were made, with every row of them, and keeps the rest', async () => {
      const sandboxes = async () =>
        (await db().execute<{ id: number }>(sql`select id from worlds where sandbox_owner_user_id is not null order by id`)).map((row) => Number(row.id));
      const all = await sandboxes();
      expect(all.length).toBeGreaterThanOrEqual(8);
      await db().execute(sql`update worlds set created_at = now() - interval '7 days 1 minute' where id = ${sandbox}`);
      await db().execute(sql`update worlds set created_at = now() - interval '6 days 23 hours' where id = ${all[1]!}`);
      const publicWeek = (await db().execute<{ w: number }>(sql`select current_week as w from worlds where id = 1`))[0]!.w;
      expect(await deleteExpiredSandboxes(db())).toEqual([sandbox]);
      expect(await sandboxes()).toEqual(all.filter((id) => id !== sandbox));
      // Not one row of it is left in any table of the game.
      const tables = await db().execute<{ table_name: string }>(
        sql`select table_name from information_schema.columns where table_schema = 'public' and column_name = 'world_id' and table_name not like 'pg_%'`,
      );
      for (const { table_name } of tables) {
        const [left] = await db().execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table_name)} where world_id = ${sandbox}`);
        expect({ table: table_name, rows: Number(left!.n) }).toEqual({ table: table_name, rows: 0 });
      }
      // The public world and the class world are untouched.
      expect((await db().execute<{ w: number }>(sql`select current_week as w from worlds where id = 1`))[0]!.w).toBe(publicWeek);
      expect((await app.api('GET', `/worlds/${classWorld}`, { token: teacher.token })).status).toBe(200);
      expect(await deleteExpiredSandboxes(db())).toEqual([]);
    });
  });
});
