/**
 * The course system's classroom end to end over HTTP (issue 24, "Done when", protocol part): the
 * test platform (helpers/ltiPlatform.ts) launches the tool as an instructor, who gets the course's
 * world, sets teams of 2 and adds an assignment; four learners launch and land in the world and in
 * the right team (the first team with room, or the one their course link names by its custom
 * `team_code`); a member plays; the instructor runs two turns through the API and a real turn
 * worker, which posts every learner's points to the platform's line item of the assignment (and the
 * final score to the world's). A student sees their own team's company, grades and nothing of the
 * other team's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { TEAM_CODE_UNKNOWN } from '@marketcraft/db';
import { LTI_MESSAGES } from '../src/lti/launch.ts';
import { LTI_COURSE_MESSAGES } from '@marketcraft/db/lti/courses.ts';
import { createTurnClient, type TurnClient } from '../src/turnClient.ts';
import { silentLogger } from '@marketcraft/db/logger.ts';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { INSTRUCTOR_ROLE, LEARNER_ROLE, startTestPlatform, type TestPlatform } from './helpers/ltiPlatform.ts';
import { ltiBrowser } from './helpers/ltiBrowser.ts';
import { startInProcessWorker, waitFor } from '../../worker/test/helpers.ts';

type Browser = ReturnType<typeof ltiBrowser>;
type Team = { company_id: number; team_code: string | null; members: { user_id: number; name: string | null }[] };

describe('a course launches the classroom: teams, an assignment, turns, scores in the course gradebook', () => {
  let app: TestApp;
  let platform: TestPlatform;
  let browser: Browser;
  let worker: Awaited<ReturnType<typeof startInProcessWorker>> | undefined;
  let turns: TurnClient | undefined;

  beforeAll(async () => {
    app = await startTestApp({
      services: async (database) => {
        // The turns run in a real turn worker, which posts the grades after each (worker/src/queue.ts).
        worker = await startInProcessWorker(database.url, { TURN_SCHEDULE_ENABLED: '0' });
        turns = createTurnClient({ databaseUrl: database.url, db: database.db, sql: database.sql, timeoutMs: 60_000, logger: silentLogger() });
        return { advanceTurn: turns.advanceTurn };
      },
    });
    platform = await startTestPlatform({ toolBaseUrl: app.baseUrl });
    browser = ltiBrowser(app, platform);
    platform.users.set('teacher', { sub: 'teacher-1', name: 'Ada Teacher', email: 'ada@school.test', roles: [INSTRUCTOR_ROLE] });
    for (const [hint, sub, name] of [
      ['bea', 'student-bea', 'Bea'],
      ['cy', 'student-cy', 'Cy'],
      ['dee', 'student-dee', 'Dee'],
      ['eve', 'student-eve', 'Eve'],
    ] as const)
      platform.users.set(hint, { sub, name, email: `${hint}@school.test`, roles: [LEARNER_ROLE] });
  }, 120_000);
  afterAll(async () => {
    await turns?.close();
    await worker?.stop();
    await platform?.close();
    await app?.close();
  });

  it(
    'seats the learners in the right teams (the first with room, or the one their link names), and their assignment points and scores reach the platform after the turns',
    { timeout: 180_000 },
    async () => {
      const admin = await app.createPlayer({ isAdmin: true });
      expect((await app.api('POST', '/lti/platforms', { token: admin.token, body: platform.registration })).status).toBe(201);

      // The instructor's first launch creates the course's world; they set teams of 2 and an assignment.
      const teacherLaunch = await browser.launchAs('teacher');
      expect(teacherLaunch.status).toBe(303);
      const worldId = Number(/\/worlds\/(\d+)\/manage$/.exec(teacherLaunch.headers.location!)![1]);
      const teacher = (await browser.sessionOf(teacherLaunch)).token;
      expect((await app.api('PATCH', `/worlds/${worldId}`, { token: teacher, body: { team_size: 2 } })).body.team_size).toBe(2);
      const assignment = await app.api('POST', `/worlds/${worldId}/assignments`, {
        token: teacher,
        body: {
          title: 'First weeks',
          due_week: 2,
          checkpoints: [
            { kind: 'net_worth', points: 10, target: 1000 },
            { kind: 'cities', points: 15, target: 1 },
          ],
        },
      });
      expect(assignment.status, JSON.stringify(assignment.body)).toBe(200);

      // Bea founds a company, Cy takes the room left in her team, Dee (Bea's team is full) founds another.
      const students: Record<string, { token: string; id: number }> = {};
      const launch = async (hint: string) => {
        const answer = await browser.launchAs(hint);
        expect(answer.status, JSON.stringify(answer.body)).toBe(303);
        expect(answer.headers.location).toBe('/');
        const session = await browser.sessionOf(answer);
        students[hint] = { token: session.token, id: session.user.id };
      };
      for (const hint of ['bea', 'cy', 'dee']) await launch(hint);
      const teamsNow = async () => (await app.api('GET', `/worlds/${worldId}/teams`, { token: teacher })).body.teams as Team[];
      const [, deeTeam] = await teamsNow();
      // Teams of 3: both teams have room, and the first with room is Bea's. Eve's course link names
      // Dee's team (the custom parameter team_code): she lands there.
      expect((await app.api('PATCH', `/worlds/${worldId}`, { token: teacher, body: { team_size: 3 } })).body.team_size).toBe(3);
      platform.users.get('eve')!.custom = { team_code: deeTeam!.team_code! };
      await launch('eve');
      // A link that names no team of the world refuses the learner, creating nothing.
      const [before] = await app.database.db.execute<{ users: number }>(sql`select count(*)::int as users from users`);
      platform.users.set('fay', { sub: 'student-fay', name: 'Fay', email: 'fay@school.test', roles: [LEARNER_ROLE], custom: { team_code: 'ZZZZZZ' } });
      const refused = await browser.launchAs('fay');
      expect([refused.status, refused.body.error]).toEqual([404, TEAM_CODE_UNKNOWN]);
      platform.users.get('fay')!.custom = { team_code: 'not a code!' };
      const malformed = await browser.launchAs('fay');
      expect([malformed.status, malformed.body.error]).toEqual([400, LTI_MESSAGES.badTeamCode]);
      const [after] = await app.database.db.execute<{ users: number }>(sql`select count(*)::int as users from users`);
      expect(after!.users).toBe(before!.users);

      const teams = await teamsNow();
      expect(teams.map((team) => team.members.map((member) => member.user_id))).toEqual([
        [students.bea!.id, students.cy!.id],
        [students.dee!.id, students.eve!.id],
      ]);
      // The Teams panel names launched students by the course system's name (their address is lti-…@lti.invalid).
      expect(teams.map((team) => team.members.map((member) => member.name))).toEqual([
        ['Bea', 'Cy'],
        ['Dee', 'Eve'],
      ]);
      const [teamA, teamB] = teams as [Team, Team];
      for (const hint of ['bea', 'cy', 'dee', 'eve']) {
        const world = await app.api('GET', `/worlds/${worldId}`, { token: students[hint]!.token });
        expect(world.body).toMatchObject({ id: worldId, role: 'player', joined: true });
      }

      // A student sees their own team's company and team, and neither the gradebook nor the contribution log.
      for (const [hint, team] of [
        ['bea', teamA],
        ['cy', teamA],
        ['dee', teamB],
        ['eve', teamB],
      ] as const) {
        const token = students[hint]!.token;
        expect((await app.api('GET', '/company', { token })).body.id).toBe(team.company_id);
        const own = (await app.api('GET', `/worlds/${worldId}/teams`, { token })).body.teams as Team[];
        expect(own.map((entry) => entry.company_id)).toEqual([team.company_id]);
        expect((await app.api('GET', `/worlds/${worldId}/gradebook`, { token })).status).toBe(403);
        expect((await app.api('GET', `/worlds/${worldId}/gradebook.csv`, { token })).status).toBe(403);
        expect((await app.api('GET', `/worlds/${worldId}/contributions`, { token })).status).toBe(403);
      }

      // Cy (not the founder) opens a store and stocks it: team A sells in a city, team B does not.
      const cy = students.cy!.token;
      const cities = (await app.api('GET', '/cities', { token: cy })).body as { id: number }[];
      const bread = ((await app.api('GET', '/goods', { token: cy })).body as { id: number; name: string }[]).find((good) => good.name === 'White Bread')!;
      const store = await app.api('POST', '/buildings', { token: cy, body: { type: 'store', city_id: cities[0]!.id } });
      expect(store.status, JSON.stringify(store.body)).toBe(200);
      expect((await app.api('POST', '/market/trade', { token: cy, body: { product_id: bread.id, quantity: 60, action: 'buy' } })).status).toBe(200);
      const shelved = await app.api('POST', `/buildings/${store.body.id}/inventory/transfer-to-store`, {
        token: cy,
        body: { product_id: bread.id, quantity: 60, retail_price: 1 },
      });
      expect(shelved.status, JSON.stringify(shelved.body)).toBe(200);

      // The contribution log names them as the course does; joining a team is not an action of it.
      const contributions = (await app.api('GET', `/worlds/${worldId}/contributions`, { token: teacher })).body.teams as {
        members: { name: string | null; actions: number }[];
      }[];
      expect(contributions.map((team) => team.members.map((member) => [member.name, member.actions]))).toEqual([
        [
          ['Bea', 1],
          ['Cy', 3],
        ],
        [
          ['Dee', 1],
          ['Eve', 0],
        ],
      ]);

      // Two turns, run by the instructor through the API and the turn worker.
      for (const week of [1, 2]) {
        const advanced = await app.api('POST', `/worlds/${worldId}/advance`, { token: teacher });
        expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
        expect(advanced.body.current_week).toBe(week + 1);
      }

      // The worker posted each learner's points to the assignment's line item, and the final score to the world's.
      const subjects = { bea: 'student-bea', cy: 'student-cy', dee: 'student-dee', eve: 'student-eve' };
      const item = await waitFor(
        async () => {
          const found = platform.lineItems.find((entry) => entry.resourceId === `marketcraft-assignment-${assignment.body.id}`);
          return found && found.scores.get(subjects.bea)?.scoreGiven === 25 && found.scores.size === 4 ? found : null;
        },
        30_000,
        "the assignment's scores on the platform",
      );
      expect(item).toMatchObject({ label: 'Marketcraft: First weeks', scoreMaximum: 25 });
      expect(Object.fromEntries([...item.scores].map(([subject, score]) => [subject, score.scoreGiven]))).toEqual({
        [subjects.bea]: 25,
        [subjects.cy]: 25,
        [subjects.dee]: 10,
        [subjects.eve]: 10,
      });
      const worldItem = platform.lineItems.find((entry) => entry.resourceId === `marketcraft-world-${worldId}`)!;
      expect([...worldItem.scores.keys()].sort()).toEqual(Object.values(subjects).sort());

      // The same numbers as the instructor's gradebook, and each student's own page shows their team's evidence.
      const book = await app.api('GET', `/worlds/${worldId}/gradebook`, { token: teacher });
      for (const [hint, subject] of Object.entries(subjects)) {
        const row = book.body.students.find((student: { user_id: number }) => student.user_id === students[hint]!.id);
        expect(row.final_score).toBe(worldItem.scores.get(subject)!.scoreGiven);
        expect(row.assignments[0].points).toBe(item.scores.get(subject)!.scoreGiven);
      }
      const mine = async (hint: string) =>
        ((await app.api('GET', '/me/assignments', { token: students[hint]!.token })).body as { checkpoints: { kind: string; status: string }[] }[])[0]!
          .checkpoints;
      expect((await mine('bea')).map((checkpoint) => [checkpoint.kind, checkpoint.status])).toEqual([
        ['net_worth', 'earned'],
        ['cities', 'earned'],
      ]);
      expect((await mine('eve')).map((checkpoint) => [checkpoint.kind, checkpoint.status])).toEqual([
        ['net_worth', 'earned'],
        ['cities', 'missed'],
      ]);
    },
  );

  it("links a new course to the instructor's existing world instead of the one its first launch created", async () => {
    const teacherLaunch = await browser.launchAs('teacher');
    const teacher = (await browser.sessionOf(teacherLaunch)).token;
    const existing = Number(/\/worlds\/(\d+)\/manage$/.exec(teacherLaunch.headers.location!)![1]);
    const student = (await browser.sessionOf(await browser.launchAs('bea'))).token;
    // A second section of the course: its first launch creates a world of its own.
    platform.course = { id: 'econ-101-section-2', title: 'Economics 101, section 2' };
    const created = Number(/\/worlds\/(\d+)\/manage$/.exec((await browser.launchAs('teacher')).headers.location!)![1]);
    expect(created).not.toBe(existing);
    const courses = await app.api('GET', `/worlds/${created}/lti/courses`, { token: teacher });
    expect(courses.body).toEqual([{ title: 'Economics 101, section 2', issuer: platform.issuer, can_move: true }]);
    expect((await app.api('GET', `/worlds/${existing}/lti/courses`, { token: teacher })).body[0].can_move).toBe(false);

    // Refused: a student; the same world; a world whose students already play; nothing moves.
    expect((await app.api('POST', `/worlds/${existing}/lti/link`, { token: student, body: { world_id: created } })).status).toBe(403);
    const same = await app.api('POST', `/worlds/${created}/lti/link`, { token: teacher, body: { world_id: created } });
    expect([same.status, same.body.error]).toEqual([400, LTI_COURSE_MESSAGES.sameWorld]);
    const played = await app.api('POST', `/worlds/${existing}/lti/link`, { token: teacher, body: { world_id: created } });
    expect([played.status, played.body.error]).toEqual([409, LTI_COURSE_MESSAGES.studentsJoined]);

    const linked = await app.api('POST', `/worlds/${created}/lti/link`, { token: teacher, body: { world_id: existing } });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect((await app.api('GET', `/worlds/${created}`, { token: teacher })).body.status).toBe('ended');
    expect((await app.api('GET', `/worlds/${existing}/lti/courses`, { token: teacher })).body.map((course: { title: string }) => course.title)).toEqual([
      'Economics 101',
      'Economics 101, section 2',
    ]);
    // The section's launches now open the existing world: the instructor's, and a new learner's.
    expect((await browser.launchAs('teacher')).headers.location).toBe(`/worlds/${existing}/manage`);
    platform.users.set('gus', { sub: 'student-gus', name: 'Gus', email: 'gus@school.test', roles: [LEARNER_ROLE] });
    const gus = await browser.launchAs('gus');
    expect(gus.status).toBe(303);
    const world = await app.api('GET', `/worlds/${existing}`, { token: (await browser.sessionOf(gus)).token });
    expect(world.body).toMatchObject({ id: existing, joined: true, status: 'active' });
  });
});
