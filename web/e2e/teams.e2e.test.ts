/**
 * Teams in a class world in the browser (docs/classroom.md, "Teams"): an instructor creates a world
 * with teams of 3, a student joins it and finds their team code on the dashboard, a second student
 * joins that team with it (on a phone, in dark mode), both see the same team and company, and the
 * instructor's Teams panel shows the team with its two members, their roles and their contributions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PHONE, apiGet, launchBrowser, newPage, signUpInBrowser, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('teams journey', () => {
  it('creates a world with teams of 3, two students join one team, and everyone sees it', async () => {
    const teacher = await newPage(browser);
    await signUpInBrowser(teacher.page, uniqueEmail('team-teacher'));
    await teacher.page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    await teacher.page.goto('/worlds');
    await teacher.page.getByTestId('world-name').fill('Teams e2e');
    await teacher.page.getByTestId('world-bots').fill('1');
    await teacher.page.getByTestId('world-team-size').fill('7');
    await teacher.page.getByTestId('create-world').click();
    await teacher.page.getByTestId('create-world-error').getByText('Team size must be between 1 and 6').waitFor();
    await teacher.page.getByTestId('world-team-size').fill('3');
    await teacher.page.getByTestId('create-world').click();
    await teacher.page.waitForURL((url) => /^\/worlds\/\d+\/manage$/.test(url.pathname));
    const code = (await teacher.page.getByTestId('manage-join-code').textContent())!.trim();
    const worldId = Number(/\/worlds\/(\d+)\/manage/.exec(teacher.page.url())![1]);
    const panel = teacher.page.getByTestId('teams-card');
    await panel.getByText('No teams yet: the first student who joins starts one.').waitFor();
    expect(await panel.getByTestId('team-size').inputValue()).toBe('3');

    // The first student starts the team's company and reads its team code on the dashboard.
    const first = await newPage(browser);
    const firstEmail = uniqueEmail('team-a');
    await signUpInBrowser(first.page, firstEmail);
    await first.page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    await first.page.goto('/worlds');
    await first.page.getByTestId('join-code').fill(code);
    await first.page.getByTestId('join-company-name').fill('Team Bakery');
    await first.page.getByTestId('join-world').click();
    await first.page.waitForURL((url) => url.pathname === '/');
    const firstCard = first.page.getByTestId('your-team');
    await firstCard.getByText('1 of 3 members', { exact: false }).waitFor();
    const teamCode = (await firstCard.getByTestId('your-team-code').textContent())!.trim();
    expect(teamCode).toMatch(/^[A-Z2-9]{6}$/);
    // They label themselves the CEO.
    await firstCard.getByTestId('team-member-role').click();
    await first.page.getByRole('option', { name: 'CEO' }).click();

    // The second student, on a phone in dark mode, joins that team with the two codes.
    const second = await newPage(browser);
    await second.page.setViewportSize(PHONE);
    await second.page.emulateMedia({ colorScheme: 'dark' });
    const secondEmail = uniqueEmail('team-b');
    await signUpInBrowser(second.page, secondEmail);
    await second.page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    await second.page.goto('/worlds');
    await second.page.getByTestId('join-code').fill(code);
    await second.page.getByTestId('join-team-code').fill(teamCode.toLowerCase());
    expect(await second.page.getByTestId('join-company-name').isDisabled()).toBe(true);
    await second.page.getByTestId('join-world').click();
    await second.page.waitForURL((url) => url.pathname === '/');
    await second.page.getByTestId('welcome').getByText('Team Bakery', { exact: false }).waitFor();
    const secondCard = second.page.getByTestId('your-team');
    await secondCard.getByText('2 of 3 members', { exact: false }).waitFor();
    await secondCard.getByText(firstEmail).waitFor();
    expect(await secondCard.getByTestId('team-member').count()).toBe(2);
    // The card fits the phone.
    const box = (await secondCard.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    // Both play the same company.
    const firstCompany = await apiGet<{ id: number }>(first.context, '/company');
    const secondCompany = await apiGet<{ id: number }>(second.context, '/company');
    expect(secondCompany.id).toBe(firstCompany.id);

    // The instructor's panel: one team, two members of three, the CEO label, the team code.
    await teacher.page.reload();
    const team = panel.getByTestId('team');
    await team.getByTestId('team-count').getByText('2 / 3').waitFor();
    await team.getByTestId('team-member').getByText(secondEmail).waitFor();
    expect((await team.getByTestId('team-code').textContent())!.trim()).toBe(teamCode);
    expect(await team.getByTestId('team-member-role').first().inputValue()).toBe('CEO');
    expect((await apiGet<{ teams: unknown[] }>(teacher.context, `/worlds/${worldId}/teams`)).teams).toHaveLength(1);
    // The contribution log: so far only the founding, the first student's.
    await team.getByTestId('contribution-share').first().getByText('100% · 1').waitFor();
    await team.getByTestId('contribution-week').getByText('Week 1').waitFor();
  });
});
