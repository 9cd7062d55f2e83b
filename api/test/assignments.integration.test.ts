/**
 * Graded assignments through the API (docs/classroom.md, "Assignments"): an instructor adds
 * assignments to a class world, two students play real turns (one builds a chain from a farm to
 * its stores in two cities, the other does nothing), and each checkpoint kind is earned or not as
 * their week reports say, with its evidence; the question is graded from the student's own week;
 * the gradebook, its CSV and the final score by the instructor's weights; who may see what; bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { profitQuestion } from '@marketcraft/shared';
import { runTurn } from '../../worker/src/turn/index.ts';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

type Checkpoint = { id: number; kind: string; status: string; points_earned: number; week: number | null; evidence: { summary: string } | null; question: any };
type Mine = { id: number; title: string; status: string; points_earned: number; checkpoints: Checkpoint[] };

describe('assignments and the gradebook', { timeout: 240_000 }, () => {
  let app: TestApp;
  let teacher: TestPlayer;
  let builder: TestPlayer;
  let idle: TestPlayer;
  let outsider: TestPlayer;
  let worldId: number;
  let assignmentId: number;
  let lateId: number;

  const api = (...args: Parameters<TestApp['api']>) => app.api(...args);
  const mine = async (player: TestPlayer) => (await api('GET', '/me/assignments', { token: player.token })).body as Mine[];
  const checkpoint = (list: Mine[], assignment: number, kind: string) =>
    list.find((entry) => entry.id === assignment)!.checkpoints.find((entry) => entry.kind === kind)!;

  beforeAll(async () => {
    app = await startTestApp();
    teacher = await app.createPlayer({ name: 'Teacher' });
    builder = await app.createPlayer({ name: 'Builder' });
    idle = await app.createPlayer({ name: 'Idle' });
    outsider = await app.createPlayer({ name: 'Outsider' });
    const world = await api('POST', '/worlds', {
      token: teacher.token,
      body: { name: 'Econ 101', turn_interval_minutes: null, starting_cash: 500000, bots: 0, seed: 7 },
    });
    worldId = world.body.id;
    for (const student of [builder, idle]) {
      expect((await api('POST', '/worlds/join', { token: student.token, body: { code: world.body.join_code } })).status).toBe(200);
      expect((await api('PUT', '/session/world', { token: student.token, body: { world_id: worldId } })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await app.close();
  });

  it('lets only the instructor add assignments, with clear messages for bad checkpoints', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const answer = await api('POST', `/worlds/${worldId}/assignments`, { token: teacher.token, body: { title: 'A', due_week: 3, ...body } });
      expect(answer.status).toBe(400);
      return answer.body.error;
    };
    expect(await bad({ checkpoints: [] })).toBe('Add at least one checkpoint');
    expect(await bad({ checkpoints: [{ kind: 'net_worth', points: 5 }] })).toBe('Reach a net worth: enter the net worth (dollars)');
    expect(await bad({ checkpoints: [{ kind: 'weekly_profit', points: 5, weeks: 0 }] })).toBe('Weeks must be a whole number between 1 and 52');
    expect(await bad({ checkpoints: [{ kind: 'chain', points: 5, target: 3 }] })).toBe('Run a chain from raw material to a shelf takes no target');
    expect(await bad({ checkpoints: [{ kind: 'efficiency', points: 5, target: 101 }] })).toBe(
      'Efficiency at least (%) must be a whole number between 1 and 100',
    );
    expect(await bad({ checkpoints: [{ kind: 'cities', points: 0, target: 2 }] })).toBe('Points must be between 1 and 100');
    expect(await bad({ checkpoints: [{ kind: 'teleport', points: 5 }] })).toMatch(/^Choose a kind of checkpoint/);
    expect(await bad({ title: '  ', checkpoints: [{ kind: 'chain', points: 5 }] })).toBe('Title cannot be empty');
    expect(await bad({ due_week: 0, checkpoints: [{ kind: 'chain', points: 5 }] })).toBe('Due week must be between 1 and 10,000');

    const byStudent = await api('POST', `/worlds/${worldId}/assignments`, {
      token: builder.token,
      body: { title: 'Mine', due_week: 3, checkpoints: [{ kind: 'chain', points: 5 }] },
    });
    expect(byStudent.status).toBe(403);
    expect(byStudent.body.error).toBe("Only this world's instructors can do that");
    const inPublic = await api('POST', '/worlds/1/assignments', {
      token: teacher.token,
      body: { title: 'X', due_week: 3, checkpoints: [{ kind: 'chain', points: 5 }] },
    });
    expect(inPublic.status).toBe(403);

    const created = await api('POST', `/worlds/${worldId}/assignments`, {
      token: teacher.token,
      body: {
        title: 'Weeks 1-3: a business that runs',
        due_week: 3,
        checkpoints: [
          { kind: 'net_worth', points: 10, target: 100000 },
          { kind: 'net_worth', points: 10, target: 5000000 },
          { kind: 'weekly_profit', points: 10, weeks: 2 },
          { kind: 'chain', points: 20 },
          { kind: 'efficiency', points: 10, target: 20 },
          { kind: 'no_debt', points: 10, weeks: 2 },
          { kind: 'cities', points: 15, target: 2 },
          { kind: 'profit_question', points: 15 },
        ],
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.points_possible).toBe(100);
    expect(created.body.checkpoints.map((entry: { kind: string }) => entry.kind)).toEqual([
      'net_worth',
      'net_worth',
      'weekly_profit',
      'chain',
      'efficiency',
      'no_debt',
      'cities',
      'profit_question',
    ]);
    expect(created.body.checkpoints[0]).toMatchObject({ target: 100000, measures: "Your company's net worth at the end of a week reaches $100,000." });
    assignmentId = created.body.id;
    // A second one, due in week 1: what is earned later does not count for it.
    const late = await api('POST', `/worlds/${worldId}/assignments`, {
      token: teacher.token,
      body: { title: 'Week 1 only', due_week: 1, checkpoints: [{ kind: 'cities', points: 5, target: 2 }] },
    });
    lateId = late.body.id;

    // Members read them; outsiders do not see the world at all.
    expect((await api('GET', `/worlds/${worldId}/assignments`, { token: idle.token })).body).toHaveLength(2);
    expect((await api('GET', `/worlds/${worldId}/assignments`, { token: outsider.token })).status).toBe(404);
  });

  it('grades every kind of checkpoint from real turns, with the evidence of the week that earned it', async () => {
    const cities = (await api('GET', '/cities', { token: builder.token })).body as { id: number; bonus_type: string }[];
    const goods = (await api('GET', '/goods', { token: builder.token })).body as { id: number; name: string }[];
    const wheat = goods.find((good) => good.name === 'Wheat')!;
    const bread = goods.find((good) => good.name === 'White Bread')!;
    const recipes = (await api('GET', '/recipes', { token: builder.token })).body as {
      id: number;
      building_type: string;
      output_product_id: number;
      inputs: { product_id: number }[];
    }[];
    const farmRecipe = recipes.find((recipe) => recipe.building_type === 'farm' && recipe.output_product_id === wheat.id)!;
    const millRecipe = recipes.find((recipe) => recipe.building_type === 'mill' && recipe.inputs.some((input) => input.product_id === wheat.id))!;
    const build = async (type: string, cityId: number) => {
      const built = await api('POST', '/buildings', { token: builder.token, body: { type, city_id: cityId } });
      expect(built.status, JSON.stringify(built.body)).toBe(200);
      return built.body.id as number;
    };
    const farm = await build('farm', cities[0]!.id);
    const mill = await build('mill', cities[0]!.id);
    expect((await api('PUT', `/buildings/${farm}/select-recipe`, { token: builder.token, body: { recipe_id: farmRecipe.id } })).status).toBe(200);
    expect((await api('PUT', `/buildings/${mill}/select-recipe`, { token: builder.token, body: { recipe_id: millRecipe.id } })).status).toBe(200);
    const stores = [await build('store', cities[0]!.id), await build('store', cities[1]!.id)];
    expect((await api('POST', '/market/trade', { token: builder.token, body: { product_id: bread.id, quantity: 400, action: 'buy' } })).status).toBe(200);

    const stock = async () => {
      for (const store of stores) {
        const shelved = await api('POST', `/buildings/${store}/inventory/transfer-to-store`, {
          token: builder.token,
          body: { product_id: bread.id, quantity: 60, retail_price: 1 },
        });
        expect(shelved.status, JSON.stringify(shelved.body)).toBe(200);
      }
    };
    await stock();
    expect((await runTurn(app.database.db, { worldId })).status).toBe('advanced');
    await stock();
    expect((await runTurn(app.database.db, { worldId })).status).toBe('advanced');

    const reports = await app.database.db.execute<{ user_id: number; week: number; profit_cents: number; cash_end_cents: number; net_worth_cents: number }>(sql`
      select c.user_id, r.week, r.profit_cents, r.cash_end_cents, r.net_worth_cents from week_reports r join companies c on c.world_id = r.world_id and c.id = r.company_id
      where r.world_id = ${worldId} order by r.week`);
    const of = (player: TestPlayer) => reports.filter((row) => Number(row.user_id) === player.userId);
    expect(of(builder)).toHaveLength(2);

    const builderView = await mine(builder);
    const idleView = await mine(idle);
    const main = (list: Mine[]) => list.find((entry) => entry.id === assignmentId)!.checkpoints;
    // Net worth: the low target in week 1 for both; the high one for neither.
    for (const view of [builderView, idleView]) {
      expect(main(view)[0]).toMatchObject({ status: 'earned', points_earned: 10, week: 1 });
      expect(main(view)[0]!.evidence!.summary).toMatch(/^Net worth \$[\d,]+\.\d\d at the end of week 1 \(target \$100,000\.00\)$/);
      expect(main(view)[1]).toMatchObject({ status: 'open', points_earned: 0, evidence: null });
    }
    // The chain: the farm's wheat of week 1 went to the mill in week 2 (the mill uses what the warehouse holds), and the stores sold bread.
    expect(main(builderView)[3]).toMatchObject({ kind: 'chain', status: 'earned', points_earned: 20, week: 2 });
    expect(main(builderView)[3]!.evidence!.summary).toMatch(/^Week 2: extracted \d+ Wheat, used \d+ of it, and sold \d+ units in your stores$/);
    expect(main(idleView)[3]).toMatchObject({ status: 'open', points_earned: 0 });
    // Efficiency: a farm with one employee and level-1 equipment is at 25%; no building earns nothing.
    expect(main(builderView)[4]).toMatchObject({ kind: 'efficiency', status: 'earned', week: 1 });
    expect(main(builderView)[4]!.evidence!.summary).toBe('Every building at 25% efficiency or more at the end of week 1');
    expect(main(idleView)[4]).toMatchObject({ status: 'open' });
    // Sold in two cities.
    expect(main(builderView)[6]).toMatchObject({ kind: 'cities', status: 'earned', points_earned: 15, week: 1 });
    expect(main(idleView)[6]).toMatchObject({ status: 'open' });
    // Weekly profit: the builder's first weeks are losses (three buildings' wages and upkeep, bread at $1), the idle company makes $0: neither earns it.
    expect(of(builder).map((row) => Number(row.profit_cents) < 0)).toEqual([true, true]);
    expect(main(builderView)[2]).toMatchObject({ kind: 'weekly_profit', status: 'open', points_earned: 0 });
    expect(of(idle).map((row) => Number(row.profit_cents))).toEqual([0, 0]);
    expect(main(idleView)[2]).toMatchObject({ status: 'open', points_earned: 0 });
    // No debt for 2 weeks: both kept their cash above $0.
    expect(main(builderView)[5]).toMatchObject({ kind: 'no_debt', status: 'earned', week: 2 });
    expect(of(idle).every((row) => Number(row.cash_end_cents) >= 0)).toBe(true);
    expect(main(idleView)[5]).toMatchObject({ kind: 'no_debt', status: 'earned', points_earned: 10, week: 2 });
    expect(main(idleView)[5]!.evidence!.summary).toBe('Cash at $0 or more at the end of every week in weeks 1 to 2');

    // The assignment due in week 1 is closed; what it needed was earned in week 1.
    const late = builderView.find((entry) => entry.id === lateId)!;
    expect(late).toMatchObject({ status: 'closed', points_earned: 5 });
    expect(idleView.find((entry) => entry.id === lateId)!.checkpoints[0]).toMatchObject({ status: 'missed', points_earned: 0 });
  });

  it("grades the question from the student's own week: one answer, right or wrong", async () => {
    const question = checkpoint(await mine(builder), assignmentId, 'profit_question');
    expect(question.status).toBe('open');
    expect(question.question.week).toBe(2);
    expect(question.question.prompt).toMatch(/^In week 2 your profit was \$-?[\d,]+\.\d\d\. Which term moved it most \(up or down\)\?$/);
    const [report] = await app.database.db.execute<Record<string, number>>(sql`
      select r.* from week_reports r join companies c on c.world_id = r.world_id and c.id = r.company_id
      where r.world_id = ${worldId} and c.user_id = ${builder.userId} and r.week = 2`);
    const expected = profitQuestion({
      profitCents: Number(report!.profit_cents),
      storeRevenueCents: Number(report!.store_revenue_cents),
      marketSalesCents: Number(report!.market_sales_cents),
      marketPurchasesCents: Number(report!.market_purchases_cents),
      wagesCents: Number(report!.wages_cents),
      operatingCents: Number(report!.operating_cents),
      subsidyCents: Number(report!.subsidy_cents),
      taxCents: Number(report!.tax_cents),
    })!;
    expect(question.question.options.map((option: { name: string }) => option.name)).toEqual(expected.options.map((option) => option.name));
    const answer = { checkpoint_id: question.id, week: 2, answer: expected.answer };
    const wrongName = expected.options.find((option) => option.name !== expected.answer)!.name;

    const badWeek = await api('POST', `/me/assignments/${assignmentId}/answers`, { token: builder.token, body: { ...answer, week: 9 } });
    expect(badWeek.status).toBe(422);
    expect(badWeek.body.error).toBe('Answer about a week up to the due week (3)');
    const notAQuestion = await api('POST', `/me/assignments/${assignmentId}/answers`, {
      token: builder.token,
      body: { ...answer, checkpoint_id: checkpoint(await mine(builder), assignmentId, 'chain').id },
    });
    expect(notAQuestion.body.error).toBe('This checkpoint is graded by the turn: it has no question to answer');
    const unknownTerm = await api('POST', `/me/assignments/${assignmentId}/answers`, { token: builder.token, body: { ...answer, answer: 'luck' } });
    expect(unknownTerm.status).toBe(400);
    // The idle student cannot answer about a week with nothing in it.
    const idleQuestion = checkpoint(await mine(idle), assignmentId, 'profit_question');
    expect(idleQuestion).toMatchObject({ status: 'open', question: null });
    const idleAnswer = await api('POST', `/me/assignments/${assignmentId}/answers`, { token: idle.token, body: { ...answer, answer: 'wages' } });
    expect(idleAnswer.status).toBe(422);
    expect(idleAnswer.body.error).toBe("Week 2's profit moved by fewer than two terms: there is nothing to ask about it");

    // Two answers at once: exactly one counts, the other is told.
    const both = await Promise.all([
      api('POST', `/me/assignments/${assignmentId}/answers`, { token: builder.token, body: answer }),
      api('POST', `/me/assignments/${assignmentId}/answers`, { token: builder.token, body: { ...answer, answer: wrongName } }),
    ]);
    expect(both.map((response) => response.status).sort()).toEqual([200, 409]);
    const refused = both.find((response) => response.status === 409)!;
    expect(refused.body.error).toBe('You have already answered this question');
    const graded = both.find((response) => response.status === 200)!.body as Checkpoint;
    const right = graded.status === 'earned';
    expect(graded).toMatchObject({ points_earned: right ? 15 : 0, week: 2, question: null });
    expect(graded.evidence!.summary).toContain(
      `the term that moved profit most was "${expected.options.find((option) => option.name === expected.answer)!.label}"`,
    );
  });

  it("shows the gradebook to the instructor only, with each student's points, evidence and final score by the weights", async () => {
    for (const player of [builder, idle, outsider]) {
      const refused = await api('GET', `/worlds/${worldId}/gradebook`, { token: player.token });
      expect(refused.status).toBe(player === outsider ? 404 : 403);
      expect((await api('GET', `/worlds/${worldId}/gradebook.csv`, { token: player.token })).status).toBe(player === outsider ? 404 : 403);
    }
    const badWeights = await api('PUT', `/worlds/${worldId}/score-weights`, {
      token: teacher.token,
      body: { net_worth_rank: 50, profit: 20, checkpoints: 20 },
    });
    expect(badWeights.status).toBe(400);
    expect(badWeights.body.error).toBe('The weights must add up to 100');
    expect(
      (await api('PUT', `/worlds/${worldId}/score-weights`, { token: builder.token, body: { net_worth_rank: 0, profit: 0, checkpoints: 100 } })).status,
    ).toBe(403);
    const weights = await api('PUT', `/worlds/${worldId}/score-weights`, { token: teacher.token, body: { net_worth_rank: 50, profit: 0, checkpoints: 50 } });
    expect(weights.body).toEqual({ net_worth_rank: 50, profit: 0, checkpoints: 50, team_weighting: 'equal' });

    const book = (await api('GET', `/worlds/${worldId}/gradebook`, { token: teacher.token })).body;
    expect(book.assignments.map((entry: { title: string }) => entry.title)).toEqual(['Week 1 only', 'Weeks 1-3: a business that runs']);
    const row = (player: TestPlayer) => book.students.find((student: { user_id: number }) => student.user_id === player.userId);
    const builderView = await mine(builder);
    const idleView = await mine(idle);
    for (const [player, view] of [
      [builder, builderView],
      [idle, idleView],
    ] as const) {
      // The gradebook and the student's page agree, checkpoint by checkpoint.
      for (const assignment of view) {
        const entry = row(player).assignments.find((item: { assignment_id: number }) => item.assignment_id === assignment.id);
        expect(entry.points).toBe(assignment.points_earned);
        expect(entry.checkpoints.map((item: { checkpoint_id: number }) => item.checkpoint_id)).toEqual(
          assignment.checkpoints.filter((item) => item.points_earned > 0).map((item) => item.id),
        );
      }
      const total = view.reduce((sum, assignment) => sum + assignment.points_earned, 0);
      expect(row(player).total_points).toBe(total);
      expect(row(player).checkpoint_score).toBe(Math.round((100 * total) / 105));
      expect(row(player).final_score).toBe(Math.round((50 * row(player).net_worth_rank_score + 50 * row(player).checkpoint_score) / 100));
    }
    const evidence = row(builder).assignments.find((item: { assignment_id: number }) => item.assignment_id === assignmentId).checkpoints[0].evidence;
    expect(evidence.figures[0]).toMatchObject({ label: 'Net worth', unit: 'dollars' });

    const csv = await fetch(`${app.baseUrl}/api/worlds/${worldId}/gradebook.csv`, { headers: { authorization: `Bearer ${teacher.token}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="gradebook-econ-101-week-3.csv"');
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Student,ID,SIS User ID,SIS Login ID,Section,Email address,Week 1 only (5),Weeks 1-3: a business that runs (100),Marketcraft final score (100)',
    );
    expect(lines[1]).toBe('Points Possible,,,,,,5,100,100');
    expect(lines).toContain(
      `${builder.email},,,${builder.email},Econ 101,${builder.email},${row(builder).assignments[0].points},${row(builder).assignments[1].points},${row(builder).final_score}`,
    );
    expect(lines).toHaveLength(4);
  });

  it('changes the due week and deletes an assignment (instructors only)', async () => {
    expect((await api('PATCH', `/worlds/${worldId}/assignments/${lateId}`, { token: idle.token, body: { due_week: 5 } })).status).toBe(403);
    const moved = await api('PATCH', `/worlds/${worldId}/assignments/${lateId}`, { token: teacher.token, body: { due_week: 5 } });
    expect(moved.body).toMatchObject({ id: lateId, due_week: 5 });
    expect((await mine(idle)).find((entry) => entry.id === lateId)!.status).toBe('open');
    expect((await api('PATCH', `/worlds/${worldId}/assignments/99999`, { token: teacher.token, body: { due_week: 5 } })).body.error).toBe(
      'Assignment not found',
    );
    expect((await api('DELETE', `/worlds/${worldId}/assignments/${lateId}`, { token: builder.token })).status).toBe(403);
    expect((await api('DELETE', `/worlds/${worldId}/assignments/${lateId}`, { token: teacher.token })).body).toEqual({ ok: true });
    expect((await mine(builder)).map((entry) => entry.id)).toEqual([assignmentId]);
    // Every change is in the world's action log (db/src/game/replay/log.ts), in the order it was made.
    const logged = await app.database.db.execute<{ action: string }>(
      sql`select action from world_actions where world_id = ${worldId} and action in ('createAssignment', 'updateAssignment', 'deleteAssignment', 'setScoreWeights', 'answerCheckpoint') order by seq`,
    );
    expect(logged.map((row) => row.action)).toEqual([
      'createAssignment',
      'createAssignment',
      'answerCheckpoint',
      'setScoreWeights',
      'updateAssignment',
      'deleteAssignment',
    ]);
  });
});

describe('assignments in a world of teams', { timeout: 240_000 }, () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it("gives a team's checkpoint to every member, equally or by their share of the team's actions, as the instructor chooses", async () => {
    const teacher = await app.createPlayer({ name: 'Team Teacher' });
    const [ana, ben, cleo] = [await app.createPlayer({ name: 'Ana' }), await app.createPlayer({ name: 'Ben' }), await app.createPlayer({ name: 'Cleo' })];
    const world = (await app.api('POST', '/worlds', { token: teacher.token, body: { name: 'Teams 200', bots: 0, team_size: 3, turn_interval_minutes: null } }))
      .body;
    const join = (player: TestPlayer, body: Record<string, unknown> = {}) =>
      app.api('POST', '/worlds/join', { token: player.token, body: { code: world.join_code, ...body } });
    expect((await join(ana, { company_name: 'Ana and Ben' })).status).toBe(200);
    const anaTeam = (await app.api('GET', `/worlds/${world.id}/teams`, { token: ana.token })).body.teams[0];
    expect((await join(ben, { team_code: anaTeam.team_code })).status).toBe(200);
    expect((await join(cleo, { company_name: 'Cleo Alone' })).status).toBe(200);
    for (const player of [ana, ben, cleo]) await app.api('PUT', '/session/world', { token: player.token, body: { world_id: world.id } });
    const created = await app.api('POST', `/worlds/${world.id}/assignments`, {
      token: teacher.token,
      body: { title: 'Stay solvent', due_week: 2, checkpoints: [{ kind: 'no_debt', points: 20, weeks: 1 }] },
    });
    expect(created.status).toBe(200);
    // Ana acts for the team (a farm); Ben does nothing.
    const cities = (await app.api('GET', '/cities', { token: ana.token })).body as { id: number }[];
    expect((await app.api('POST', '/buildings', { token: ana.token, body: { type: 'farm', city_id: cities[0]!.id } })).status).toBe(200);
    expect((await runTurn(app.database.db, { worldId: world.id })).status).toBe('advanced');

    const pointsOf = async () => {
      const book = (await app.api('GET', `/worlds/${world.id}/gradebook`, { token: teacher.token })).body;
      return Object.fromEntries(
        [ana, ben, cleo].map((player) => [
          player === ana ? 'ana' : player === ben ? 'ben' : 'cleo',
          book.students.find((row: { user_id: number }) => row.user_id === player.userId),
        ]),
      );
    };
    const equal = await pointsOf();
    expect([equal.ana.total_points, equal.ben.total_points, equal.cleo.total_points]).toEqual([20, 20, 20]);
    expect(equal.ana.company_id).toBe(equal.ben.company_id);
    // One team, one rank: both members share it.
    expect(equal.ana.net_worth_rank_score).toBe(equal.ben.net_worth_rank_score);

    const set = await app.api('PUT', `/worlds/${world.id}/score-weights`, {
      token: teacher.token,
      body: { net_worth_rank: 0, profit: 0, checkpoints: 100, team_weighting: 'contribution' },
    });
    expect(set.body).toEqual({ net_worth_rank: 0, profit: 0, checkpoints: 100, team_weighting: 'contribution' });
    const byContribution = await pointsOf();
    // Ana took every action of the team: full points; Ben none: no points; Cleo, alone, all of hers.
    expect([byContribution.ana.total_points, byContribution.ben.total_points, byContribution.cleo.total_points]).toEqual([20, 0, 20]);
    expect([byContribution.ana.final_score, byContribution.ben.final_score]).toEqual([100, 0]);
    // Ben's own page says the same: the team earned it, his share is 0.
    const bens = (await app.api('GET', '/me/assignments', { token: ben.token })).body as Mine[];
    expect(bens[0]!.checkpoints[0]).toMatchObject({ status: 'earned', points_earned: 0 });
    const anas = (await app.api('GET', '/me/assignments', { token: ana.token })).body as Mine[];
    expect(anas[0]!.checkpoints[0]).toMatchObject({ status: 'earned', points_earned: 20 });
    expect(
      (
        await app.api('PUT', `/worlds/${world.id}/score-weights`, {
          token: teacher.token,
          body: { net_worth_rank: 0, profit: 0, checkpoints: 100, team_weighting: 'fair' },
        })
      ).body.error,
    ).toBe('Team weighting is equal or contribution');
  });
});
