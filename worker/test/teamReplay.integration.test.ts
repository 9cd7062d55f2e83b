/**
 * Team moves in the action log (docs/replay.md, "Team moves"): a class world with teams of 2, where
 * a student joins a team by its code, the instructor moves one and sets a role, and a member leaves,
 * keeps every move in its log with who made it, counts none of them as a team's action, and
 * replays into a fresh database with the same state hash every week and the same teams, also with
 * assignments graded meanwhile (their entries are history). A fork at week 2 has the teams of week
 * 2 (not the moves made later), the original's team codes, and the assignments still open then.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  assignTeamMember,
  createFork,
  createAssignment,
  createWorld,
  joinWorld,
  removeMemberFromTeam,
  setScoreWeights,
  updateTeamMember,
  users,
  worldContributions,
  type Database,
} from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { runTurn } from '../src/turn/index.ts';
import { replayWorld } from '../src/replay/replay.ts';
import { replayFork } from '../src/replay/fork.ts';
import { playRandomWeek, seededRandom } from '../src/replay/randomPlay.ts';

const WEEKS = 3;
const SETTINGS = { name: 'Team class', turnIntervalMinutes: null, startingCashDollars: 200_000, bots: 2, maxPlayers: 40, teamSize: 2, seed: 777 };

async function newUser(db: Database, email: string, isAdmin = false) {
  const [user] = await db.insert(users).values({ email, isAdmin }).returning({ id: users.id });
  return { id: user!.id, isAdmin, email };
}

/** A world's teams: company rank, the user (as `userOf` names them), role, joined week. */
async function teams(db: Database, worldId: number, userOf: (id: number) => number): Promise<string[]> {
  const rows = await db.execute<{ rank: number; user_id: number; role: string | null; joined_week: number }>(sql`
    select c.rank, m.user_id, m.role, m.joined_week from company_members m
    join (select id, row_number() over (order by id) as rank from companies where world_id = ${worldId}) c on c.id = m.company_id
    where m.world_id = ${worldId}`);
  return rows.map((row) => `company ${row.rank}: user ${userOf(Number(row.user_id))} ${row.role ?? '-'} since week ${row.joined_week}`).sort();
}

describe('team moves in the action log', () => {
  let original: TestDatabase;
  let worldId: number;
  const student: Record<'ann' | 'ben' | 'cat' | 'dan', { id: number; isAdmin: boolean; email: string }> = {} as never;
  let teamOf: (userId: number) => Promise<number>;
  let teacherId: () => number;
  /** The world's teams at the start of week 2 (after week 1's moves), as company rank, user, role, joined week. */
  let teamsAtWeek2: string[];

  beforeAll(async () => {
    original = await createTestDatabase({ max: 8 });
    const db = original.db;
    const teacher = await newUser(db, 'teacher@example.com', true);
    teacherId = () => teacher.id;
    const world = await createWorld(db, teacher, SETTINGS);
    worldId = world.id;
    for (const name of ['ann', 'ben', 'cat', 'dan'] as const) student[name] = await newUser(db, `${name}@example.com`);
    teamOf = async (userId) =>
      Number(
        (await db.execute<{ id: number }>(sql`select company_id as id from company_members where world_id = ${worldId} and user_id = ${userId}`))[0]?.id ?? 0,
      );
    // Ann and Cat found a company each; Ben joins Ann's team by its code.
    await joinWorld(db, student.ann, { code: world.join_code!, companyName: 'Ann & co' });
    await joinWorld(db, student.cat, { code: world.join_code!, companyName: 'Cat & co' });
    const [annTeam] = await db.execute<{ team_code: string }>(sql`select team_code from companies where id = ${await teamOf(student.ann.id)}`);
    await joinWorld(db, student.ben, { code: world.join_code!, teamCode: annTeam!.team_code });
    await createAssignment(db, teacher, worldId, {
      title: 'Keep going',
      dueWeek: WEEKS,
      checkpoints: [
        { kind: 'net_worth', points: 10, target: 1000 },
        { kind: 'no_debt', points: 5, weeks: 2 },
      ],
    });
    // Due before the fork week: graded in the original, not carried into the fork.
    await createAssignment(db, teacher, worldId, { title: 'First week', dueWeek: 1, checkpoints: [{ kind: 'no_debt', points: 5, weeks: 1 }] });
    await setScoreWeights(db, teacher, worldId, { net_worth_rank: 50, profit: 0, checkpoints: 50, team_weighting: 'contribution' });
    const random = seededRandom(99);
    for (let week = 1; week <= WEEKS; week += 1) {
      const players = await Promise.all(
        Object.values(student)
          .filter((user) => user.id !== student.dan.id || week > 1)
          .map(async (user) => ({ userId: user.id, companyId: await teamOf(user.id) })),
      );
      await playRandomWeek(
        db,
        players.filter((player) => player.companyId !== 0),
        random,
      );
      if (week === 2) {
        // After the fork week's start: the instructor takes Ben out of Cat's team and labels Ann.
        await removeMemberFromTeam(db, teacher, worldId, student.ben.id);
        await updateTeamMember(db, teacher, worldId, student.ann.id, 'ceo');
      }
      if (week === 1) {
        // The instructor places Dan in Cat's team; Ben leaves Ann's; the instructor moves Dan from
        // Cat's team to Ann's and places Ben in Cat's; Ann labels Dan.
        const annTeam = await teamOf(student.ann.id);
        const catTeam = await teamOf(student.cat.id);
        await assignTeamMember(db, teacher, worldId, { email: 'dan@example.com', companyId: catTeam, role: 'finance' });
        await removeMemberFromTeam(db, student.ben, worldId, student.ben.id);
        await assignTeamMember(db, teacher, worldId, { email: 'dan@example.com', companyId: annTeam });
        await assignTeamMember(db, teacher, worldId, { email: 'ben@example.com', companyId: catTeam });
        await updateTeamMember(db, student.ann, worldId, student.dan.id, 'sales');
      }
      expect((await runTurn(db, { worldId, week })).status).toBe('advanced');
      if (week === 1) teamsAtWeek2 = await teams(db, worldId, (id) => id);
    }
  }, 240_000);
  afterAll(async () => {
    await original?.drop();
  });

  it('logs every move with who made it, and counts none as an action of a team', async () => {
    const moves = await original.db.execute<{ action: string; acting_user_id: number; company_id: number | null; input: Record<string, unknown> }>(sql`
      select action, acting_user_id, company_id, input from world_actions
      where world_id = ${worldId} and action in ('joinTeam', 'placeTeamMember', 'removeTeamMember', 'setTeamRole') order by seq`);
    const annTeam = await teamOf(student.ann.id);
    const catTeam = await teamOf(student.cat.id);
    const teacher = teacherId();
    expect(moves.map((move) => [move.action, Number(move.acting_user_id), move.input])).toEqual([
      ['joinTeam', student.ben.id, { user_id: student.ben.id, company_id: annTeam, by: 'team_code' }],
      ['placeTeamMember', teacher, { user_id: student.dan.id, company_id: catTeam, from_company_id: null, role: 'finance' }],
      ['removeTeamMember', student.ben.id, { user_id: student.ben.id, company_id: annTeam }],
      ['placeTeamMember', teacher, { user_id: student.dan.id, company_id: annTeam, from_company_id: catTeam, role: null }],
      ['placeTeamMember', teacher, { user_id: student.ben.id, company_id: catTeam, from_company_id: null, role: null }],
      ['setTeamRole', student.ann.id, { user_id: student.dan.id, company_id: annTeam, role: 'sales' }],
      ['removeTeamMember', teacher, { user_id: student.ben.id, company_id: catTeam }],
      ['setTeamRole', teacher, { user_id: student.ann.id, company_id: annTeam, role: 'ceo' }],
    ]);
    expect(moves.every((move) => move.company_id === null)).toBe(true);

    // Each member's count is exactly their applied actions for the team (their founding included), no move among them.
    const view = await worldContributions(original.db, { id: teacher, isAdmin: true }, worldId);
    const applied = await original.db.execute<{ company_id: number; user_id: number; n: number }>(sql`
      select company_id, acting_user_id as user_id, count(*)::int as n from world_actions
      where world_id = ${worldId} and company_id is not null and acting_user_id is not null and (outcome->>'applied')::boolean
      group by company_id, acting_user_id`);
    for (const team of view.teams)
      for (const member of team.members) {
        const row = applied.find((entry) => Number(entry.company_id) === team.company_id && Number(entry.user_id) === member.user_id);
        expect(member.actions).toBe(Number(row?.n ?? 0));
      }
    const annTeamView = view.teams.find((team) => team.company_id === annTeam)!;
    expect(annTeamView.members.map((member) => [member.user_id, member.is_member])).toEqual(
      expect.arrayContaining([
        [student.ann.id, true],
        [student.dan.id, true],
        [student.ben.id, false],
      ]),
    );
  });

  it('replays into a fresh database with the same state hash every week', async () => {
    const [graded] = await original.db.execute<{ n: number }>(sql`select count(*)::int as n from checkpoint_results where world_id = ${worldId}`);
    expect(graded!.n).toBeGreaterThan(0);
    const fresh = await createTestDatabase();
    try {
      const admin = await newUser(fresh.db, 'replayer@example.com', true);
      const target = await createWorld(fresh.db, admin, SETTINGS);
      const accounts = new Map<number, number>();
      const report = await replayWorld(original.db, worldId, {
        db: fresh.db,
        worldId: target.id,
        admin,
        userFor: async (id) => {
          if (!accounts.has(id)) accounts.set(id, (await newUser(fresh.db, `player-${id}@replay.invalid`)).id);
          return accounts.get(id)!;
        },
      });
      expect(report.mismatches).toEqual([]);
      expect(report.weeks.map((week) => [week.week, week.matches])).toEqual(Array.from({ length: WEEKS }, (_, index) => [index + 1, true]));
      // The same teams, each original account's counterpart in the seat it has in the original.
      const originalOf = new Map([...accounts].map(([originalId, replayedId]) => [replayedId, originalId]));
      expect(await teams(fresh.db, target.id, (id) => originalOf.get(id) ?? -id)).toEqual(await teams(original.db, worldId, (id) => id));
    } finally {
      await fresh.drop();
    }
  }, 240_000);

  it("a fork at week 2 has the teams of week 2, the original's team codes, and the assignments still open then", async () => {
    const db = original.db;
    const teacher = { id: teacherId(), isAdmin: true };
    const fork = await createFork(db, teacher, worldId, { week: 2 });
    await replayFork(db, fork.id);
    // Ben left Cat's team and Ann became CEO in week 2: the original has that now, the fork the week before.
    const now = await teams(db, worldId, (id) => id);
    expect(now).not.toEqual(teamsAtWeek2);
    expect(await teams(db, fork.id, (id) => id)).toEqual(teamsAtWeek2);
    expect(teamsAtWeek2).toContain(`company 4: user ${student.ben.id} - since week 1`);
    const codes = async (id: number) =>
      (await db.execute<{ team_code: string | null }>(sql`select team_code from companies where world_id = ${id} order by id`)).map((row) => row.team_code);
    expect(await codes(fork.id)).toEqual(await codes(worldId));
    expect((await codes(fork.id)).filter((code) => code !== null)).toHaveLength(2);

    // 'Keep going' (due week 3) comes across with its checkpoints and what was earned in week 1; 'First week' (due week 1) does not.
    const assignments = async (id: number) =>
      db.execute<{ title: string; due_week: number; checkpoints: string; earned: string }>(sql`
        select a.title, a.due_week,
          (select string_agg(c.kind || ':' || c.points || ':' || coalesce(c.target, 0) || ':' || coalesce(c.weeks, 0), ',' order by c.position)
           from assignment_checkpoints c where c.world_id = a.world_id and c.assignment_id = a.id) as checkpoints,
          (select string_agg(r.week || ':' || c.kind || ':' || r.points || ':' || rank.rank, ',' order by rank.rank, c.position)
           from checkpoint_results r join assignment_checkpoints c on c.world_id = r.world_id and c.id = r.checkpoint_id
           join (select id, row_number() over (order by id) as rank from companies where world_id = ${id}) rank on rank.id = r.company_id
           where r.world_id = a.world_id and c.assignment_id = a.id and r.week < 2) as earned
        from assignments a where a.world_id = ${id} order by a.due_week, a.id`);
    const originals = await assignments(worldId);
    expect(originals.map((row) => row.title)).toEqual(['First week', 'Keep going']);
    const carried = await assignments(fork.id);
    expect(carried).toEqual([originals[1]]);
    expect(carried[0]!.earned).not.toBeNull();
    const [weights] = await db.execute<{ checkpoints: number; team_weighting: string }>(
      sql`select checkpoints, team_weighting from world_score_weights where world_id = ${fork.id}`,
    );
    expect(weights).toEqual({ checkpoints: 50, team_weighting: 'contribution' });
    const [logged] = await db.execute<{ input: { title: string; from_assignment_id: number } }>(
      sql`select input from world_actions where world_id = ${fork.id} and action = 'createAssignment'`,
    );
    expect(logged!.input).toMatchObject({ title: 'Keep going' });
  }, 240_000);
});
