/**
 * Bots (owned by the bots engineer): carrying out every bot's planned actions, in batches.
 *
 * 1. Every action is first checked with the request schema a player's request goes through
 *    (shared/src/schemas): what a player could not send, a bot does not send.
 * 2. Rare actions (recipes for buildings without one, share trades) run one
 *    by one through the player's operation (db/src/game), each in its own savepoint; a GameError
 *    rolls back that action only (refused), and the bot's real cash is read back: an action that
 *    spent more than what is left of the bot's turn budget, or took it under the reserve, is rolled
 *    back too.
 * 3. The frequent ones run as a few set-based statements for all bots at once, through the batch
 *    versions of the players' operations (db/src/game/batch.ts: same market operation, ledger rows,
 *    conditional updates): all market orders (sales, inputs, store stock) in plan order, then
 *    shelving from the warehouse, new buildings (with their recipe and first hires), store
 *    categories, equipment, hiring, political investments, research, shelf prices. All batches
 *    run in one savepoint; if any is refused (it never should be: the bots planned from the locked
 *    snapshot), all are rolled back and their actions run one by one through the single
 *    operations instead, so one bad action cannot stop the others.
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
import {
  buildBuilding,
  buildBatch,
  hireBatch,
  politicsBatch,
  selectCategoryBatch,
  upgradeEquipmentBatch,
  hireEmployees,
  investInPolitics,
  marketTrade,
  placeOrderBatch,
  purchaseForBuilding,
  purchaseResearch,
  researchBatch,
  repriceBatch,
  selectCategory,
  selectRecipe,
  shelveBatch,
  tradeShares,
  transferToStore,
  updateStorePrice,
  upgradeEquipment,
  type BatchOrder,
  type DbExecutor,
} from '@marketcraft/db';
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
  /** Batches run set-based, and batches that fell back to single operations. */
  batches: number;
  fallbacks: number;
}

/** The player's request the action corresponds to, validated by the player's schema. */
function validRequest(action: BotAction): boolean {
  const dollars = (cents: number) => cents / 100;
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
        transferToStoreInput.safeParse({ id: action.buildingId, product_id: action.productId, quantity: action.quantity, retail_price: dollars(action.retailPriceCents) }).success
      );
    case 'shelve':
      return transferToStoreInput.safeParse({ id: action.buildingId, product_id: action.productId, quantity: action.quantity, retail_price: dollars(action.retailPriceCents) }).success;
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

/** Runs the player operation(s) behind one action (the single path). */
async function perform(db: DbExecutor, companyId: number, action: BotAction): Promise<void> {
  switch (action.kind) {
    case 'build': {
      const building = await buildBuilding(db, companyId, { type: action.type, cityId: action.cityId });
      if (action.recipeId !== null && building.selected_recipe_id !== action.recipeId) await selectRecipe(db, companyId, building.id, action.recipeId);
      if (action.hire > 0) await hireEmployees(db, companyId, building.id, action.hire);
      return;
    }
    case 'select_recipe':
      await selectRecipe(db, companyId, action.buildingId, action.recipeId);
      return;
    case 'select_category':
      await selectCategory(db, companyId, action.buildingId, action.category);
      return;
    case 'hire':
      await hireEmployees(db, companyId, action.buildingId, action.count);
      return;
    case 'upgrade_equipment':
      await upgradeEquipment(db, companyId, action.buildingId, action.targetLevel);
      return;
    case 'buy_inputs':
      await marketTrade(db, companyId, { productId: action.productId, quantity: action.quantity, action: 'buy' });
      return;
    case 'market_sell':
      await marketTrade(db, companyId, { productId: action.productId, quantity: action.quantity, action: 'sell' });
      return;
    case 'restock':
      await purchaseForBuilding(db, companyId, action.buildingId, { productId: action.productId, quantity: action.quantity });
      await transferToStore(db, companyId, action.buildingId, { productId: action.productId, quantity: action.quantity, retailPriceCents: action.retailPriceCents });
      return;
    case 'shelve':
      await transferToStore(db, companyId, action.buildingId, { productId: action.productId, quantity: action.quantity, retailPriceCents: action.retailPriceCents });
      return;
    case 'reprice':
      await updateStorePrice(db, companyId, action.buildingId, action.productId, action.retailPriceCents);
      return;
    case 'buy_shares':
      await tradeShares(db, { holderCompanyId: companyId, issuerCompanyId: action.issuerId, shares: action.shares, action: 'buy' });
      return;
    case 'sell_shares':
      await tradeShares(db, { holderCompanyId: companyId, issuerCompanyId: action.issuerId, shares: action.shares, action: 'sell' });
      return;
    case 'research':
      await purchaseResearch(db, { companyId, upgradeId: action.upgradeId });
      return;
    case 'politics':
      await investInPolitics(db, { companyId, countryId: action.countryId, amountDollars: action.amountDollars });
      return;
  }
}

/**
 * One action through the player's operation in its own savepoint, with the budget check on the
 * real cash. Returns whether it happened.
 */
async function runSingle(tx: DbExecutor, purse: BotPurse, action: BotAction): Promise<boolean> {
  if (action.costCents > purse.remainingCents) return false;
  try {
    const cashAfter = await tx.transaction(async (savepoint) => {
      await perform(savepoint, purse.companyId, action);
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

/** Kinds run one by one through the player's operation (few per turn). */
const SINGLE_KINDS: ReadonlySet<BotAction['kind']> = new Set([
  'select_recipe',
  'buy_shares',
  'sell_shares',
]);

/** Kinds that are orders on the goods market (one batch, in plan order). */
const ORDER_KINDS: ReadonlySet<BotAction['kind']> = new Set(['market_sell', 'buy_inputs', 'restock']);

function toOrder(botId: number, action: BotAction): BatchOrder {
  switch (action.kind) {
    case 'market_sell':
      return { companyId: botId, productId: action.productId, quantity: action.quantity, action: 'sell', reason: 'market_sell' };
    case 'buy_inputs':
      return { companyId: botId, productId: action.productId, quantity: action.quantity, action: 'buy', reason: 'market_buy' };
    case 'restock':
      return { companyId: botId, productId: action.productId, quantity: action.quantity, action: 'buy', reason: 'store_stock', buildingId: action.buildingId, retailPriceCents: action.retailPriceCents };
    default:
      throw new Error(`not a market order: ${action.kind}`);
  }
}

export async function executeBotActions(tx: DbExecutor, purses: Map<number, BotPurse>, planned: readonly PlannedAction[]): Promise<ExecutionSummary> {
  const summary: ExecutionSummary = { actions: 0, refused: 0, byKind: {}, batches: 0, fallbacks: 0 };
  const done = (action: BotAction) => {
    summary.actions += 1;
    summary.byKind[action.kind] = (summary.byKind[action.kind] ?? 0) + 1;
  };
  const valid = planned.filter((item) => {
    if (validRequest(item.action)) return true;
    summary.refused += 1;
    return false;
  });

  // 1. The rare actions, one by one, in plan order.
  for (const item of valid) {
    if (!SINGLE_KINDS.has(item.action.kind)) continue;
    const purse = purses.get(item.botId);
    if (purse && (await runSingle(tx, purse, item.action))) done(item.action);
    else summary.refused += 1;
  }

  // 2. The frequent ones, set-based, kind by kind.
  const batched = valid.filter((item) => !SINGLE_KINDS.has(item.action.kind));
  if (batched.length === 0) return summary;
  /** One kind's actions as the input of its batch operation. */
  const inputsOf = <K extends BotAction['kind'], I>(kind: K, input: (botId: number, action: Extract<BotAction, { kind: K }>) => I): I[] =>
    batched.filter((item) => item.action.kind === kind).map((item) => input(item.botId, item.action as Extract<BotAction, { kind: K }>));
  try {
    // All batches in one savepoint: a refusal anywhere rolls them all back (then one by one, below).
    await tx.transaction(async (db) => {
      await placeOrderBatch(
        db,
        batched.filter((item) => ORDER_KINDS.has(item.action.kind)).map((item) => toOrder(item.botId, item.action)),
      );
      await shelveBatch(db, inputsOf('shelve', (companyId, a) => ({ companyId, storeId: a.buildingId, productId: a.productId, quantity: a.quantity, retailPriceCents: a.retailPriceCents })));
      await buildBatch(db, inputsOf('build', (companyId, a) => ({ companyId, type: a.type, cityId: a.cityId, recipeId: a.recipeId, hire: a.hire })));
      await selectCategoryBatch(db, inputsOf('select_category', (companyId, a) => ({ companyId, storeId: a.buildingId, category: a.category })));
      await upgradeEquipmentBatch(db, inputsOf('upgrade_equipment', (companyId, a) => ({ companyId, buildingId: a.buildingId, fromLevel: a.fromLevel, targetLevel: a.targetLevel })));
      await hireBatch(db, inputsOf('hire', (companyId, a) => ({ companyId, buildingId: a.buildingId, count: a.count })));
      await politicsBatch(db, inputsOf('politics', (companyId, a) => ({ companyId, countryId: a.countryId, amountDollars: a.amountDollars })));
      await researchBatch(db, inputsOf('research', (companyId, a) => ({ companyId, upgradeId: a.upgradeId, discountPercent: a.discountPercent })));
      await repriceBatch(db, inputsOf('reprice', (companyId, a) => ({ companyId, storeId: a.buildingId, productId: a.productId, retailPriceCents: a.retailPriceCents })));
    });
    summary.batches = new Set(batched.map((item) => (ORDER_KINDS.has(item.action.kind) ? 'order' : item.action.kind))).size;
    for (const item of batched) done(item.action);
  } catch (error) {
    if (!(error instanceof GameError)) throw error;
    summary.fallbacks += 1;
    for (const item of batched) {
      const purse = purses.get(item.botId);
      if (purse && (await runSingle(tx, purse, item.action))) done(item.action);
      else summary.refused += 1;
    }
  }
  return summary;
}
