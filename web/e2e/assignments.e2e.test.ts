/**
 * Graded assignments in the browser (docs/classroom.md, "Assignments"): in a world of teams of 3,
 * an instructor adds an assignment with four kinds of checkpoint on the manage page; three students
 * join two teams; one of them (on a phone, dark) plays: a farm, three turns, the profit question
 * answered on their Assignments page; the gradebook shows each student's points (the teammate the
 * team's, the loner their own) with the evidence of each checkpoint, and the CSV downloads in the
 * Canvas and Moodle layout.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  PHONE,
  apiGet,
  apiPost,
  apiPut,
  launchBrowser,
  newPage,
  seriousAxeViolations,
  signUpViaApi,
  uniqueEmail,
  useColorScheme,
  STORY_TIMEOUT_MS,
} from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Picks `option` in the Mantine select labelled `label` inside `scope`'s row. */
async function choose(page: Page, row: string, label: string, option: string): Promise<void> {
  await page.getByTestId(row).getByLabel(label, { exact: true }).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('assignments journey', { timeout: STORY_TIMEOUT_MS }, () => {
  it("teams of 3: an assignment with four kinds of checkpoint, three students in two teams, three turns, the gradebook shows each student's points with evidence, the CSV downloads", async () => {
    const teacher = await newPage(browser);
    await signUpViaApi(teacher.context, uniqueEmail('teacher'));
    const world = await apiPost<{ id: number; join_code: string }>(teacher.context, '/worlds', {
      name: 'Graded e2e',
      turn_interval_minutes: null,
      starting_cash: 100000,
      bots: 0,
      team_size: 3,
    });
    await teacher.page.goto(`/worlds/${world.id}/manage`);
    const card = teacher.page.getByTestId('assignments-card');
    await card.getByText('No assignments yet: add one below. The turn grades its checkpoints every week.').waitFor();

    await teacher.page.getByTestId('assignment-title').fill('First weeks');
    await teacher.page.getByTestId('assignment-due-week').fill('3');
    await teacher.page.getByTestId('draft-checkpoint-0').getByRole('textbox', { name: 'Net worth (dollars)' }).fill('50000');
    // A missing target is refused with the API's own message before anything is sent.
    await card.getByRole('button', { name: 'Add a checkpoint' }).click();
    await choose(teacher.page, 'draft-checkpoint-1', 'Checkpoint 2', 'Hold no debt for N weeks in a row');
    await teacher.page.getByTestId('create-assignment').click();
    await card.getByRole('alert').getByText('Hold no debt for N weeks in a row: enter the number of weeks').waitFor();
    await teacher.page.getByTestId('draft-checkpoint-1').getByRole('textbox', { name: 'Weeks in a row' }).fill('1');
    await card.getByRole('button', { name: 'Add a checkpoint' }).click();
    await choose(teacher.page, 'draft-checkpoint-2', 'Checkpoint 3', 'Keep every building efficient');
    await teacher.page.getByTestId('draft-checkpoint-2').getByRole('textbox', { name: 'Efficiency at least (%)' }).fill('20');
    await card.getByRole('button', { name: 'Add a checkpoint' }).click();
    await choose(teacher.page, 'draft-checkpoint-3', 'Checkpoint 4', 'Answer: which term moved your profit most?');
    await teacher.page.getByTestId('create-assignment').click();
    await teacher.page.getByText('First weeks: 40 points, due week 3.').waitFor();
    await card.getByRole('cell', { name: 'First weeks', exact: true }).waitFor();

    // The student joins, plays in the class world and builds a farm (through the API: the build journeys test the pages).
    const student = await newPage(browser, PHONE);
    await useColorScheme(student.context, 'dark');
    const studentEmail = uniqueEmail('graded');
    await signUpViaApi(student.context, studentEmail);
    await apiPost(student.context, '/worlds/join', { code: world.join_code, company_name: 'Graded Farms' });
    await apiPut(student.context, '/session/world', { world_id: world.id });
    const cities = await apiGet<{ id: number }[]>(student.context, '/cities');
    await apiPost(student.context, '/buildings', { type: 'farm', city_id: cities[0]!.id });
    // Teams of 3: a second student joins this student's team by its code, a third plays alone.
    const team = (await apiGet<{ teams: { team_code: string }[] }>(student.context, `/worlds/${world.id}/teams`)).teams[0]!;
    const teammate = await newPage(browser);
    const teammateEmail = uniqueEmail('teammate');
    await signUpViaApi(teammate.context, teammateEmail);
    await apiPost(teammate.context, '/worlds/join', { code: world.join_code, team_code: team.team_code });
    const loner = await newPage(browser);
    const lonerEmail = uniqueEmail('loner');
    await signUpViaApi(loner.context, lonerEmail);
    await apiPost(loner.context, '/worlds/join', { code: world.join_code, company_name: 'Solo Traders' });

    await student.page.goto('/assignments');
    await student.page.getByRole('heading', { level: 1, name: 'Assignments' }).waitFor();
    const assignment = student.page.locator('[data-testid^="assignment-"]').filter({ hasText: 'First weeks' });
    await assignment.getByText('Due week 3').waitFor();
    await assignment.getByTestId('checkpoint-net_worth').getByText("Your company's net worth at the end of a week reaches $50,000.").waitFor();
    await assignment
      .getByTestId('checkpoint-profit_question')
      .getByText(/at least two terms moved your profit/)
      .waitFor();

    const week = teacher.page.getByTestId('manage-week');
    await teacher.page.getByTestId('advance-turn').click();
    await week.getByText('2', { exact: true }).waitFor({ timeout: 60_000 });

    // After a week: three checkpoints earned with their evidence, and the question about week 1.
    await student.page.reload();
    await assignment.getByTestId('checkpoint-net_worth').getByText('Earned').waitFor();
    await assignment
      .getByTestId('checkpoint-net_worth')
      .getByText(/^Net worth \$[\d,]+\.\d\d at the end of week 1 \(target \$50,000\.00\)$/)
      .waitFor();
    await assignment.getByTestId('checkpoint-no_debt').getByText('Earned').waitFor();
    await assignment.getByTestId('checkpoint-efficiency').getByText('Every building at 25% efficiency or more at the end of week 1').waitFor();
    const question = assignment.getByTestId('checkpoint-profit_question');
    await question.getByText(/^In week 1 your profit was \$-?[\d,]+\.\d\d\. Which term moved it most \(up or down\)\?$/).waitFor();
    await question.getByRole('radio', { name: 'Wages' }).check();
    await question.getByRole('button', { name: 'Send answer' }).click();
    await question.getByText(/^(Earned|Answered wrongly)$/).waitFor();
    await question.getByText(/the term that moved profit most was/).waitFor();
    const mine = await apiGet<{ title: string; points_earned: number }[]>(student.context, '/me/assignments');
    const earned = mine.find((entry) => entry.title === 'First weeks')!.points_earned;
    expect([30, 40]).toContain(earned);
    await assignment.getByTestId('assignment-points').getByText(`${earned} / 40 points`).waitFor();
    // The page itself (the answer's toast, with its own close button, gone first).
    // It closes 5 s after it shows; on a starved machine its exit comes later: a locator's wait plus that.
    await student.page.locator('.mantine-Notification-root').waitFor({ state: 'detached', timeout: 30_000 });
    expect(await seriousAxeViolations(student.page), 'the Assignments page, dark, on a phone').toEqual([]);

    await teacher.page.getByTestId('advance-turn').click();
    await week.getByText('3', { exact: true }).waitFor({ timeout: 60_000 });
    await teacher.page.getByTestId('advance-turn').click();
    await week.getByText('4', { exact: true }).waitFor({ timeout: 60_000 });

    // The gradebook: the student's points, their evidence on opening the row, the CSV.
    await teacher.page.reload();
    const gradebook = teacher.page.getByTestId('gradebook');
    const row = gradebook.getByRole('row').filter({ hasText: studentEmail });
    await row
      .getByRole('cell', { name: String(earned), exact: true })
      .first()
      .waitFor();
    await row.getByRole('button', { name: new RegExp(studentEmail.replace(/[.+]/g, '\\$&')) }).click();
    const evidence = teacher.page.getByTestId('gradebook-evidence');
    await evidence.getByText(`First weeks: ${earned} / 40`).waitFor();
    await evidence.getByText(/^Net worth \$[\d,]+\.\d\d at the end of week 1/).waitFor();
    await evidence.getByText('Every building at 25% efficiency or more at the end of week 1').waitFor();
    expect(await seriousAxeViolations(teacher.page), 'the manage page with the gradebook open').toEqual([]);
    // Sortable: the final score's header sorts and says so.
    await gradebook.getByRole('button', { name: 'Final score' }).click();
    expect(await gradebook.getByRole('columnheader', { name: 'Final score' }).getAttribute('aria-sort')).toBe('descending');

    const [download] = await Promise.all([teacher.page.waitForEvent('download'), teacher.page.getByTestId('gradebook-csv').click()]);
    expect(download.suggestedFilename()).toBe('gradebook-graded-e2e-week-4.csv');
    const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Student,ID,SIS User ID,SIS Login ID,Section,Email address,First weeks (40),Marketcraft final score (100)');
    expect(lines[1]).toBe('Points Possible,,,,,,40,100');
    const csvRow = (email: string) => lines.find((line) => line.startsWith(`${email},`));
    expect(csvRow(studentEmail)).toMatch(new RegExp(`^[^,]+,,,[^,]+,Graded e2e,[^,]+,${earned},\\d+$`));
    expect(csvRow(teammateEmail)!.split(',').at(-2)).toBe(String(earned));
    expect(csvRow(lonerEmail)!.split(',').at(-2)).toBe('20');
    expect(lines).toHaveLength(5);
  });
});
