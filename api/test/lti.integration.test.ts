/**
 * LTI 1.3 end to end over HTTP against a course platform written for the tests
 * (helpers/ltiPlatform.ts): registration, OIDC login, launches that sign instructors and learners
 * into the course's class world, deep linking, grade passback (AGS) and the roster (NRPS), and the
 * launches that must be refused with nothing created.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { findSetCookie, rawRequest } from './helpers/authHttp.ts';
import { INSTRUCTOR_ROLE, LEARNER_ROLE, readAutoSubmitForm, startTestPlatform, type TestPlatform } from './helpers/ltiPlatform.ts';
import { ltiBrowser } from './helpers/ltiBrowser.ts';

type LtiBrowser = ReturnType<typeof ltiBrowser>;
import { SESSION_COOKIE_NAME } from '../src/auth/session.ts';
import { LTI_STATE_COOKIE } from '../src/lti/routes.ts';
import { LTI_MESSAGES } from '../src/lti/launch.ts';
import { LTI_PLATFORM_MESSAGES } from '../src/lti/platforms.ts';
import { rotateToolKey } from '@marketcraft/db/lti/keys.ts';
import { pruneExpiredAuthRows } from '../src/auth/housekeeping.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('LTI 1.3 launch from a course platform', () => {
  let app: TestApp;
  let platform: TestPlatform;
  let admin: Awaited<ReturnType<TestApp['createPlayer']>>;

  beforeAll(async () => {
    app = await startTestApp();
    platform = await startTestPlatform({ toolBaseUrl: app.baseUrl });
    platform.users.set('hint-teacher', { sub: 'teacher-1', name: 'Ada Teacher', email: 'ada@school.test', roles: [INSTRUCTOR_ROLE] });
    platform.users.set('hint-bea', { sub: 'student-1', name: 'Bea Student', email: 'bea@school.test', roles: [LEARNER_ROLE] });
    platform.users.set('hint-cy', { sub: 'student-2', name: 'Cy Student', email: 'cy@school.test', roles: [LEARNER_ROLE] });
    admin = await app.createPlayer({ isAdmin: true });
    ({ startLaunch, postForm, launchAs, sessionOf } = ltiBrowser(app, platform));
  }, 60_000);
  afterAll(async () => {
    await platform?.close();
    await app?.close();
  });

  /** What a launch may have created: accounts, class worlds, platform users. */
  async function created() {
    const [row] = await app.database.db.execute<{ users: number; worlds: number; lti_users: number; companies: number }>(sql`
      select (select count(*) from users)::int as users, (select count(*) from worlds)::int as worlds,
             (select count(*) from lti_users)::int as lti_users, (select count(*) from companies where not is_bot)::int as companies`);
    return row!;
  }

  // The browser's part of a launch (helpers/ltiBrowser.ts), bound in beforeAll.
  let startLaunch: LtiBrowser['startLaunch'];
  let postForm: LtiBrowser['postForm'];
  let launchAs: LtiBrowser['launchAs'];
  let sessionOf: LtiBrowser['sessionOf'];

  it('registers a platform: admins and instructors only, each platform once, with clear validation', async () => {
    const student = await app.createPlayer();
    const refused = await app.api('POST', '/lti/platforms', { token: student.token, body: platform.registration });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(LTI_PLATFORM_MESSAGES.instructorsOnly);
    // Whatever the body: the route is not theirs (a 400 first answered for the route).
    for (const body of [{}, { issuer: 'not a url' }]) {
      const empty = await app.api('POST', '/lti/platforms', { token: student.token, body });
      expect([empty.status, empty.body.error]).toEqual([403, LTI_PLATFORM_MESSAGES.instructorsOnly]);
    }

    const badUrl = await app.api('POST', '/lti/platforms', { token: admin.token, body: { ...platform.registration, jwks_url: 'not a url' } });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error).toContain('Keyset (JWKS) URL must be an http(s) address');

    const registered = await app.api('POST', '/lti/platforms', { token: admin.token, body: platform.registration });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ issuer: platform.issuer, client_id: platform.clientId, deployment_ids: [platform.deploymentId] });

    const again = await app.api('POST', '/lti/platforms', { token: admin.token, body: platform.registration });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(LTI_PLATFORM_MESSAGES.alreadyRegistered);

    const config = await app.api('GET', '/lti/config');
    expect(config.body).toEqual({
      login_url: `${app.baseUrl}/api/lti/login`,
      launch_url: `${app.baseUrl}/api/lti/launch`,
      jwks_url: `${app.baseUrl}/api/lti/jwks`,
      deep_link_url: `${app.baseUrl}/api/lti/deep-link`,
    });
  });

  it('refuses a learner before the instructor has opened the course, creating nothing', async () => {
    const before = await created();
    const answer = await launchAs('hint-bea');
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe(LTI_MESSAGES.courseNotOpened);
    expect(await created()).toEqual(before);
  });

  let worldId: number;
  it("signs the instructor in on the first launch (no password) and creates the course's class world", async () => {
    const before = await created();
    const answer = await launchAs('hint-teacher');
    expect(answer.status).toBe(303);
    const { user, token } = await sessionOf(answer);
    expect(user).toMatchObject({ isAdmin: false });
    const [account] = await app.database.db.execute<{ password_hash: string | null; name: string }>(
      sql`select u.password_hash, l.name from users u join lti_users l on l.user_id = u.id where u.id = ${user.id}`,
    );
    expect(account).toEqual({ password_hash: null, name: 'Ada Teacher' });
    worldId = Number(/\/worlds\/(\d+)\/manage$/.exec(answer.headers.location!)![1]);
    const world = await app.api('GET', `/worlds/${worldId}`, { token });
    expect(world.body).toMatchObject({ name: 'Economics 101', role: 'instructor', kind: 'private' });
    expect(await created()).toMatchObject({ users: before.users + 1, worlds: before.worlds + 1 });

    // A second launch signs the same account in again.
    const again = await launchAs('hint-teacher');
    expect(again.status).toBe(303);
    expect((await sessionOf(again)).user.id).toBe(user.id);
    expect(await created()).toMatchObject({ users: before.users + 1, worlds: before.worlds + 1 });
  });

  it("places learners in the course's world with a company of their own", async () => {
    for (const hint of ['hint-bea', 'hint-cy']) {
      const answer = await launchAs(hint);
      expect(answer.status).toBe(303);
      expect(answer.headers.location).toBe('/');
      const { token } = await sessionOf(answer);
      const world = await app.api('GET', `/worlds/${worldId}`, { token });
      expect(world.body).toMatchObject({ id: worldId, role: 'player', joined: true });
    }
    const [players] = await app.database.db.execute<{ players: number }>(
      sql`select count(*)::int as players from companies where world_id = ${worldId} and not is_bot`,
    );
    expect(players!.players).toBe(2);
  });

  it('two first launches of a new learner at once make one account and one company', async () => {
    platform.users.set('hint-gus', { sub: 'student-double-click', name: 'Gus Quick', email: 'gus@school.test', roles: [LEARNER_ROLE] });
    const launches = [await startLaunch('hint-gus'), await startLaunch('hint-gus')];
    const before = await created();
    const answers = await Promise.all(launches.map((started) => postForm(started.action, started.fields, started.stateCookie)));
    expect(answers.map((answer) => answer.status)).toEqual([303, 303]);
    const ids = await Promise.all(answers.map(async (answer) => (await sessionOf(answer)).user.id));
    expect(ids[0]).toBe(ids[1]);
    expect(await created()).toMatchObject({ users: before.users + 1, companies: before.companies + 1, lti_users: before.lti_users + 1 });
  });

  describe('refuses bad launches with a clear error, creating nothing', () => {
    beforeAll(() => {
      platform.users.set('hint-dee', { sub: 'student-3', name: 'Dee Newcomer', email: 'dee@school.test', roles: [LEARNER_ROLE] });
    });

    it('a replayed launch (the same id_token and state again)', async () => {
      const started = await startLaunch('hint-dee');
      const first = await postForm(started.action, started.fields, started.stateCookie);
      expect(first.status).toBe(303);
      const before = await created();
      const replay = await postForm(started.action, started.fields, started.stateCookie);
      expect(replay.status).toBe(400);
      expect(replay.body.error).toBe(LTI_MESSAGES.stateUnknown);
      expect(replay.setCookies.some((line) => line.startsWith(`${SESSION_COOKIE_NAME}=`))).toBe(false);
      expect(await created()).toEqual(before);
    });

    it("a replayed id_token under a fresh login (its nonce is not the new login's)", async () => {
      const original = await startLaunch('hint-dee');
      const fresh = await startLaunch('hint-dee');
      const before = await created();
      const answer = await postForm(fresh.action, { id_token: original.fields.id_token!, state: fresh.fields.state! }, fresh.stateCookie);
      expect(answer.status).toBe(403);
      expect(answer.body.error).toBe(LTI_MESSAGES.nonceMismatch);
      expect(await created()).toEqual(before);
    });

    const cases: { name: string; prepare: () => void; status: number; message: string }[] = [
      {
        name: 'a wrong audience',
        prepare: () => (platform.tamperNextToken = (claims) => ({ ...claims, aud: 'another-tool' })),
        status: 403,
        message: LTI_MESSAGES.wrongAudience,
      },
      {
        name: 'several audiences without us as the authorized party',
        prepare: () => (platform.tamperNextToken = (claims) => ({ ...claims, aud: [platform.clientId, 'another-tool'], azp: 'another-tool' })),
        status: 403,
        message: LTI_MESSAGES.wrongAudience,
      },
      {
        name: 'an expired token',
        prepare: () => (platform.tamperNextToken = (claims) => ({ ...claims, exp: Math.floor(Date.now() / 1000) - 600 })),
        status: 403,
        message: LTI_MESSAGES.expired,
      },
      {
        name: 'an unknown deployment',
        prepare: () =>
          (platform.tamperNextToken = (claims) => ({ ...claims, 'https://purl.imsglobal.org/spec/lti/claim/deployment_id': 'deployment-unknown' })),
        status: 403,
        message: LTI_MESSAGES.unknownDeployment,
      },
      { name: 'a bad signature', prepare: () => (platform.forgeNextSignature = true), status: 403, message: LTI_MESSAGES.badSignature },
      {
        name: 'another issuer',
        prepare: () => (platform.tamperNextToken = (claims) => ({ ...claims, iss: 'https://evil.example' })),
        status: 403,
        message: LTI_MESSAGES.wrongIssuer,
      },
      {
        name: 'another message type at the launch address',
        prepare: () =>
          (platform.tamperNextToken = (claims) => ({ ...claims, 'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiSubmissionReviewRequest' })),
        status: 400,
        message: LTI_MESSAGES.wrongMessageType,
      },
    ];
    for (const testCase of cases) {
      it(testCase.name, async () => {
        platform.users.set('hint-eve', { sub: `student-eve-${testCase.name}`, name: 'Eve', email: 'eve@school.test', roles: [LEARNER_ROLE] });
        testCase.prepare();
        const before = await created();
        const answer = await launchAs('hint-eve');
        expect(answer.status).toBe(testCase.status);
        expect(answer.body.error).toBe(testCase.message);
        expect(await created()).toEqual(before);
      });
    }

    it('a launch posted from a browser that did not start the login', async () => {
      const started = await startLaunch('hint-dee');
      const answer = await postForm(started.action, started.fields, 'someone-elses-state');
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(LTI_MESSAGES.stateNotThisBrowser);
    });

    it('a login from an unregistered platform', async () => {
      const answer = await rawRequest(
        app.baseUrl,
        'GET',
        `/api/lti/login?${new URLSearchParams({ iss: 'https://unknown.example', login_hint: 'x', target_link_uri: `${app.baseUrl}/api/lti/launch` })}`,
      );
      expect(answer.status).toBe(404);
      expect(answer.body.error).toBe(LTI_MESSAGES.unknownPlatform);
    });

    it('shows a browser the refusal as a page', async () => {
      const started = await startLaunch('hint-dee');
      platform.forgeNextSignature = false;
      const answer = await postForm(started.action, { ...started.fields, state: 'unknown-state' }, 'unknown-state', 'text/html');
      expect(answer.status).toBe(400);
      expect(String(answer.body)).toContain('open Marketcraft again from your course');
    });
  });

  it('never signs anyone in as a user of another issuer: the same sub from another platform is another account', async () => {
    const teacher = (await sessionOf(await launchAs('hint-teacher'))).token;
    const other = await startTestPlatform({ toolBaseUrl: app.baseUrl, name: 'moodle' });
    try {
      // The instructor registers their own platform, which claims the sub of a learner of the first.
      const registered = await app.api('POST', '/lti/platforms', { token: teacher, body: other.registration });
      expect(registered.status).toBe(201);
      const mine = await app.api('GET', '/lti/platforms', { token: teacher });
      expect(mine.body.map((row: { issuer: string }) => row.issuer)).toEqual([other.issuer]);
      other.users.set('impostor-teacher', { sub: 'teacher-x', name: 'Mallory', email: 'm@evil.test', roles: [INSTRUCTOR_ROLE] });
      other.users.set('impostor', { sub: 'student-1', name: 'Bea Student', email: 'bea@school.test', roles: [LEARNER_ROLE] });
      const originalBea = (await sessionOf(await launchAs('hint-bea'))).user.id;

      const login = await rawRequest(
        app.baseUrl,
        'GET',
        `/api/lti/login?${new URLSearchParams({ iss: other.issuer, client_id: other.clientId, login_hint: 'impostor-teacher', target_link_uri: `${app.baseUrl}/api/lti/launch` })}`,
      );
      const page = readAutoSubmitForm(await (await fetch(login.headers.location!)).text());
      const teacherAnswer = await postForm(page.action, page.fields, findSetCookie(login.setCookies, LTI_STATE_COOKIE)!.value);
      expect(teacherAnswer.status).toBe(303);

      const login2 = await rawRequest(
        app.baseUrl,
        'GET',
        `/api/lti/login?${new URLSearchParams({ iss: other.issuer, client_id: other.clientId, login_hint: 'impostor', target_link_uri: `${app.baseUrl}/api/lti/launch` })}`,
      );
      const page2 = readAutoSubmitForm(await (await fetch(login2.headers.location!)).text());
      const impostor = await postForm(page2.action, page2.fields, findSetCookie(login2.setCookies, LTI_STATE_COOKIE)!.value);
      expect(impostor.status).toBe(303);
      const impostorUser = (await sessionOf(impostor)).user;
      expect(impostorUser.id).not.toBe(originalBea);
      // ... and lands in its own instructor's world, not in the first platform's course.
      const world = await app.api('GET', `/worlds/${worldId}`, { token: (await sessionOf(impostor)).token });
      expect(world.status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it("posts each learner's world score to the course's line item, again only when it changes", async () => {
    const teacher = (await sessionOf(await launchAs('hint-teacher'))).token;
    const student = (await sessionOf(await launchAs('hint-bea'))).token;
    const refused = await app.api('POST', `/worlds/${worldId}/lti/scores`, { token: student });
    expect(refused.status).toBe(403);

    const first = await app.api('POST', `/worlds/${worldId}/lti/scores`, { token: teacher });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ posted: 4, unchanged: 0 });
    expect(platform.lineItems).toHaveLength(1);
    const [item] = platform.lineItems;
    expect(item).toMatchObject({ label: 'Marketcraft: Economics 101', resourceId: `marketcraft-world-${worldId}`, scoreMaximum: 100 });
    // Four learners with the same starting cash share the first rank.
    expect([...item!.scores.keys()].sort()).toEqual(['student-1', 'student-2', 'student-3', 'student-double-click']);
    expect(item!.scores.get('student-1')).toEqual({ scoreGiven: 100, scoreMaximum: 100, gradingProgress: 'FullyGraded' });
    expect(platform.tokenRequests.at(-1)!.scopes).toEqual([
      'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
      'https://purl.imsglobal.org/spec/lti-ags/scope/score',
    ]);

    const again = await app.api('POST', `/worlds/${worldId}/lti/scores`, { token: teacher });
    expect(again.body).toEqual({ posted: 0, unchanged: 4 });

    // Bea gets poorer: her rank, and so her score, drops; only hers is posted.
    await app.database.db.execute(
      sql`update companies set cash_cents = cash_cents - 5000000 where world_id = ${worldId} and user_id = (select user_id from lti_users where subject = 'student-1' and platform_id = (select min(id) from lti_platforms))`,
    );
    const changed = await app.api('POST', `/worlds/${worldId}/lti/scores`, { token: teacher });
    expect(changed.body).toEqual({ posted: 1, unchanged: 3 });
    expect(item!.scores.get('student-1')!.scoreGiven).toBe(25);
    expect(platform.lineItems).toHaveLength(1);
  });

  it("posts each assignment's points to a line item of its own, and the final score by the instructor's weights", async () => {
    const teacher = (await sessionOf(await launchAs('hint-teacher'))).token;
    const created = await app.api('POST', `/worlds/${worldId}/assignments`, {
      token: teacher,
      body: { title: 'Grow', due_week: 5, checkpoints: [{ kind: 'net_worth', points: 40, target: 1000 }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // What the turn's grades phase would write for student-2 (worker/test/ltiGrades and api/test/assignments play it for real).
    await app.database.db.execute(sql`
      insert into checkpoint_results (world_id, checkpoint_id, company_id, week, points, evidence)
      select ${worldId}, ${created.body.checkpoints[0].id}, c.id, 1, 40, '{"summary":"Net worth","figures":[]}'::jsonb
      from companies c where c.world_id = ${worldId} and c.user_id = (select user_id from lti_users where subject = 'student-2' and platform_id = (select min(id) from lti_platforms))`);
    expect(
      (await app.api('PUT', `/worlds/${worldId}/score-weights`, { token: teacher, body: { net_worth_rank: 50, profit: 0, checkpoints: 50 } })).status,
    ).toBe(200);

    const posted = await app.api('POST', `/worlds/${worldId}/lti/scores`, { token: teacher });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const world = platform.lineItems.find((item) => item.resourceId === `marketcraft-world-${worldId}`)!;
    const grow = platform.lineItems.find((item) => item.resourceId === `marketcraft-assignment-${created.body.id}`)!;
    expect(grow).toMatchObject({ label: 'Marketcraft: Grow', scoreMaximum: 40 });
    expect(grow.scores.get('student-2')).toEqual({ scoreGiven: 40, scoreMaximum: 40, gradingProgress: 'FullyGraded' });
    expect(grow.scores.get('student-3')!.scoreGiven).toBe(0);
    // student-2 ranks first (100) and holds every checkpoint point (100): 50% + 50% = 100; student-3 ranks first too but has no points: 50.
    expect(world.scores.get('student-2')!.scoreGiven).toBe(100);
    expect(world.scores.get('student-3')!.scoreGiven).toBe(50);
    const book = await app.api('GET', `/worlds/${worldId}/gradebook`, { token: teacher });
    const subjectUsers = new Map(
      (
        await app.database.db.execute<{ subject: string; user_id: number }>(
          sql`select subject, user_id from lti_users where platform_id = (select min(id) from lti_platforms)`,
        )
      ).map((row) => [row.subject, Number(row.user_id)]),
    );
    const bySub = (subject: string) => book.body.students.find((student: { name: string; user_id: number }) => student.user_id === subjectUsers.get(subject));
    expect(bySub('student-3').final_score).toBe(world.scores.get('student-3')!.scoreGiven);
    expect((await app.api('POST', `/worlds/${worldId}/lti/scores`, { token: teacher })).body.posted).toBe(0);
  });

  it('pulls the roster for the instructor (Names and Role Provisioning)', async () => {
    const teacher = (await sessionOf(await launchAs('hint-teacher'))).token;
    platform.users.set('hint-fay', { sub: 'student-never-launched', name: 'Fay Absent', email: 'fay@school.test', roles: [LEARNER_ROLE] });
    const roster = await app.api('GET', `/worlds/${worldId}/lti/roster`, { token: teacher });
    expect(roster.status).toBe(200);
    const bySub = new Map(roster.body.map((member: { user_id: string }) => [member.user_id, member]));
    expect(bySub.get('student-2')).toMatchObject({ name: 'Cy Student', launched: true, roles: [LEARNER_ROLE] });
    expect(bySub.get('student-never-launched')).toMatchObject({ name: 'Fay Absent', launched: false });
    const student = (await sessionOf(await launchAs('hint-cy'))).token;
    expect((await app.api('GET', `/worlds/${worldId}/lti/roster`, { token: student })).status).toBe(403);
  });

  it('answers a deep-linking request with a signed resource link the platform verifies, also after a key rotation', async () => {
    const firstKid = (await app.api('GET', '/lti/jwks')).body.keys[0].kid;
    await rotateToolKey(app.services.db);
    const jwks = (await app.api('GET', '/lti/jwks')).body.keys;
    expect(jwks).toHaveLength(2);
    expect(jwks[1].kid).toBe(firstKid);
    expect(jwks.every((key: Record<string, unknown>) => key.d === undefined && key.p === undefined)).toBe(true);

    const started = await startLaunch('hint-teacher', { messageHint: 'deep-link', targetLinkUri: `${app.baseUrl}/api/lti/deep-link` });
    expect(new URL(started.action).pathname).toBe('/api/lti/deep-link');
    const answer = await postForm(started.action, started.fields, started.stateCookie);
    expect(answer.status).toBe(200);
    const back = readAutoSubmitForm(String(answer.body));
    expect(back.action).toBe(`${platform.url}/deep-link-return`);
    const placed = await fetch(back.action, { method: 'POST', headers: FORM, body: new URLSearchParams(back.fields) });
    expect(placed.status).toBe(200);
    const [response] = platform.deepLinkResponses;
    expect(response!['https://purl.imsglobal.org/spec/lti/claim/message_type']).toBe('LtiDeepLinkingResponse');
    expect(response!['https://purl.imsglobal.org/spec/lti-dl/claim/data']).toBe('opaque-platform-data');
    expect(response!['https://purl.imsglobal.org/spec/lti-dl/claim/content_items']).toEqual([
      expect.objectContaining({ type: 'ltiResourceLink', url: `${app.baseUrl}/api/lti/launch`, lineItem: expect.objectContaining({ scoreMaximum: 100 }) }),
    ]);

    // A learner cannot place content.
    const learner = await startLaunch('hint-cy', { messageHint: 'deep-link', targetLinkUri: `${app.baseUrl}/api/lti/deep-link` });
    const refused = await postForm(learner.action, learner.fields, learner.stateCookie);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(LTI_MESSAGES.instructorsOnly);
  });

  it('housekeeping removes logins that never came back after their 10 minutes, and keeps fresh ones', async () => {
    const fresh = await startLaunch('hint-cy');
    await app.database.db.execute(sql`update lti_login_states set created_at = now() - interval '11 minutes' where state <> ${fresh.fields.state!}`);
    const stale = await app.database.db.execute<{ n: number }>(sql`select count(*)::int as n from lti_login_states where state <> ${fresh.fields.state!}`);
    expect(stale[0]!.n).toBeGreaterThan(0);
    const removed = await pruneExpiredAuthRows(app.database.db);
    expect(removed.ltiLogins).toBe(stale[0]!.n);
    const left = await app.database.db.execute<{ state: string }>(sql`select state from lti_login_states`);
    expect(left.map((row) => row.state)).toEqual([fresh.fields.state]);
    // The fresh login still completes.
    expect((await postForm(fresh.action, fresh.fields, fresh.stateCookie)).status).toBe(303);
  });

  it('with teams, places each new learner in the first team with room, and posts the team its score', async () => {
    const teacher = (await sessionOf(await launchAs('hint-teacher'))).token;
    expect((await app.api('PATCH', `/worlds/${worldId}`, { token: teacher, body: { team_size: 2 } })).body.team_size).toBe(2);
    const companyOf = async (subject: string) =>
      Number(
        (
          await app.database.db.execute<{ id: number }>(sql`
            select m.company_id as id from company_members m join lti_users l on l.user_id = m.user_id
            where m.world_id = ${worldId} and l.subject = ${subject}`)
        )[0]!.id,
      );
    const before = await created();
    platform.users.set('hint-eve', { sub: 'student-eve', name: 'Eve Late', email: 'eve@school.test', roles: [LEARNER_ROLE] });
    platform.users.set('hint-fay', { sub: 'student-fay', name: 'Fay Later', email: 'fay@school.test', roles: [LEARNER_ROLE] });
    for (const hint of ['hint-eve', 'hint-fay']) expect((await launchAs(hint)).status).toBe(303);
    // Bea's company was founded first, then Cy's: each now has a second member, and no company is new.
    expect(await companyOf('student-eve')).toBe(await companyOf('student-1'));
    expect(await companyOf('student-fay')).toBe(await companyOf('student-2'));
    expect(await created()).toMatchObject({ users: before.users + 2, companies: before.companies });
    await app.api('POST', `/worlds/${worldId}/lti/scores`, { token: teacher });
    const [item] = platform.lineItems;
    expect(item!.scores.get('student-eve')!.scoreGiven).toBeGreaterThan(0);
    expect(item!.scores.get('student-eve')).toEqual(item!.scores.get('student-1'));
    expect(item!.scores.get('student-fay')).toEqual(item!.scores.get('student-2'));
  });
});
