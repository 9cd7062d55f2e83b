/**
 * The whole chain in the browser (issue 10, point 1), once with the mouse and once with the keyboard
 * only: sign up, build a farm, a mill, a bakery and a store, hire and pick recipes, buy the bakery's
 * other inputs on the market; after three turns (wheat, flour, bread: the turn moves each from the
 * warehouse to the next building) send the bread from the Warehouse page to the store's shelf at a
 * price; after the fourth turn the toast leads to the week's results, which show the bread sold.
 * The player plays in a class world of the test's own (joined through the API after signing up in
 * the form), whose instructor advances its turns: four turns there change nothing another journey
 * sees, so this file runs beside the others. The world starts its players with the public world's
 * early-bird $500,000 (four buildings and their staff need it) and has no bots.
 *
 * Keyboard only: every control is reached with Tab (arrow keys inside radio groups and tab lists)
 * and used with Enter, Space, arrows and typing; pages are opened by typing their address.
 */
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { DESKTOP, PASSWORD, apiGet, classWorldOfItsOwn, launchBrowser, newPage, uniqueEmail, useColorScheme, type ClassWorld } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** How the player works the controls. */
interface Actor {
  /** Activates a button, link or tab. */
  press(target: Locator): Promise<void>;
  /** Replaces a text field's content with `text`. */
  type(target: Locator, text: string): Promise<void>;
  /** Checks a radio button of a group. */
  choose(radio: Locator): Promise<void>;
  /** Picks the first option of a select. */
  pickFirst(select: Locator): Promise<void>;
}

function mouse(page: Page): Actor {
  return {
    press: (target) => target.click(),
    type: async (target, text) => {
      await target.click();
      await target.fill(text);
    },
    choose: (radio) => radio.check(),
    pickFirst: async (select) => {
      await select.click();
      await page.getByRole('option').first().click();
    },
  };
}

const MAX_TAB_STOPS = 400;
const REFIND_EVERY = 20;

/** 'Tab' or 'Shift+Tab': the fewer presses from the focused element (or the page's start) to `target`. Runs in the page. */
function shorterWayRound(target: Element): 'Tab' | 'Shift+Tab' {
  const stops = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')].filter(
    (element) =>
      element.tabIndex >= 0 && !(element as HTMLButtonElement).disabled && element.getClientRects().length > 0 && element.closest('[inert]') === null,
  );
  const to = stops.findIndex((stop) => stop === target || target.contains(stop));
  if (to === -1) return 'Tab'; // no longer in the page: found again after a few presses
  const from = stops.indexOf(document.activeElement as HTMLElement); // -1: the page's start
  const forwards = from === -1 ? to + 1 : (to - from + stops.length) % stops.length;
  const backwards = from === -1 ? stops.length - to : (from - to + stops.length) % stops.length;
  return forwards <= backwards ? 'Tab' : 'Shift+Tab';
}

async function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === document.activeElement).catch(() => false);
}

/** `expect` is the test's own: the two tests run at the same time (expect.poll needs to know its test). */
function keyboard(page: Page, expect: ExpectStatic): Actor {
  /**
   * Presses Tab until `target` has the focus (it must be reachable, in order, from where focus is).
   * The target is found by its role and name once, not at every press (that query walks the whole
   * page: dozens of walks per control made this journey the longest by far on a busy machine), and
   * again every REFIND_EVERY presses and at the end, in case a render replaced the element.
   */
  const tabTo = async (target: Locator) => {
    await target.waitFor();
    let element = await target.elementHandle();
    // Forwards or backwards, whichever way round is shorter, as a keyboard user goes: the market's
    // trade panel comes after the list of every good (350 presses forwards, a few backwards: 20 s
    // of the journey on a busy machine), a toast is the page's last stop (it closes 5 s after it
    // shows). Counted over the page's focusable elements in document order, which is close to the
    // browser's tab order; the walk checks the real focus at every press, so a miscount costs
    // presses, never the result.
    // Reckoned again when the target is found again: a render that replaced it (the market's
    // quantity field as the product's answer arrives) left the first reckoning without it.
    const wayRound = async () => (await element?.evaluate(shorterWayRound).catch(() => undefined)) ?? 'Tab';
    let key = await wayRound();
    try {
      for (let presses = 0; presses < MAX_TAB_STOPS; presses += 1) {
        if (presses % REFIND_EVERY === REFIND_EVERY - 1) {
          await element?.dispose();
          element = await target.elementHandle();
          key = await wayRound();
        }
        if (await element?.evaluate((node) => node === document.activeElement).catch(() => false)) return;
        await page.keyboard.press(key);
      }
    } finally {
      await element?.dispose();
    }
    if (!(await isFocused(target))) throw new Error(`Tab never reached ${target}`);
  };
  return {
    press: async (target) => {
      await target.waitFor();
      if ((await target.getAttribute('role')) === 'tab') {
        // A tab list is one tab stop: Tab to the selected tab, then arrows to the one wanted.
        const list = target.locator('xpath=ancestor::*[@role="tablist"][1]');
        await tabTo(list.locator('[role="tab"][aria-selected="true"]'));
        for (let presses = 0; presses < 10 && !(await isFocused(target)); presses += 1) await page.keyboard.press('ArrowRight');
        await page.keyboard.press('Enter');
        return;
      }
      await tabTo(target);
      await page.keyboard.press('Enter');
    },
    type: async (target, text) => {
      await tabTo(target);
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(text);
    },
    choose: async (radio) => {
      // A radio group is one tab stop: Tab into it, then arrows until the wanted radio is checked.
      const name = await radio.getAttribute('name');
      await radio.waitFor();
      const key = (await radio.evaluate(shorterWayRound).catch(() => undefined)) ?? 'Tab';
      for (let presses = 0; presses < MAX_TAB_STOPS; presses += 1) {
        if (await page.evaluate((group) => (document.activeElement as HTMLInputElement | null)?.name === group, name)) break;
        await page.keyboard.press(key);
      }
      for (let presses = 0; presses < 40 && !(await radio.isChecked()); presses += 1) await page.keyboard.press('ArrowDown');
      expect(await radio.isChecked()).toBe(true);
    },
    pickFirst: async (select) => {
      // ArrowDown opens the list and highlights the first option, Enter picks it. When the options
      // render (or re-render, as the city list does once its data arrives) between the two keys,
      // nothing is highlighted: a second ArrowDown highlights the first. Enter is pressed only
      // while the first option is the highlighted one: a highlight that was merely slow to show (a
      // starved machine) was moved to the second option by that ArrowDown, and a person would then
      // start again, as this does: Escape closes the list and the next ArrowDown starts from the top.
      const firstOption = page.getByRole('option').first();
      const firstHighlighted = (timeout: number) =>
        firstOption
          .and(page.locator('[data-combobox-selected]'))
          .waitFor({ timeout })
          .then(
            () => true,
            () => false,
          );
      await tabTo(select);
      for (let attempt = 0; attempt < 5 && (await select.inputValue()) === ''; attempt += 1) {
        if (attempt > 0) {
          await page.keyboard.press('Escape');
          await tabTo(select);
        }
        await page.keyboard.press('ArrowDown');
        await firstOption.waitFor();
        if (!(await firstHighlighted(1_000))) await page.keyboard.press('ArrowDown');
        if (!(await firstHighlighted(5_000))) continue;
        await page.keyboard.press('Enter');
        await expect
          .poll(() => select.inputValue(), { timeout: 5_000 })
          .not.toBe('')
          .catch(() => undefined);
      }
      expect(await select.inputValue()).not.toBe('');
    },
  };
}

type Good = { id: number; name: string; buy_price: number };

async function playTheChain(page: Page, context: BrowserContext, actor: Actor, expect: ExpectStatic): Promise<void> {
  const world = await classWorldOfItsOwn(browser, { name: 'Chain e2e', starting_cash: 500_000, bots: 0 });
  try {
    await playTheChainIn(world, page, context, actor, expect);
  } finally {
    await world.close();
  }
}

async function playTheChainIn(world: ClassWorld, page: Page, context: BrowserContext, actor: Actor, expect: ExpectStatic): Promise<void> {
  // Sign up in the form.
  await page.goto('/');
  await actor.press(page.getByRole('button', { name: "Don't have an account? Sign up" }));
  await page.getByRole('heading', { name: 'Create Account' }).waitFor();
  await actor.type(page.getByLabel('Email'), uniqueEmail('chain'));
  await actor.type(page.locator('input[name="password"]'), PASSWORD);
  await actor.press(page.getByRole('button', { name: 'Create Account', exact: true }));
  await page.getByRole('heading', { name: /^Welcome, / }).waitFor();
  // The class world's company (named so that its dashboard is told from the public world's).
  await world.join(context, 'Chain Bakers');
  await page.goto('/');
  await page.getByRole('heading', { name: 'Welcome, Chain Bakers!' }).waitFor();
  await page.getByTestId('header-next-turn').getByText('Manual turns', { exact: true }).waitFor();

  // Four buildings, each in the first (best-fitting) city the picker offers.
  for (const type of ['Farm', 'Mill', 'Bakery', 'Store']) {
    await page.goto('/build');
    await page.getByRole('heading', { level: 1, name: 'Build' }).waitFor();
    await actor.choose(page.getByRole('radio', { name: type, exact: true }));
    await actor.pickFirst(page.getByPlaceholder('Choose a city'));
    await actor.press(page.getByRole('button', { name: new RegExp(`^Build ${type} in `) }));
    await page.getByText(`Your new ${type} is now operational.`).waitFor();
  }
  const buildings: Array<{ id: number; type: string }> = await apiGet(context, '/buildings');
  const idOf = (type: string) => buildings.find((building) => building.type === type)!.id;

  // Staff and a recipe for each production building.
  for (const [type, output] of [
    ['farm', 'Wheat'],
    ['mill', 'Wheat Flour'],
    ['bakery', 'White Bread'],
  ] as const) {
    await page.goto(`/buildings/${idOf(type)}`);
    await actor.press(page.getByRole('tab', { name: 'Operations' }));
    await actor.press(page.getByRole('button', { name: 'Hire Employees' }));
    const hire = page.getByRole('dialog', { name: 'Hire Employees' });
    await actor.type(hire.getByRole('textbox', { name: 'Employees to hire' }), '3');
    await actor.press(hire.getByRole('button', { name: 'Hire', exact: true }));
    await hire.waitFor({ state: 'hidden' });
    await actor.press(page.getByRole('button', { name: 'Select What to Produce' }));
    const recipes = page.getByRole('dialog');
    await actor.choose(recipes.getByRole('radio', { name: new RegExp(`^${output} \\(`) }));
    await actor.press(page.getByRole('button', { name: 'Select Recipe' }));
    await page.getByText('Production recipe selected!').waitFor();
  }

  // The bakery, with nothing in the warehouse yet, says it is short of inputs and where to buy them;
  // My Buildings marks it too (the server's forecast: next turn's output below the planned output).
  const shortOfInputs = page.getByTestId('short-inputs-warning');
  await shortOfInputs.waitFor();
  expect(await shortOfInputs.textContent()).toMatch(
    /Next turn makes 0 of the [\d,]+ White Bread planned: your warehouse has 0 of the [\d,]+ Cane Sugar, 0 of the [\d,]+ Milk, 0 of the [\d,]+ Wheat Flour it needs\./,
  );
  // The Overview's input badges say the same needs as the alert (next turn's plan, not the recipe's full batch).
  const milkNeed = (await shortOfInputs.textContent())!.match(/0 of the ([\d,]+) Milk/)![1];
  await actor.press(page.getByRole('tab', { name: 'Overview' }));
  await page.getByTestId('overview-input-need').getByText(`needs ${milkNeed} Milk`, { exact: true }).waitFor();
  await actor.press(shortOfInputs.getByRole('link', { name: 'Buy Milk on the Market' }));
  await page.getByRole('heading', { level: 2, name: 'Milk' }).waitFor();
  await page.goto('/my-buildings');
  await page.getByRole('heading', { level: 1, name: 'My Buildings' }).waitFor();
  // Polled: the list shows before each building's forecast has come.
  await expect.poll(() => page.getByTestId('short-inputs-badge').count(), { message: 'mill and bakery wait for their inputs' }).toBe(2);
  await page.goto('/');
  await page.getByRole('heading', { name: /^Welcome back, / }).waitFor();
  const dashboardBuildings = page.getByRole('region', { name: 'Your buildings' });
  await expect.poll(() => dashboardBuildings.getByTestId('short-inputs-badge').count(), { message: 'the dashboard marks them too' }).toBe(2);

  // The bakery's other inputs, bought on the market into the warehouse.
  const goods: Good[] = await apiGet(context, '/goods');
  for (const [name, quantity] of [
    ['Milk', '20'],
    ['Cane Sugar', '10'],
  ] as const) {
    const good = goods.find((candidate) => candidate.name === name)!;
    await page.goto(`/market?product=${good.id}`);
    await page.getByRole('heading', { level: 2, name }).waitFor();
    await actor.type(page.getByRole('textbox', { name: 'Quantity' }), quantity);
    await page.getByTestId('buy-total').waitFor();
    await actor.press(page.getByRole('button', { name: `Buy ${name}` }));
    // This purchase's toast, not the previous one's 'Purchased!' still on screen.
    await page.getByText(`${quantity} units of ${name}`, { exact: true }).waitFor();
  }

  // Three turns: wheat, then flour from the wheat, then bread from the flour, milk and sugar.
  for (let turn = 0; turn < 3; turn += 1) await world.advance();
  const bread = goods.find((good) => good.name === 'White Bread')!;
  const holdings: { items: Array<{ product_id: number; location: string; quantity: number }> } = await apiGet(context, '/warehouse');
  const baked = holdings.items.find((item) => item.product_id === bread.id && item.location === 'warehouse');
  expect(baked?.quantity ?? 0, 'the bakery baked bread by the third turn').toBeGreaterThan(0);

  // The Warehouse page sends the bread to the store's shelf at a price shoppers pay.
  await page.goto('/warehouse');
  await page.getByRole('heading', { level: 1, name: 'Warehouse' }).waitFor();
  await actor.press(page.getByRole('button', { name: 'To shelf: White Bread' }).first());
  const shelf = page.getByRole('dialog', { name: 'Add Product to Store' });
  await actor.type(shelf.getByRole('textbox', { name: 'Quantity' }), String(baked!.quantity));
  const { buy_price: price } = (await apiGet<Good[]>(context, '/goods')).find((good) => good.id === bread.id)!;
  await actor.type(shelf.getByRole('textbox', { name: 'Retail price' }), price.toFixed(2));
  await actor.press(shelf.getByRole('button', { name: 'Add to Store' }));
  await page.getByText('Product added to store!').waitFor();

  // The fourth turn sells it: the toast leads to the week's results, which show the sale.
  const { current_week: week } = await apiGet<{ current_week: number }>(context, '/world');
  const streamOpened = page.waitForResponse((response) => response.url().endsWith('/api/realtime') && response.status() === 200);
  await page.goto('/');
  await page.getByRole('heading', { name: /^Welcome back, / }).waitFor();
  // The toast comes on the live stream, which a class world's manual turns have no polling to make
  // up for: the turn runs once the stream is open (on a busy machine it opened after the turn).
  await streamOpened;
  // The toast is followed as soon as it shows, while the instructor's request may still be
  // answering: it closes 5 s after it shows unless it has the focus or the mouse (on a busy machine
  // the answer came later than that, and the link was gone when it was looked for).
  const toastLink = page.getByTestId('toast-week-results');
  await Promise.all([world.advance(), toastLink.waitFor({ timeout: 80_000 }).then(() => actor.press(toastLink))]);
  await page.waitForURL((url) => url.pathname === `/reports/${week}`);
  await page.getByRole('heading', { level: 1, name: `Week ${week} results` }).waitFor();
  const sale = page.getByTestId('report-sale').filter({ hasText: 'White Bread' });
  await sale.waitFor();
  const report = await apiGet(context, `/reports/${week}`);
  const sold = report.sales.find((line: { product_id: number }) => line.product_id === bread.id);
  expect(sold?.units ?? 0).toBeGreaterThan(0);
  expect(sold.building_id).toBe(idOf('store'));
}

/**
 * The longest story of the journeys (4 buildings, 3 hires and recipes, 2 purchases, 4 turns, about 15
 * page loads; the keyboard player's hundreds of key presses). It only catches a hang: each wait has
 * its own bound. At load 20-27 here the keyboard player took 217 s, and the CI machine ran the
 * journeys 1.4 times slower than that run: about the 300 s this limit was, the likeliest cause of
 * the failed CI run (whose output we do not have).
 */
const CHAIN_TIMEOUT_MS = 480_000;

// The two players share nothing (a class world each): they play at the same time, the file takes the longer one's time.
describe.concurrent('the whole chain', () => {
  it('from sign-up to bread sold in the week results, with the mouse (light, 1366 px)', { timeout: CHAIN_TIMEOUT_MS }, async ({ expect }) => {
    const { context, page } = await newPage(browser, { width: 1366, height: 900 });
    await useColorScheme(context, 'light');
    await playTheChain(page, context, mouse(page), expect);
    await context.close();
  });

  it('from sign-up to bread sold in the week results, with the keyboard only (dark)', { timeout: CHAIN_TIMEOUT_MS }, async ({ expect }) => {
    const { context, page } = await newPage(browser, DESKTOP);
    await useColorScheme(context, 'dark');
    await playTheChain(page, context, keyboard(page, expect), expect);
    await context.close();
  });
});
