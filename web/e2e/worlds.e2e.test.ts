/**
 * A classroom world in the browser (docs/worlds.md): an instructor creates a private world, two
 * students join it by its code (one on the Worlds page, one through the API), the instructor runs
 * a turn, applies a demand shock, runs two more turns, and the debrief shows the net worth over the
 * weeks with the shock marked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PHONE, apiGet, apiPost, launchBrowser, newPage, signUpInBrowser, signUpViaApi, uniqueEmail, STORY_TIMEOUT_MS } from './browser';
import { formatDollars } from '@marketcraft/shared';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('classroom world journey', { timeout: STORY_TIMEOUT_MS }, () => {
  it('creates a world, students join by code, three turns and a shock, and the debrief charts it', async () => {
    const teacher = await newPage(browser);
    await signUpInBrowser(teacher.page, uniqueEmail('teacher'));
    await teacher.page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    await teacher.page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Worlds' }).click();
    await teacher.page.getByRole('heading', { level: 1, name: 'Worlds' }).waitFor();
    // In the public world the footer keeps the spec's line while its schedule runs (the header's 'Every 12 hours').
    const publicTurns = (await apiGet<{ turns: string }>(teacher.context, '/world')).turns;
    await teacher.page
      .getByTestId('footer-turns')
      .getByText(publicTurns === 'Every 12 hours' ? 'Turns every 12 hours' : publicTurns, { exact: true })
      .waitFor();
    await teacher.page.getByTestId('footer-bots').getByText('Compete with 25+ AI bots', { exact: true }).waitFor();

    // A bad setting first: the shared schema's message, before anything is sent.
    await teacher.page.getByTestId('world-name').fill('Econ 101 e2e');
    await teacher.page.getByTestId('world-bots').fill('30');
    await teacher.page.getByTestId('create-world').click();
    await teacher.page.getByTestId('create-world-error').getByText('Bots must be between 0 and 25').waitFor();
    await teacher.page.getByTestId('world-bots').fill('2');
    await teacher.page.getByTestId('create-world').click();
    await teacher.page.waitForURL((url) => /^\/worlds\/\d+\/manage$/.test(url.pathname));
    await teacher.page.getByRole('heading', { level: 1, name: 'Manage Econ 101 e2e' }).waitFor();
    const code = (await teacher.page.getByTestId('manage-join-code').textContent())!.trim();
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    const worldId = Number(/\/worlds\/(\d+)\/manage/.exec(teacher.page.url())![1]);
    // The course-system card gives the addresses a Canvas or Moodle registration asks for.
    const addresses = teacher.page.getByTestId('lti-addresses');
    await addresses.getByText(/\/api\/lti\/launch$/).waitFor();
    expect(await addresses.textContent()).toContain('/api/lti/jwks');
    await teacher.page.getByTestId('course-system-card').getByText('No course platform registered yet: register yours below.').waitFor();
    // A manual clock (the form's default): the server's words, not a schedule.
    await teacher.page.getByTestId('manage-turns').getByText('Manual turns', { exact: true }).waitFor();
    // The teacher plays in the public world: the page says whose week the header shows.
    expect(await teacher.page.getByTestId('manage-header-note').textContent()).toBe(
      'The header shows your company in Public world (its week and cash); this page runs Econ 101 e2e, at the week its clock says.',
    );

    // Student 1 joins on the Worlds page and plays in the class world from then on.
    const first = await newPage(browser);
    await signUpInBrowser(first.page, uniqueEmail('student-a'));
    await first.page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    await first.page.goto('/worlds');
    await first.page.getByTestId('join-code').fill(code.toLowerCase());
    await first.page.getByTestId('join-company-name').fill('Student A Bakery');
    await first.page.getByTestId('join-world').click();
    await first.page.waitForURL((url) => url.pathname === '/');
    await first.page.getByTestId('header-cash').getByText('$100,000').waitFor();
    await first.page.getByTestId('header-next-turn').getByText('Manual turns', { exact: true }).waitFor();
    // The side menu's footer agrees with the header: no 'Turns every 12 hours' in a manual class world.
    await first.page.getByTestId('footer-turns').getByText('Manual turns', { exact: true }).waitFor();
    expect(await first.page.getByText('Turns every 12 hours').count()).toBe(0);
    // Nor 'Compete with 25+ AI bots': this class has the 2 bots its teacher chose.
    await first.page.getByTestId('footer-bots').getByText('Compete with 2 AI bots', { exact: true }).waitFor();
    expect((await apiGet<{ id: number }>(first.context, '/session/world')).id).toBe(worldId);

    // Student 2 joins through the API.
    const second = await newPage(browser);
    const secondEmail = uniqueEmail('student-b');
    await signUpViaApi(second.context, secondEmail);
    const joined = await apiPost<{ id: number; players: number }>(second.context, '/worlds/join', { code });
    expect(joined).toMatchObject({ id: worldId, players: 2 });

    // Joining through the API leaves this session in the public world, as a new sign-in does: the
    // public world's dashboard names the class and plays there in one press (on a phone too).
    await second.page.setViewportSize(PHONE);
    await second.page.goto('/');
    const otherWorlds = second.page.getByTestId('other-worlds');
    await otherWorlds.getByText('You are in the public world').waitFor();
    await otherWorlds.getByText('Econ 101 e2e', { exact: true }).waitFor();
    await otherWorlds.getByText('week 1', { exact: true }).waitFor();
    await otherWorlds.getByRole('button', { name: 'Play in Econ 101 e2e' }).click();
    await second.page.getByTestId('dashboard-world').getByText('Econ 101 e2e').waitFor();
    await otherWorlds.waitFor({ state: 'detached' });
    expect((await apiGet<{ id: number }>(second.context, '/session/world')).id).toBe(worldId);
    // The Worlds page on that phone: each world's facts under its name, its Play button in view.
    await second.page.goto('/worlds');
    await second.page
      .getByTestId(`world-details-${worldId}`)
      .getByText(/Week 1 · 2 players · Manual turns · You: Player/)
      .waitFor();
    await second.page.getByTestId(`world-row-${worldId}`).getByText('Playing', { exact: true }).waitFor();
    // The badge shows its whole word (a phone's narrow column cut it to 'PL...').
    expect(
      await second.page
        .getByTestId(`world-row-${worldId}`)
        .getByText('Playing', { exact: true })
        .evaluate((label) => label.scrollWidth <= label.clientWidth),
    ).toBe(true);
    const playPublic = second.page.getByRole('row').filter({ hasText: 'Public world' }).getByRole('button', { name: 'Play' });
    const playBox = (await playPublic.boundingBox())!;
    expect(playBox.x + playBox.width).toBeLessThanOrEqual(PHONE.width);
    // A player of the public world makes a sandbox (a backtest) here: its manage page says it is
    // theirs alone, and nobody else's list has it.
    await second.page.getByTestId('sandbox-week').fill('1');
    await second.page.getByTestId('make-sandbox').click();
    await second.page.getByTestId('sandbox-note').waitFor({ timeout: 60_000 });
    // Nobody joins it: once its clock shows, it offers no join code and no co-instructors.
    await second.page.getByTestId('manage-week').waitFor();
    await second.page.getByTestId('announcement').waitFor();
    expect(await second.page.getByRole('button', { name: 'New join code' }).count()).toBe(0);
    expect(await second.page.getByTestId('manage-join-code').count()).toBe(0);
    expect(await second.page.getByTestId('co-instructor-email').count()).toBe(0);
    const sandboxId = Number(/\/worlds\/(\d+)\/manage/.exec(second.page.url())![1]);
    expect((await apiGet<Array<{ id: number }>>(teacher.context, '/worlds')).some((world) => world.id === sandboxId)).toBe(false);
    expect((await apiGet<Array<{ id: number; sandbox: boolean }>>(second.context, '/worlds')).find((world) => world.id === sandboxId)).toMatchObject({
      sandbox: true,
    });
    // The teacher's public dashboard links to the class's manage page instead.
    await teacher.page.goto('/');
    await teacher.page.getByTestId('other-worlds').getByText('Your class worlds').waitFor();
    await teacher.page.getByTestId('other-worlds').getByRole('button', { name: 'Play in Econ 101 e2e' }).waitFor({ state: 'detached' });
    await teacher.page.getByTestId('other-worlds').getByRole('link', { name: 'Manage Econ 101 e2e' }).click();
    await teacher.page.getByRole('heading', { level: 1, name: 'Manage Econ 101 e2e' }).waitFor();

    // One turn, a shock, two more turns.
    await teacher.page.reload();
    const week = teacher.page.getByTestId('manage-week');
    await week.getByText('1', { exact: true }).waitFor();
    // A double click runs one turn: the button is disabled while it runs (the debrief below counts the weeks).
    // The turn's toast is watched for from before the press: it shows as the server answers, the
    // page's week a refetch later, and it closes 5 s after it shows (on a busy machine the refetch
    // took longer than that: the toast was gone before it was looked for).
    const weekTwoToast = teacher.page.getByText('The world is now in week 2.').waitFor({ timeout: 60_000 });
    await teacher.page.getByTestId('advance-turn').dblclick();
    await weekTwoToast;
    await week.getByText('2', { exact: true }).waitFor({ timeout: 60_000 });

    await teacher.page.getByTestId('shock-target').fill('White Bread');
    await teacher.page.getByRole('option', { name: 'White Bread', exact: true }).click();
    await teacher.page.getByTestId('shock-percent').fill('-40');
    await teacher.page.getByTestId('shock-weeks').fill('2');
    await teacher.page.getByTestId('apply-shock').click();
    await teacher.page.getByText('Consumer demand for White Bread -40% for 2 weeks').first().waitFor();

    await teacher.page.getByTestId('advance-turn').click();
    await week.getByText('3', { exact: true }).waitFor({ timeout: 60_000 });
    // Pressed again at once: the toast says the week the server answered (4), and the week-3 toast
    // (or the shock's) is gone, not still on screen with the new one queued behind it. Watched for
    // from before the press, as above.
    const weekFourToast = teacher.page.getByText('The world is now in week 4.').waitFor({ timeout: 60_000 });
    await teacher.page.getByTestId('advance-turn').click();
    await weekFourToast;
    await teacher.page.getByText('The world is now in week 3.').waitFor({ state: 'detached' });
    await week.getByText('4', { exact: true }).waitFor({ timeout: 60_000 });

    // The debrief: net worth by company over the three weeks, the shock marked and listed.
    const debrief = teacher.page.getByTestId('debrief');
    await debrief.getByTestId('debrief-net-worth').waitFor();
    await debrief.getByTestId('debrief-shocks').getByText('Week 2-3: Consumer demand for White Bread -40% for 2 weeks').waitFor();
    const series = await apiGet<{ weeks: number[]; companies: Array<{ name: string; points: unknown[] }> }>(teacher.context, `/worlds/${worldId}/debrief`);
    expect(series.weeks).toEqual([1, 2, 3]);
    expect(series.companies.find((company) => company.name === 'Student A Bakery')?.points).toHaveLength(3);

    // A fork at the start of week 3 (replayed from the log) with changes: a price shock on White
    // Bread and the bots stopped. Its own manage page, at week 3, the students' companies in it,
    // and its own turns.
    await teacher.page.getByTestId('fork-week').fill('3');
    await teacher.page.getByTestId('fork-name').fill('Econ 101 what if');
    await teacher.page.getByTestId('fork-with-shock').check();
    await teacher.page.getByTestId('fork-shock-kind').click();
    await teacher.page.getByRole('option', { name: "A product's market price" }).click();
    await teacher.page.getByTestId('fork-shock-target').fill('White Bread');
    await teacher.page.getByRole('option', { name: 'White Bread', exact: true }).click();
    await teacher.page.getByTestId('fork-shock-percent').fill('50');
    await teacher.page.getByTestId('fork-stop-bots').check();
    await teacher.page.getByTestId('fork-world').click();
    await teacher.page.getByRole('heading', { level: 1, name: 'Manage Econ 101 what if' }).waitFor({ timeout: 60_000 });
    const forkId = Number(/\/worlds\/(\d+)\/manage/.exec(teacher.page.url())![1]);
    expect(forkId).not.toBe(worldId);
    await teacher.page.getByTestId('manage-week').getByText('3', { exact: true }).waitFor();
    const studentWorlds = await apiGet<Array<{ id: number; joined: boolean; current_week: number }>>(first.context, '/worlds');
    expect(studentWorlds.find((world) => world.id === forkId)).toMatchObject({ joined: true, current_week: 3 });
    await teacher.page.getByTestId('advance-turn').click();
    await teacher.page.getByTestId('manage-week').getByText('4', { exact: true }).waitFor({ timeout: 60_000 });
    // The forked debrief: both worlds from week 2 on, the shocked product's price by default, and a
    // table of every company in both; its figures are the server's.
    const comparison = teacher.page.getByTestId('fork-comparison');
    await comparison.getByRole('figure', { name: 'Net worth of Student A Bakery by week, in this fork and in the original' }).waitFor({ timeout: 30_000 });
    await comparison.getByRole('figure', { name: 'Price of White Bread by week, in this fork and in the original' }).waitFor();
    const figures = await apiGet<{ weeks: number[]; companies: Array<{ name: string; points: Array<{ week: number; fork: number | null }> }> }>(
      teacher.context,
      `/worlds/${forkId}/fork-comparison`,
    );
    expect(figures.weeks).toEqual([2, 3]);
    const studentA = figures.companies.find((company) => company.name === 'Student A Bakery')!;
    const row = comparison.getByTestId('fork-comparison-table').getByRole('row').filter({ hasText: 'Student A Bakery' });
    await row
      .getByText(formatDollars(studentA.points.at(-1)!.fork!))
      .first()
      .waitFor();
    await teacher.page.goBack();
    await teacher.page.getByRole('heading', { level: 1, name: 'Manage Econ 101 e2e' }).waitFor();

    // A co-instructor added by email, then removed (after the confirmation): anybody added can go.
    await teacher.page.getByTestId('co-instructor-email').fill(secondEmail);
    await teacher.page.getByTestId('add-co-instructor').click();
    const assistant = teacher.page.getByText(`${secondEmail} (co-instructor)`);
    await assistant.waitFor();
    teacher.page.once('dialog', (dialog) => void dialog.accept());
    await teacher.page.getByRole('button', { name: 'Remove', exact: true }).click();
    await teacher.page.getByText('Co-instructor removed').waitFor();
    await assistant.waitFor({ state: 'detached' });

    // The students' news shows the shock.
    const news = await apiGet<Array<{ kind: string; description: string; week: number }>>(first.context, '/transactions/recent');
    expect(news.some((item) => item.kind === 'shock' && item.description.includes('White Bread'))).toBe(true);

    // Student A built nothing: a flat cash line, whose axis still reads as a scale ($99K to $101K),
    // not five ticks a dollar apart that all read "$100K".
    await first.page.goto('/');
    // The dashboard's news says the game week of each item (a class plays weeks in minutes).
    const shockWeek = news.find((item) => item.kind === 'shock')!.week;
    const shockItem = first.page.getByTestId('news-item').filter({ hasText: 'Shock: ' }).filter({ hasText: 'White Bread' }).first();
    expect(await shockItem.getByTestId('news-when').textContent()).toMatch(new RegExp(`^Week ${shockWeek} · `));
    const yTicks = first.page.getByRole('figure', { name: 'Cash after each turn' }).locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value');
    await yTicks.first().waitFor();
    const labels = await yTicks.allTextContents();
    expect(labels.length).toBeGreaterThan(2);
    expect(new Set(labels).size, labels.join(' ')).toBe(labels.length);
    // ... and all in one format ('$99.0K' beside '$99.5K', not '$99K').
    expect(new Set(labels.map((label) => label.replace(/[\d,]+/g, '9'))).size, labels.join(' ')).toBe(1);
  });
});
