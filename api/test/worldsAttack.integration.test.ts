/**
 * Classroom worlds against careless and hostile clients (docs/worlds.md, "Joining"): the player
 * limit and "one company per user" hold when joins arrive at once, founding a company with
 * POST /api/company in a private world keeps the world's terms (its starting cash, its limit,
 * read-only once ended, and only for those with a part in it: not a co-instructor who left), 60 wrong join codes sent at once get at most 10 answers (the rest 429),
 * the debrief refuses ids no product can have (400, never 500), one account runs at most 20
 * worlds at once (409), even when it creates them together, and a world ended while its clock is
 * saved, its join code drawn, a shock or an announcement added stays ended (409).
 */
import { sql } from 'drizzle-orm';
import { PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

describe('classroom worlds under concurrent and careless requests', () => {
  let app: TestApp;
  let teacher: TestPlayer;

  beforeAll(async () => {
    // The address of a request is its X-Forwarded-For (one trusted proxy): the guessing test speaks from its own.
    app = await startTestApp({ env: { TRUST_PROXY_HOPS: '1' } });
    teacher = await app.createPlayer({ name: 'Teacher' });
  });
  afterAll(async () => {
    await app.close();
  });

  const createWorld = async (body: Record<string, unknown>) => {
    const created = await app.api('POST', '/worlds', { token: teacher.token, body: { bots: 0, ...body } });
    expect(created.status).toBe(200);
    return created.body as { id: number; join_code: string };
  };

  it('admits exactly max_players students when eight join at once', async () => {
    const world = await createWorld({ name: 'Two seats', max_players: 2 });
    const students = await Promise.all(Array.from({ length: 8 }, (_, index) => app.createPlayer({ name: `Rusher ${index}` })));
    const answers = await Promise.all(students.map((student) => app.api('POST', '/worlds/join', { token: student.token, body: { code: world.join_code } })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(6);
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.body.error).toBe('This world is full: ask your instructor to raise its player limit');
    }
    expect((await app.api('GET', `/worlds/${world.id}`, { token: teacher.token })).body.players).toBe(2);
  });

  it('founds one company when one student presses Join ten times at once', async () => {
    const world = await createWorld({ name: 'Double click', starting_cash: 20_000 });
    const student = await app.createPlayer({ name: 'Clicker' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => app.api('POST', '/worlds/join', { token: student.token, body: { code: world.join_code } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const companies = await app.api<Array<{ owner_email: string | null; cash: number }>>('GET', `/worlds/${world.id}/companies`, { token: teacher.token });
    expect(companies.body.filter((company) => company.owner_email === student.email)).toEqual([expect.objectContaining({ cash: 20_000 })]);
  });

  it("founds a company with POST /api/company on the world's terms: its starting cash, its limit, never once ended", async () => {
    const world = await createWorld({ name: 'Found here', starting_cash: 20_000, max_players: 1 });
    const instructor = await app.createPlayer({ name: 'Instructor plays' });
    const added = await app.api('POST', `/worlds/${world.id}/co-instructors`, { token: teacher.token, body: { email: instructor.email } });
    expect(added.status).toBe(200);
    expect((await app.api('PUT', '/session/world', { token: instructor.token, body: { world_id: world.id } })).status).toBe(200);
    const founded = await app.api('POST', '/company', { token: instructor.token, body: { name: 'Teacher Co' } });
    expect(founded.status).toBe(200);
    expect(founded.body.cash).toBe(20_000);

    // The one seat is taken: the next company is refused, by code or by POST /api/company.
    expect((await app.api('PUT', '/session/world', { token: teacher.token, body: { world_id: world.id } })).status).toBe(200);
    const full = await app.api('POST', '/company', { token: teacher.token, body: { name: 'Second Co' } });
    expect(full.status).toBe(409);
    expect(full.body.error).toBe('This world is full: ask your instructor to raise its player limit');

    const ended = await createWorld({ name: 'Over' });
    expect((await app.api('POST', `/worlds/${ended.id}/end`, { token: teacher.token })).body.status).toBe('ended');
    expect((await app.api('PUT', '/session/world', { token: teacher.token, body: { world_id: ended.id } })).status).toBe(200);
    const late = await app.api('POST', '/company', { token: teacher.token, body: { name: 'Late Co' } });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('This world has ended: it is read-only');
    // Nor a new join code (nobody joins it); a co-instructor may still be added to review it.
    const code = await app.api('POST', `/worlds/${ended.id}/join-code`, { token: teacher.token });
    expect(code.status).toBe(409);
    expect(code.body.error).toBe('This world has ended: it is read-only');
    expect((await app.api('POST', `/worlds/${ended.id}/co-instructors`, { token: teacher.token, body: { email: instructor.email } })).status).toBe(200);
    expect((await app.api('GET', `/worlds/${ended.id}`, { token: teacher.token })).body.players).toBe(0);
  });

  it('lets a co-instructor leave and the instructor remove one; nobody else removes anybody, and the instructor stays', async () => {
    const world = await createWorld({ name: 'Co-teaching' });
    const assistant = await app.createPlayer({ name: 'Assistant' });
    const colleague = await app.createPlayer({ name: 'Colleague' });
    const stranger = await app.createPlayer({ name: 'Stranger' });
    for (const member of [assistant, colleague]) {
      expect((await app.api('POST', `/worlds/${world.id}/co-instructors`, { token: teacher.token, body: { email: member.email } })).status).toBe(200);
    }
    const listed = await app.api<Array<{ user_id: number; email: string; role: string; is_you: boolean }>>('GET', `/worlds/${world.id}/instructors`, {
      token: assistant.token,
    });
    const idOf = (email: string) => listed.body.find((member) => member.email === email)!.user_id;
    expect(listed.body.filter((member) => member.is_you).map((member) => member.email)).toEqual([assistant.email]);

    // A co-instructor removes no one but themself; a stranger is told nothing of the world.
    const byAssistant = await app.api('DELETE', `/worlds/${world.id}/co-instructors/${idOf(colleague.email)}`, { token: assistant.token });
    expect(byAssistant.status).toBe(403);
    expect((await app.api('DELETE', `/worlds/${world.id}/co-instructors/${idOf(colleague.email)}`, { token: stranger.token })).status).toBe(404);
    // The world's instructor stays.
    const owner = await app.api('DELETE', `/worlds/${world.id}/co-instructors/${idOf(teacher.email)}`, { token: teacher.token });
    expect(owner.status).toBe(409);
    expect(owner.body.error).toBe("The world's instructor cannot be removed: end the world instead");

    // The assistant, looking at the world on the website, leaves and can no longer manage it; their
    // session is back in the public world, and founding a company in the class is refused.
    expect((await app.api('PUT', '/session/world', { token: assistant.token, body: { world_id: world.id } })).status).toBe(200);
    const left = await app.api('DELETE', `/worlds/${world.id}/co-instructors/${idOf(assistant.email)}`, { token: assistant.token });
    expect(left.status).toBe(200);
    expect((await app.api('GET', `/worlds/${world.id}/instructors`, { token: assistant.token })).status).not.toBe(200);
    expect((await app.api('GET', '/session/world', { token: assistant.token })).body).toMatchObject({ id: PUBLIC_WORLD_ID });
    // A session still pointing at the class (one that switched while the removal ran) may not found there either.
    await app.database.db.execute(sql`update sessions set current_world_id = ${world.id} where user_id = ${idOf(assistant.email)}`);
    expect(await app.api('POST', '/company', { token: assistant.token, body: {} })).toMatchObject({ status: 404, body: { error: 'World not found' } });
    // The instructor removes the colleague; removing them again finds no one.
    const removed = await app.api<Array<{ email: string }>>('DELETE', `/worlds/${world.id}/co-instructors/${idOf(colleague.email)}`, { token: teacher.token });
    expect(removed.status).toBe(200);
    expect(removed.body.map((member) => member.email)).toEqual([teacher.email]);
    const again = await app.api('DELETE', `/worlds/${world.id}/co-instructors/${idOf(colleague.email)}`, { token: teacher.token });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('No co-instructor of this world has this id');
  });

  it('tells a guesser at most 10 wrong join codes even when 60 arrive at once', async () => {
    const guesser = await app.createPlayer({ name: 'Guesser' });
    const headers = { 'x-forwarded-for': '10.9.9.9' };
    const guesses = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        app.api('POST', '/worlds/join', { token: guesser.token, headers, body: { code: `WRONG${String(index).padStart(3, '2').replace(/[01]/g, '9')}` } }),
      ),
    );
    const told = guesses.filter((guess) => guess.status === 404);
    expect(told.length).toBeGreaterThan(0);
    expect(told.length).toBeLessThanOrEqual(10);
    for (const guess of guesses.filter((answer) => answer.status !== 404)) {
      expect(guess.status).toBe(429);
      expect(guess.body.error).toBe('Too many wrong join codes: try again in 10 minutes');
      expect(Number(guess.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('writes negative amounts as numbers in the CSV files, and a formula-like company name as text', async () => {
    const world = await createWorld({ name: 'Spreadsheet' });
    const student = await app.createPlayer({ name: 'Spreadsheet student' });
    const joined = await app.api('POST', '/worlds/join', { token: student.token, body: { code: world.join_code, company_name: '=HYPERLINK(1)' } });
    expect(joined.status).toBe(200);
    expect((await app.api('PUT', '/session/world', { token: student.token, body: { world_id: world.id } })).status).toBe(200);
    const bought = await app.api('POST', '/market/trade', { token: student.token, body: { product_id: 1, quantity: 2, action: 'buy' } });
    expect(bought.status).toBe(200);
    const response = await fetch(`${app.baseUrl}/api/worlds/${world.id}/export/transactions.csv`, { headers: { authorization: `Bearer ${teacher.token}` } });
    const lines = (await response.text()).trim().split('\r\n');
    const purchase = lines.find((line) => line.includes(',purchase,market_buy,'))!.split(',');
    expect(purchase[3]).toBe("'=HYPERLINK(1)");
    expect(purchase[6]).toBe((-bought.body.total).toFixed(2));
  });

  it('lets one instructor run at most 20 worlds at once, even when the last ones are created together', async () => {
    const busy = await app.createPlayer({ name: 'Busy teacher' });
    // 19 running worlds of theirs (rows only: their markets are not needed here).
    const seeded = await app.database.db.execute<{ id: number }>(sql`
      with made as (
        insert into worlds (name, kind, status, join_code, created_by_user_id, bot_count)
        select 'Section ' || n, 'private', 'active', 'ZZ' || lpad(n::text, 4, '0') || 'U' || ${busy.userId}::int, ${busy.userId}::int, 0
        from generate_series(1, 19) n
        returning id)
      insert into world_instructors (world_id, user_id, role) select id, ${busy.userId}::int, 'instructor' from made returning world_id as id`);
    const answers = await Promise.all(
      Array.from({ length: 3 }, (_, index) => app.api('POST', '/worlds', { token: busy.token, body: { name: `Late section ${index}`, bots: 0 } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    for (const answer of answers.filter((refused) => refused.status === 409)) {
      expect(answer.body.error).toBe('You already run 20 worlds that have not ended: end one before you create another');
    }
    // An ended world no longer counts.
    expect((await app.api('POST', `/worlds/${Number(seeded[0]!.id)}/end`, { token: busy.token })).status).toBe(200);
    expect((await app.api('POST', '/worlds', { token: busy.token, body: { name: 'Next term', bots: 0 } })).status).toBe(200);
  });

  it("keeps a running clock's next turn when the instructor saves the clock without a change", async () => {
    const world = await createWorld({ name: 'Clockwork', turn_interval_minutes: 30 });
    const nextTurn = async () => (await app.api('GET', `/worlds/${world.id}`, { token: teacher.token })).body.next_turn_at as string | null;
    const first = await nextTurn();
    expect(first).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const body of [{}, { status: 'active' }, { turn_interval_minutes: 30 }, { status: 'active', turn_interval_minutes: 30 }]) {
      const saved = await app.api('PATCH', `/worlds/${world.id}`, { token: teacher.token, body });
      expect(saved.status).toBe(200);
      expect(saved.body.next_turn_at, JSON.stringify(body)).toBe(first);
    }
    // A new interval, and a pause then a resume, start the clock again from now.
    const faster = await app.api('PATCH', `/worlds/${world.id}`, { token: teacher.token, body: { turn_interval_minutes: 10 } });
    expect(new Date(faster.body.next_turn_at).getTime()).toBeLessThan(new Date(first!).getTime());
    expect((await app.api('PATCH', `/worlds/${world.id}`, { token: teacher.token, body: { status: 'paused' } })).body.next_turn_at).toBeNull();
    const resumed = await app.api('PATCH', `/worlds/${world.id}`, { token: teacher.token, body: { status: 'active' } });
    expect(new Date(resumed.body.next_turn_at).getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
  });

  /**
   * The end, as POST /api/worlds/{id}/end writes it, held uncommitted on the world's row while
   * `request` runs: once the request waits for that row lock, the end commits. The request read
   * the world as running before it reached the row, so the race is decided the same way each run.
   */
  async function endWorldDuring(worldId: number, request: () => Promise<{ status: number; body: unknown }>) {
    let commitEnd!: () => void;
    const endHeld = new Promise<void>((resolve) => (commitEnd = resolve));
    let endWritten!: () => void;
    const written = new Promise<void>((resolve) => (endWritten = resolve));
    const ending = app.database.db.transaction(async (tx) => {
      await tx.execute(sql`update worlds set status = 'ended', ended_at = now(), next_turn_at = null where id = ${worldId}`);
      endWritten();
      await endHeld;
    });
    await written;
    const answer = request();
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const [waiting] = await app.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%worlds%'`,
      );
      if (Number(waiting?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    commitEnd();
    await ending;
    return answer;
  }

  it('keeps a world ended when the clock is saved, a join code drawn, a shock or an announcement added while it ends', async () => {
    const clocked = await createWorld({ name: 'Ends while saved', turn_interval_minutes: 30 });
    const saved = await endWorldDuring(clocked.id, () =>
      app.api('PATCH', `/worlds/${clocked.id}`, { token: teacher.token, body: { status: 'active', turn_interval_minutes: 15 } }),
    );
    expect(saved).toMatchObject({ status: 409, body: { error: 'This world has ended: it is read-only' } });
    // It was saved over the end: 'active' again, a next turn in 15 minutes, ended_at kept.
    expect((await app.api('GET', `/worlds/${clocked.id}`, { token: teacher.token })).body).toMatchObject({
      status: 'ended',
      next_turn_at: null,
      turn_interval_minutes: 30,
    });

    const coded = await createWorld({ name: 'Ends while coded' });
    const rotated = await endWorldDuring(coded.id, () => app.api('POST', `/worlds/${coded.id}/join-code`, { token: teacher.token }));
    expect(rotated).toMatchObject({ status: 409, body: { error: 'This world has ended: it is read-only' } });
    expect((await app.api('GET', `/worlds/${coded.id}`, { token: teacher.token })).body).toMatchObject({ status: 'ended', join_code: coded.join_code });

    // A price shock would have moved the ended world's prices at once.
    const shocked = await createWorld({ name: 'Ends while shocked' });
    const priceOf = async () => {
      const [row] = await app.database.db.execute<{ cents: number }>(
        sql`select current_price_cents as cents from world_products where world_id = ${shocked.id} and product_id = 1`,
      );
      return Number(row!.cents);
    };
    const before = await priceOf();
    const shock = await endWorldDuring(shocked.id, () =>
      app.api('POST', `/worlds/${shocked.id}/shocks`, { token: teacher.token, body: { kind: 'price', product_id: 1, percent: 50, weeks: 2 } }),
    );
    expect(shock).toMatchObject({ status: 409, body: { error: 'This world has ended: it is read-only' } });
    expect(await priceOf()).toBe(before);
    expect((await app.api('GET', `/worlds/${shocked.id}/shocks`, { token: teacher.token })).body).toEqual([]);

    const announced = await createWorld({ name: 'Ends while announced' });
    const announcement = await endWorldDuring(announced.id, () =>
      app.api('POST', `/worlds/${announced.id}/announcements`, { token: teacher.token, body: { message: 'Last week!' } }),
    );
    expect(announcement).toMatchObject({ status: 409, body: { error: 'This world has ended: it is read-only' } });
    const [news] = await app.database.db.execute<{ n: number }>(sql`select count(*)::int as n from world_announcements where world_id = ${announced.id}`);
    expect(Number(news!.n)).toBe(0);
  });

  it("saves the clock and announces while a player's action holds the world open", async () => {
    const world = await createWorld({ name: 'Busy class', turn_interval_minutes: 30 });
    // A player's action in a private world holds the world row `for key share` until it commits
    // (holdWorldOpen): only ending the world waits for it, never the clock or the news.
    let finishAction!: () => void;
    const actionDone = new Promise<void>((resolve) => (finishAction = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const action = app.database.db.transaction(async (tx) => {
      await tx.execute(sql`select status from worlds where id = ${world.id} for key share`);
      held();
      await actionDone;
    });
    await holding;
    try {
      // Waiting for the lock would last until the action ends: 15 s is only there to fail instead of hanging.
      const timeout = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 15_000));
      const paused = await Promise.race([app.api('PATCH', `/worlds/${world.id}`, { token: teacher.token, body: { status: 'paused' } }), timeout]);
      expect(paused).toMatchObject({ status: 200, body: { status: 'paused' } });
      const announced = await Promise.race([
        app.api('POST', `/worlds/${world.id}/announcements`, { token: teacher.token, body: { message: 'Quiz on Friday' } }),
        timeout,
      ]);
      expect(announced).toMatchObject({ status: 200 });
    } finally {
      finishAction();
      await action;
    }
  });

  it('refuses debrief product ids no product can have with a 400', async () => {
    const world = await createWorld({ name: 'Debrief' });
    const answer = await app.api('GET', `/worlds/${world.id}/debrief?product_ids=1,9999999999`, { token: teacher.token });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain('This id does not exist');
    expect((await app.api('GET', `/worlds/${world.id}/debrief?product_ids=1,2`, { token: teacher.token })).status).toBe(200);
  });

  it("refuses a student's and a stranger's instructor requests before reading the body: 403 and 404, never 400", async () => {
    const world = await createWorld({ name: 'Not yours' });
    const student = await app.createPlayer({ name: 'Curious student' });
    expect((await app.api('POST', '/worlds/join', { token: student.token, body: { code: world.join_code } })).status).toBe(200);
    const stranger = await app.createPlayer({ name: 'Passer-by' });
    const routes: Array<[string, string]> = [
      ['PATCH', `/worlds/${world.id}`],
      ['POST', `/worlds/${world.id}/shocks`],
      ['POST', `/worlds/${world.id}/announcements`],
      ['POST', `/worlds/${world.id}/co-instructors`],
      ['POST', `/worlds/${world.id}/assignments`],
      ['PUT', `/worlds/${world.id}/score-weights`],
      ['POST', `/worlds/${world.id}/teams/members`],
      ['POST', `/worlds/${world.id}/lti/link`],
    ];
    for (const [method, route] of routes) {
      for (const body of [{}, { status: 'bogus', percent: 'lots', title: '' }]) {
        const asStudent = await app.api(method, route, { token: student.token, body });
        expect([method, route, asStudent.status, asStudent.body.error]).toEqual([method, route, 403, "Only this world's instructors can do that"]);
        const asStranger = await app.api(method, route, { token: stranger.token, body });
        expect([method, route, asStranger.status]).toEqual([method, route, 404]);
      }
    }
    // The instructor's own bad body still gets the clear 400.
    const bad = await app.api('POST', `/worlds/${world.id}/shocks`, { token: teacher.token, body: {} });
    expect(bad.status).toBe(400);
  });
});
