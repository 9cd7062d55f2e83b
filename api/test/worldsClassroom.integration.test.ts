/**
 * Classroom worlds through the API (docs/worlds.md): creating a private world with validated
 * settings, joining it by code (unknown, ended and full worlds each say so; 429 after 10 wrong codes
 * in 10 minutes), the instructor's routes refused to students (403) and hidden from outsiders (404),
 * and the CSV downloads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

describe('classroom worlds', () => {
  let app: TestApp;
  let teacher: TestPlayer;
  let student: TestPlayer;
  let outsider: TestPlayer;
  let world: { id: number; join_code: string };

  beforeAll(async () => {
    // The address of a request is its X-Forwarded-For (one trusted proxy), so a test can speak from several.
    app = await startTestApp({ env: { TRUST_PROXY_HOPS: '1' } });
    teacher = await app.createPlayer({ name: 'Teacher' });
    student = await app.createPlayer({ name: 'Student' });
    outsider = await app.createPlayer({ name: 'Outsider' });
    const created = await app.api('POST', '/worlds', {
      token: teacher.token,
      body: { name: 'Micro 201', turn_interval_minutes: 5, starting_cash: 250000, bots: 2, seed: 42, max_players: 2 },
    });
    expect(created.status).toBe(200);
    world = created.body;
  });
  afterAll(async () => {
    await app.close();
  });

  it('creates a private world with its instructor, code, clock and settings', async () => {
    const view = await app.api('GET', `/worlds/${world.id}`, { token: teacher.token });
    expect(view.body).toMatchObject({
      name: 'Micro 201',
      kind: 'private',
      status: 'active',
      current_week: 1,
      turn_interval_minutes: 5,
      starting_cash: 250_000,
      bots: 2,
      max_players: 2,
      players: 0,
      role: 'instructor',
      joined: false,
    });
    expect(view.body.join_code).toMatch(/^[A-Z2-9]{8}$/);
    expect(new Date(view.body.next_turn_at).getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);
  });

  it('refuses bad settings with clear messages', async () => {
    const bad = async (body: Record<string, unknown>) => (await app.api('POST', '/worlds', { token: teacher.token, body: { name: 'X', ...body } })).body.error;
    expect(await bad({ turn_interval_minutes: 0 })).toBe('Turn interval must be between 1 and 1440 minutes');
    expect(await bad({ turn_interval_minutes: 1441 })).toBe('Turn interval must be between 1 and 1440 minutes');
    expect(await bad({ turn_interval_minutes: 2.5 })).toBe('Turn interval must be a whole number of minutes');
    expect(await bad({ bots: 26 })).toBe('Bots must be between 0 and 25');
    expect(await bad({ starting_cash: 10 })).toBe('Starting cash must be between $1,000 and $10,000,000');
    expect(await bad({ name: '   ' })).toBe('World name cannot be empty');
    const shock = await app.api('POST', `/worlds/${world.id}/shocks`, { token: teacher.token, body: { kind: 'price', product_id: 1, percent: 500, weeks: 3 } });
    expect(shock.status).toBe(400);
    expect(shock.body.error).toBe('Percent must be between -90 and +200');
    const weeks = await app.api('POST', `/worlds/${world.id}/shocks`, {
      token: teacher.token,
      body: { kind: 'tax_rate', country_id: 1, percent: 10, weeks: 0 },
    });
    expect(weeks.body.error).toBe('Weeks must be between 1 and 52');
    const target = await app.api('POST', `/worlds/${world.id}/shocks`, { token: teacher.token, body: { kind: 'demand', percent: 10, weeks: 2 } });
    expect(target.body.error).toBe('Choose the product the shock changes');
    // Control characters never reach the database (PostgreSQL refuses NUL: that was a 500).
    const nul = await app.api('POST', '/worlds/join', { token: teacher.token, body: { code: 'a\u0000b' } });
    expect(nul.status).toBe(400);
    expect(nul.body.error).toBe('A join code has only letters and digits');
    const name = await app.api('POST', '/worlds/join', { token: teacher.token, body: { code: 'ABCDEFGH', company_name: 'Bad\u0000Co' } });
    expect(name.status).toBe(400);
  });

  it('hides a private world from outsiders (404) and keeps its tools from students (403)', async () => {
    expect((await app.api('GET', `/worlds/${world.id}`, { token: outsider.token })).status).toBe(404);
    expect((await app.api('PUT', '/session/world', { token: outsider.token, body: { world_id: world.id } })).status).toBe(404);
    expect((await app.api('GET', `/worlds/${world.id}/companies`, { token: outsider.token })).status).toBe(404);
    const listed = await app.api<Array<{ id: number }>>('GET', '/worlds', { token: outsider.token });
    expect(listed.body.map((row) => row.id)).toEqual([1]);

    const joined = await app.api('POST', '/worlds/join', { token: student.token, body: { code: world.join_code.toLowerCase().replace(/(.{4})/, '$1-') } });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ id: world.id, role: 'player', joined: true, join_code: null });
    for (const [method, path] of [
      ['GET', `/worlds/${world.id}/companies`],
      ['POST', `/worlds/${world.id}/end`],
      ['POST', `/worlds/${world.id}/join-code`],
      ['GET', `/worlds/${world.id}/export/transactions`],
    ] as const) {
      const answer = await app.api(method, path, { token: student.token });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.error).toBe("Only this world's instructors can do that");
    }
    expect((await app.api('GET', `/worlds/${world.id}/export/transactions.csv`, { token: outsider.token })).status).toBe(404);
  });

  it('joins once per user; a full world and an ended world say which', async () => {
    const again = await app.api('POST', '/worlds/join', { token: student.token, body: { code: world.join_code } });
    expect(again.status).toBe(200);
    expect(again.body.players).toBe(1);
    const second = await app.createPlayer({ name: 'Second' });
    expect((await app.api('POST', '/worlds/join', { token: second.token, body: { code: world.join_code } })).status).toBe(200);
    const third = await app.createPlayer({ name: 'Third' });
    const full = await app.api('POST', '/worlds/join', { token: third.token, body: { code: world.join_code } });
    expect(full.status).toBe(409);
    expect(full.body.error).toBe('This world is full: ask your instructor to raise its player limit');

    const small = await app.api('POST', '/worlds', { token: teacher.token, body: { name: 'Ended class', bots: 0 } });
    expect((await app.api('POST', `/worlds/${small.body.id}/end`, { token: teacher.token })).body.status).toBe('ended');
    const ended = await app.api('POST', '/worlds/join', { token: third.token, body: { code: small.body.join_code } });
    expect(ended.status).toBe(409);
    expect(ended.body.error).toBe('This world has ended: it is read-only');
  });

  it('rotates the join code, and downloads CSV files', async () => {
    const rotated = await app.api('POST', `/worlds/${world.id}/join-code`, { token: teacher.token });
    expect(rotated.body.join_code).not.toBe(world.join_code);
    const late = await app.createPlayer({ name: 'Late' });
    expect((await app.api('POST', '/worlds/join', { token: late.token, body: { code: world.join_code } })).status).toBe(404);

    // The student buys wheat in the class world: the transactions file has the row.
    await app.api('PUT', '/session/world', { token: student.token, body: { world_id: world.id } });
    const goods = await app.api<Array<{ id: number; name: string }>>('GET', '/goods', { token: student.token });
    const wheat = goods.body.find((good) => good.name === 'Wheat')!;
    expect((await app.api('POST', '/market/trade', { token: student.token, body: { product_id: wheat.id, quantity: 10, action: 'buy' } })).status).toBe(200);
    const response = await fetch(`${app.baseUrl}/api/worlds/${world.id}/export/transactions.csv`, { headers: { authorization: `Bearer ${teacher.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="micro-201-world-${world.id}-transactions.csv"`);
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toBe('id,week,company_id,company,type,reason,amount,description,created_at');
    expect(lines.filter((line) => line.includes(',purchase,market_buy,'))).toHaveLength(1);
  });
  it('answers 429 after 10 wrong join codes in 10 minutes, for the user and for the address', async () => {
    const guesser = await app.createPlayer({ name: 'Guesser' });
    const from = (address: string) => ({ 'x-forwarded-for': address });
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const wrong = await app.api('POST', '/worlds/join', { token: guesser.token, headers: from('10.0.0.1'), body: { code: `WRONG${attempt}` } });
      expect(wrong.status, `attempt ${attempt}`).toBe(404);
      expect(wrong.body.error).toBe('No world has this join code');
    }
    const limited = await app.api('POST', '/worlds/join', { token: guesser.token, headers: from('10.0.0.1'), body: { code: world.join_code } });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('Too many wrong join codes: try again in 10 minutes');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same user from another address, and another user from the same address, are limited too.
    expect((await app.api('POST', '/worlds/join', { token: guesser.token, headers: from('10.0.0.2'), body: { code: 'ANYTHING' } })).status).toBe(429);
    const friend = await app.createPlayer({ name: 'Friend' });
    expect((await app.api('POST', '/worlds/join', { token: friend.token, headers: from('10.0.0.1'), body: { code: 'ANYTHING' } })).status).toBe(429);
    // Someone else elsewhere is not.
    expect((await app.api('POST', '/worlds/join', { token: friend.token, headers: from('10.0.0.3'), body: { code: 'ANYTHING' } })).status).toBe(404);
    // The game's own machine is no one address: a guesser there is limited, its other players are not.
    const console = await app.createPlayer({ name: 'Console guesser' });
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect((await app.api('POST', '/worlds/join', { token: console.token, headers: from('127.0.0.1'), body: { code: `LOCAL${attempt}` } })).status).toBe(404);
    }
    expect((await app.api('POST', '/worlds/join', { token: console.token, headers: from('127.0.0.1'), body: { code: 'ANYTHING' } })).status).toBe(429);
    // A classmate on the same machine is still told the truth about a code (404, not 429).
    const classmate = await app.createPlayer({ name: 'Console classmate' });
    const told = await app.api('POST', '/worlds/join', { token: classmate.token, headers: from('127.0.0.1'), body: { code: 'ANYTHING' } });
    expect(told).toMatchObject({ status: 404, body: { error: 'No world has this join code' } });
  });
});
