/**
 * Teams in class worlds (docs/classroom.md, "Teams"): students join a company's team by the world's
 * code and its team code, every member (and every member's token) acts for the team's company, the
 * instructor places, moves and removes students, concurrent joins of a full team admit at most its
 * size, and a student never sees another team's members or team code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '@marketcraft/db';
import { PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

/** Resolves once `count` statements of this test's database wait for a lock; throws after about 10 seconds. */
async function untilStatementsWaitForLocks(db: Database, count: number): Promise<void> {
  for (let tries = 0; tries < 500; tries += 1) {
    const [waiting] = await db.execute<{ count: number }>(
      sql`select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (Number(waiting!.count) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${count} statements never waited for a lock together`);
}

describe('teams in a class world', () => {
  let app: TestApp;
  let db: Database;
  let teacher: TestPlayer;
  let ana: TestPlayer;
  let ben: TestPlayer;
  let cleo: TestPlayer;
  let outsider: TestPlayer;
  let world: { id: number; join_code: string };
  let anaTeam: { company_id: number; team_code: string };
  let cleoTeam: { company_id: number; team_code: string };

  const inWorld = async (player: TestPlayer) => {
    const switched = await app.api('PUT', '/session/world', { token: player.token, body: { world_id: world.id } });
    expect(switched.status).toBe(200);
  };
  const teams = (player: TestPlayer) => app.api('GET', `/worlds/${world.id}/teams`, { token: player.token });
  const join = (player: TestPlayer, body: Record<string, unknown>) =>
    app.api('POST', '/worlds/join', { token: player.token, body: { code: world.join_code, ...body } });
  const answerer = async (companyId: number) =>
    (await db.execute<{ user_id: number | null; status: string }>(sql`select user_id, status from companies where id = ${companyId}`))[0]!;

  beforeAll(async () => {
    app = await startTestApp({ env: { TRUST_PROXY_HOPS: '1' } });
    db = app.database.db;
    teacher = await app.createPlayer();
    [ana, ben, cleo, outsider] = [await app.createPlayer(), await app.createPlayer(), await app.createPlayer(), await app.createPlayer()];
    const created = await app.api('POST', '/worlds', { token: teacher.token, body: { name: 'Strategy 310', bots: 1, seed: 7, team_size: 3 } });
    expect(created.status).toBe(200);
    expect(created.body.team_size).toBe(3);
    world = created.body;
  });
  afterAll(async () => {
    await app.close();
  });

  it('validates the team size', async () => {
    const big = await app.api('PATCH', `/worlds/${world.id}`, { token: teacher.token, body: { team_size: 7 } });
    expect(big.status).toBe(400);
    expect(big.body.error).toBe('Team size must be between 1 and 6');
    const created = await app.api('POST', '/worlds', { token: teacher.token, body: { name: 'X', team_size: 0 } });
    expect(created.body.error).toBe('Team size must be between 1 and 6');
    const publicWorld = await app.api('PATCH', '/worlds/1', { token: teacher.token, body: { team_size: 2 } });
    expect(publicWorld.status).toBe(403);
  });

  it('gives the first student a team of their own with a team code, and a teammate joins it by that code', async () => {
    expect((await join(ana, { company_name: 'Ana Works' })).status).toBe(200);
    const own = await teams(ana);
    expect(own.status).toBe(200);
    expect(own.body.team_size).toBe(3);
    expect(own.body.teams).toHaveLength(1);
    anaTeam = own.body.teams[0];
    expect(anaTeam.team_code).toMatch(/^[A-Z2-9]{6}$/);
    expect(own.body.teams[0]).toMatchObject({
      company_name: 'Ana Works',
      status: 'active',
      members: [{ user_id: ana.userId, role: null, joined_week: 1, is_you: true }],
    });

    // Typed loosely (lower case, a dash): still the code.
    const joined = await join(ben, { team_code: `${anaTeam.team_code.slice(0, 3).toLowerCase()}-${anaTeam.team_code.slice(3)}` });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ id: world.id, joined: true, players: 1 });
    const both = await teams(ben);
    expect(both.body.teams.map((team: { company_id: number }) => team.company_id)).toEqual([anaTeam.company_id]);
    expect(both.body.teams[0].members.map((member: { user_id: number }) => member.user_id)).toEqual([ana.userId, ben.userId]);
    // Joining one's own team again just answers the world.
    expect((await join(ben, { team_code: anaTeam.team_code })).status).toBe(200);
  });

  it('lets every member act for the team, from the website and with their personal API token', async () => {
    await inWorld(ben);
    const company = await app.api('GET', '/company', { token: ben.token });
    expect(company.body).toMatchObject({ id: anaTeam.company_id, name: 'Ana Works' });
    const edited = await app.api('PATCH', '/company/profile', { token: ben.token, body: { name: 'Ana Works', bio: 'Ben wrote this' } });
    expect(edited.body).toMatchObject({ bio: 'Ben wrote this' });
    await inWorld(ana);
    expect((await app.api('GET', '/company', { token: ana.token })).body).toMatchObject({ id: anaTeam.company_id, bio: 'Ben wrote this' });

    const created = await app.api('POST', '/tokens', { token: ben.token, body: { name: 'team script', scope: 'manage' } });
    expect(created.status).toBe(200);
    const headers = { 'x-world-id': String(world.id) };
    const viaToken = await app.api('PATCH', '/company/profile', { token: created.body.token, headers, body: { name: 'Ana Works', bio: 'Ben scripted this' } });
    expect(viaToken.status).toBe(200);
    expect(viaToken.body).toMatchObject({ id: anaTeam.company_id, bio: 'Ben scripted this' });
  });

  it("shows the instructor each member's share of the team's actions and a timeline, and nobody else", async () => {
    // One refused action of Ben's (a name another company holds): shown apart, not in his share.
    expect((await join(cleo, { company_name: 'Cleo Co' })).status).toBe(200);
    const refused = await app.api('PATCH', '/company/profile', { token: ben.token, body: { name: 'Cleo Co' } });
    expect(refused.status).toBe(409);
    const answer = await app.api('GET', `/worlds/${world.id}/contributions`, { token: teacher.token });
    expect(answer.status).toBe(200);
    const team = answer.body.teams.find((candidate: { company_id: number }) => candidate.company_id === anaTeam.company_id);
    // Ana founded the company (1 action), Ben edited its profile twice (website and token).
    expect(team).toEqual({
      company_id: anaTeam.company_id,
      company_name: 'Ana Works',
      actions: 3,
      members: [
        { user_id: ana.userId, email: ana.email, name: null, is_member: true, actions: 1, refused: 0, share_percent: 33.3 },
        { user_id: ben.userId, email: ben.email, name: null, is_member: true, actions: 2, refused: 1, share_percent: 66.7 },
      ],
      timeline: [
        {
          week: 1,
          actions: [
            { user_id: ana.userId, actions: 1 },
            { user_id: ben.userId, actions: 2 },
          ],
        },
      ],
    });
    // Students (even of the team) and outsiders never read it.
    for (const [player, status] of [
      [ana, 403],
      [cleo, 403],
      [outsider, 404],
    ] as const) {
      expect((await app.api('GET', `/worlds/${world.id}/contributions`, { token: player.token })).status).toBe(status);
    }
  });

  it('admits at most the team size when students join a full team at once', async () => {
    const racers = await Promise.all([1, 2, 3, 4].map(() => app.createPlayer()));
    // All four in flight at once: the team's company row is held, so every join that gets as far as
    // writing its seat (its foreign key reads that row) waits here; the rest wait for the world's row.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from companies where world_id = ${world.id} and id = ${anaTeam.company_id} for update`);
      held();
      await released;
    });
    await holding;
    const answering = Promise.all(racers.map((racer) => join(racer, { team_code: anaTeam.team_code })));
    await untilStatementsWaitForLocks(db, racers.length);
    release();
    await holder;
    const answers = await answering;
    const admitted = answers.filter((answer) => answer.status === 200);
    expect(admitted).toHaveLength(1); // Ana and Ben, and one more of a team of 3
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe('This team is full: a team of this world has at most 3 members');
    }
    const [count] = await db.execute<{ members: number }>(
      sql`select count(*)::int as members from company_members where world_id = ${world.id} and company_id = ${anaTeam.company_id}`,
    );
    expect(count!.members).toBe(3);
    // The one admitted leaves again (a member who is not the last may go).
    const third = racers[answers.findIndex((answer) => answer.status === 200)]!;
    const left = await app.api('DELETE', `/worlds/${world.id}/teams/members/${third.userId}`, { token: third.token });
    expect(left.body).toEqual({ team_size: 3, teams: [] });
  });

  it("never shows a student another team's members or code, and keeps the instructor's tools from them", async () => {
    const own = await teams(cleo);
    expect(own.body.teams).toHaveLength(1);
    cleoTeam = own.body.teams[0];
    expect(JSON.stringify(own.body)).not.toContain(anaTeam.team_code);
    expect(JSON.stringify(own.body)).not.toContain(ana.email);
    // Their session reads their own company's private figures, never the other team's.
    await inWorld(cleo);
    expect((await app.api('GET', '/company', { token: cleo.token })).body).toMatchObject({ id: cleoTeam.company_id, name: 'Cleo Co' });
    // Another team's member: not found for a role, not theirs to remove.
    const role = await app.api('PATCH', `/worlds/${world.id}/teams/members/${ana.userId}`, { token: cleo.token, body: { role: 'ceo' } });
    expect(role.status).toBe(404);
    expect(role.body.error).toBe('No member of your team has this id');
    const remove = await app.api('DELETE', `/worlds/${world.id}/teams/members/${ana.userId}`, { token: cleo.token });
    expect(remove.status).toBe(403);
    expect(remove.body.error).toBe('You can leave your team, not remove a teammate: ask your instructor');
    const assign = await app.api('POST', `/worlds/${world.id}/teams/members`, {
      token: cleo.token,
      body: { email: cleo.email, company_id: anaTeam.company_id },
    });
    expect(assign.status).toBe(403);
    // Already in a team: another team's code does not move them.
    const hop = await join(cleo, { team_code: anaTeam.team_code });
    expect(hop.status).toBe(409);
    expect(hop.body.error).toBe('You already play in this world: ask your instructor to move you to another team');
    // Outsiders do not learn the world exists.
    expect((await teams(outsider)).status).toBe(404);
    const wrong = await join(outsider, { team_code: 'ZZZZZZ' });
    expect(wrong.status).toBe(404);
    expect(wrong.body.error).toBe('No team in this world has this team code');
    expect((await db.execute(sql`select 1 from company_members where world_id = ${world.id} and user_id = ${outsider.userId}`)).length).toBe(0);
  });

  it('lets the instructor see every team, label roles, move and remove members, and the companies keep running', async () => {
    const all = await teams(teacher);
    expect(all.body.teams.map((team: { company_id: number }) => team.company_id)).toEqual([anaTeam.company_id, cleoTeam.company_id]);
    const labelled = await app.api('PATCH', `/worlds/${world.id}/teams/members/${ana.userId}`, { token: ben.token, body: { role: 'ceo' } });
    expect(labelled.status).toBe(200);
    expect(labelled.body.teams[0].members[0]).toMatchObject({ user_id: ana.userId, role: 'ceo' });
    const badRole = await app.api('PATCH', `/worlds/${world.id}/teams/members/${ana.userId}`, { token: ben.token, body: { role: 'boss' } });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error).toBe('Choose a role: ceo, operations, finance or sales');

    // Ana (the founder) moves to Cleo's team: Ben answers for Ana Works now, and it keeps running.
    const moved = await app.api('POST', `/worlds/${world.id}/teams/members`, {
      token: teacher.token,
      body: { email: ana.email, company_id: cleoTeam.company_id, role: 'finance' },
    });
    expect(moved.status).toBe(200);
    expect(await answerer(anaTeam.company_id)).toEqual({ user_id: ben.userId, status: 'active' });
    expect((await app.api('GET', '/company', { token: ana.token })).body).toMatchObject({ id: cleoTeam.company_id, name: 'Cleo Co' });

    // The last member cannot walk away on their own; the instructor can remove them.
    const last = await app.api('DELETE', `/worlds/${world.id}/teams/members/${ben.userId}`, { token: ben.token });
    expect(last.status).toBe(409);
    const removed = await app.api('DELETE', `/worlds/${world.id}/teams/members/${ben.userId}`, { token: teacher.token });
    expect(removed.status).toBe(200);
    const left = removed.body.teams.find((team: { company_id: number }) => team.company_id === anaTeam.company_id);
    expect(left).toMatchObject({ status: 'active', members: [] });
    expect(await answerer(anaTeam.company_id)).toEqual({ user_id: null, status: 'active' });
    // Ben was playing in the class on the website: his session is back in the public world (his own
    // company there), and a session still pointing at the class (one that switched while the removal
    // ran) cannot found a company in it without the join code.
    expect((await app.api('GET', '/session/world', { token: ben.token })).body).toMatchObject({ id: PUBLIC_WORLD_ID });
    expect((await app.api('GET', '/company', { token: ben.token })).body.id).not.toBe(anaTeam.company_id);
    await db.execute(sql`update sessions set current_world_id = ${world.id} where user_id = ${ben.userId}`);
    expect((await app.api('GET', '/company', { token: ben.token })).status).toBe(404);
    expect(await app.api('POST', '/company', { token: ben.token, body: {} })).toMatchObject({ status: 404, body: { error: 'World not found' } });
    const [bens] = await db.execute<{ count: number }>(
      sql`select count(*)::int as count from companies where world_id = ${world.id} and user_id = ${ben.userId}`,
    );
    expect(bens!.count).toBe(0);

    // A newcomer with the team code takes over the company nobody ran.
    const dan = await app.createPlayer();
    expect((await join(dan, { team_code: anaTeam.team_code })).status).toBe(200);
    expect(await answerer(anaTeam.company_id)).toEqual({ user_id: dan.userId, status: 'active' });

    // A full team refuses the instructor too.
    await app.api('PATCH', `/worlds/${world.id}`, { token: teacher.token, body: { team_size: 2 } });
    const full = await app.api('POST', `/worlds/${world.id}/teams/members`, {
      token: teacher.token,
      body: { email: dan.email, company_id: cleoTeam.company_id },
    });
    expect(full.status).toBe(409);
    expect(full.body.error).toBe('This team is full: a team of this world has at most 2 members');
    expect(await answerer(anaTeam.company_id)).toEqual({ user_id: dan.userId, status: 'active' });
  });
});
