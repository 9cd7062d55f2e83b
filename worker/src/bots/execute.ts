/**
 * Bots (owned by the bots engineer): carrying out every bot's planned actions through the players'
 * actions (db/src/game/actions.ts, docs/actions.md): the same door, the same functions, schemas,
 * refusals and ledger texts as a player's requests.
 *
 * 1. Every action is first checked with the request schema(s) a player's request goes through
 *    (shared/src/schemas): what a player could not send, a bot does not send.
 * 2. Recipes for buildings without one, then share trades, one by one: a share trade runs in its own
 *    savepoint and the bot's real cash is read back: a trade that spent more than what is left of
 *    the bot's turn budget, or took it under the reserve, is rolled back (the bots' own rule).
 * 3. Every other kind is ONE call of its action with all the bots' moves of that kind, in plan order
 *    (set-based inside: a few statements whatever the number of bots): market trades (sales and
 *    inputs), purchases for the stores, shelving (the purchases', then the others), new buildings
 *    (then their recipe and first hires), store categories, equipment, hires, political investments,
 *    research, shelf prices. A refused move is refused alone: the others of the list still apply
 *    (it never happens in the tests: bots plan from the locked snapshot).
 * Any error that is not a GameError fails the turn (it rolls back and is retried).
 */
import { sql } from 'drizzle-orm';
import {
  GameError,
  buildBuildingInput,
  buildingInventoryPurchaseInput,
  hireEmployeesInput,
  marketTradeInput,
  politicsInvestSchema,
  researchPurchaseSchema,
  selectCategoryInput,
  selectRecipeInput,
  stockTradeSchema,
  transferToStoreInput,
  updateStorePriceInput,
  upgradeEquipmentInput,
} from '@marketcraft/shared';
import { actMany, resultOf, type ActionInput, type ActionName, type ActionRequest, type DbExecutor, type Outcome } from '@marketcraft/db';
import { BOT_CASH_RESERVE_CENTS } from './budget.ts';
import type { BotAction } from './types.ts';

/** Refusal by the bots' own budget rules (the operation itself would have allowed it). */
class BotBudgetRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BotBudgetRefusal';
  }
}

/** An action with the bot that planned it. */
export interface PlannedAction {
  botId: number;
  action: BotAction;
}

/** The bot's money while its actions run: cash now and what it may still spend this turn. */
export interface BotPurse {
  companyId: number;
  cashCents: number;
  remainingCents: number;
}

export interface ExecutionSummary {
  actions: number;
  refused: number;
  byKind: Record<string, number>;
  /** Calls of a player action (each with all the moves of its kind). */
  batches: number;
}

/** Cents as the dollars a player's request carries (retail prices). */
const dollars = (cents: number) => cents / 100;

/** The player's request the action corresponds to, validated by the player's schema. */
function validRequest(action: BotAction): boolean {
  switch (action.kind) {
    case 'build':
      return (
        buildBuildingInput.safeParse({ type: action.type, city_id: action.cityId }).success &&
        (action.recipeId === null || selectRecipeInput.safeParse({ id: 1, recipe_id: action.recipeId }).success) &&
        (action.hire === 0 || hireEmployeesInput.safeParse({ id: 1, count: action.hire }).success)
      );
    case 'select_recipe':
      return selectRecipeInput.safeParse({ id: action.buildingId, recipe_id: action.recipeId }).success;
    case 'select_category':
      return selectCategoryInput.safeParse({ id: action.buildingId, category: action.category }).success;
    case 'hire':
      return hireEmployeesInput.safeParse({ id: action.buildingId, count: action.count }).success;
    case 'upgrade_equipment':
      return upgradeEquipmentInput.safeParse({ id: action.buildingId, target_level: action.targetLevel }).success;
    case 'buy_inputs':
      return marketTradeInput.safeParse({ product_id: action.productId, quantity: action.quantity, action: 'buy' }).success;
    case 'market_sell':
      return marketTradeInput.safeParse({ product_id: action.productId, quantity: action.quantity, action: 'sell' }).success;
    case 'restock':
      return (
        buildingInventoryPurchaseInput.safeParse({ id: action.buildingId, product_id: action.productId, quantity: action.quantity }).success &&
        transferToStoreInput.safeParse({
          id: action.buildingId,
          product_id: action.productId,
          quantity: action.quantity,
          retail_price: dollars(action.retailPriceCents),
        }).success
      );
    case 'shelve':
      return transferToStoreInput.safeParse({
        id: action.buildingId,
        product_id: action.productId,
        quantity: action.quantity,
        retail_price: dollars(action.retailPriceCents),
      }).success;
    case 'reprice':
      return updateStorePriceInput.safeParse({ id: action.buildingId, product_id: action.productId, retail_price: dollars(action.retailPriceCents) }).success;
    case 'buy_shares':
      return stockTradeSchema.safeParse({ company_id: action.issuerId, shares: action.shares, action: 'buy' }).success;
    case 'sell_shares':
      return stockTradeSchema.safeParse({ company_id: action.issuerId, shares: action.shares, action: 'sell' }).success;
    case 'research':
      return researchPurchaseSchema.safeParse({ upgrade_id: action.upgradeId }).success;
    case 'politics':
      return politicsInvestSchema.safeParse({ country_id: action.countryId, amount: action.amountDollars }).success;
  }
}

/**
 * One share trade through the player's action, in its own savepoint, with the budget check on the
 * real cash. Returns whether it happened.
 */
async function tradeWithinBudget(tx: DbExecutor, purse: BotPurse, action: Extract<BotAction, { kind: 'buy_shares' | 'sell_shares' }>): Promise<boolean> {
  if (action.costCents > purse.remainingCents) return false;
  try {
    const cashAfter = await tx.transaction(async (savepoint) => {
      resultOf(
        await actMany(savepoint, 'tradeShares', [
          {
            companyId: purse.companyId,
            actingUserId: null,
            input: { company_id: action.issuerId, shares: action.shares, action: action.kind === 'buy_shares' ? 'buy' : 'sell' },
          },
        ]),
      );
      const [row] = await savepoint.execute<{ cash_cents: number }>(sql`select cash_cents from companies where id = ${purse.companyId}`);
      const cash = Number(row?.cash_cents ?? 0);
      const spent = purse.cashCents - cash;
      if (spent > 0 && spent > purse.remainingCents) throw new BotBudgetRefusal(`spends ${spent} cents, ${purse.remainingCents} left this turn`);
      if (spent > 0 && cash < BOT_CASH_RESERVE_CENTS) throw new BotBudgetRefusal(`would leave ${cash} cents, under the reserve`);
      return cash;
    });
    const spent = purse.cashCents - cashAfter;
    if (spent > 0) purse.remainingCents -= spent;
    purse.cashCents = cashAfter;
    return true;
  } catch (error) {
    if (error instanceof GameError || error instanceof BotBudgetRefusal) return false;
    throw error;
  }
}

type Planned<K extends BotAction['kind']> = { botId: number; action: Extract<BotAction, { kind: K }> };

export async function executeBotActions(tx: DbExecutor, purses: Map<number, BotPurse>, planned: readonly PlannedAction[]): Promise<ExecutionSummary> {
  const summary: ExecutionSummary = { actions: 0, refused: 0, byKind: {}, batches: 0 };
  const valid = planned.filter((item) => validRequest(item.action));
  summary.refused += planned.length - valid.length;
  const ofKind = <K extends BotAction['kind']>(...kinds: K[]): Planned<K>[] =>
    valid.filter((item) => (kinds as string[]).includes(item.action.kind)) as Planned<K>[];
  /** Whether each planned action's part went through, by the action it belongs to. */
  const failed = new Set<BotAction>();
  /** One call of `name` with one request per item: the items whose request was applied. */
  const run = async <N extends ActionName, T extends { botId: number; action: BotAction }>(
    name: N,
    items: readonly T[],
    input: (item: T) => ActionInput<N>,
  ): Promise<T[]> => {
    if (items.length === 0) return [];
    summary.batches += 1;
    const requests: ActionRequest<ActionInput<N>>[] = items.map((item) => ({ companyId: item.botId, actingUserId: null, input: input(item) }));
    const outcomes: Outcome<unknown>[] = await actMany(tx, name, requests);
    return items.filter((item, index) => {
      if (outcomes[index]!.applied) return true;
      failed.add(item.action);
      return false;
    });
  };

  // 1. Recipes, then share trades (one by one, with the budget check), in plan order.
  await run('selectRecipe', ofKind('select_recipe'), ({ action }) => ({ id: action.buildingId, recipe_id: action.recipeId }));
  for (const item of ofKind('buy_shares', 'sell_shares')) {
    const purse = purses.get(item.botId);
    if (!purse || !(await tradeWithinBudget(tx, purse, item.action))) failed.add(item.action);
  }

  // 2. Every other kind: one call of its action with all its moves, in plan order.
  await run('marketTrade', ofKind('market_sell', 'buy_inputs'), ({ action }) => ({
    product_id: action.productId,
    quantity: action.quantity,
    action: action.kind === 'market_sell' ? ('sell' as const) : ('buy' as const),
  }));
  const bought = await run('purchaseForBuilding', ofKind('restock'), ({ action }) => ({
    id: action.buildingId,
    product_id: action.productId,
    quantity: action.quantity,
  }));
  await run('transferToStore', [...bought, ...ofKind('shelve')], ({ action }) => ({
    id: action.buildingId,
    product_id: action.productId,
    quantity: action.quantity,
    retail_price: dollars(action.retailPriceCents),
  }));
  const builds = ofKind('build');
  const built = new Map<BotAction, number>();
  if (builds.length > 0) {
    summary.batches += 1;
    const outcomes = await actMany(
      tx,
      'buildBuilding',
      builds.map(({ botId, action }) => ({ companyId: botId, actingUserId: null, input: { type: action.type, city_id: action.cityId } })),
    );
    builds.forEach((item, index) => {
      const outcome = outcomes[index]!;
      if (outcome.applied) built.set(item.action, outcome.result.building_id);
      else failed.add(item.action);
    });
  }
  const builtWith = (item: Planned<'build'>) => built.get(item.action)!;
  await run(
    'selectRecipe',
    builds.filter((item) => built.has(item.action) && item.action.recipeId !== null),
    (item) => ({ id: builtWith(item), recipe_id: item.action.recipeId! }),
  );
  await run('selectCategory', ofKind('select_category'), ({ action }) => ({ id: action.buildingId, category: action.category }));
  await run('upgradeEquipment', ofKind('upgrade_equipment'), ({ action }) => ({ id: action.buildingId, target_level: action.targetLevel }));
  await run('hireEmployees', [...builds.filter((item) => built.has(item.action) && item.action.hire > 0), ...ofKind('hire')], (item) =>
    item.action.kind === 'build'
      ? { id: builtWith(item as Planned<'build'>), count: item.action.hire }
      : { id: item.action.buildingId, count: item.action.count },
  );
  await run('investInPolitics', ofKind('politics'), ({ action }) => ({ country_id: action.countryId, amount: action.amountDollars }));
  await run('purchaseResearch', ofKind('research'), ({ action }) => ({ upgrade_id: action.upgradeId }));
  await run('updateStorePrice', ofKind('reprice'), ({ action }) => ({
    id: action.buildingId,
    product_id: action.productId,
    retail_price: dollars(action.retailPriceCents),
  }));

  for (const item of valid) {
    if (failed.has(item.action)) {
      summary.refused += 1;
    } else {
      summary.actions += 1;
      summary.byKind[item.action.kind] = (summary.byKind[item.action.kind] ?? 0) + 1;
    }
  }
  return summary;
}
