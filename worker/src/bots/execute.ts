/**
 * Bots (owned by the bots engineer): carrying out one planned action through the players'
 * operations (db/src/game), in its own savepoint.
 *
 * 1. The action's input is checked with the same request schema a player's request goes through
 *    (shared/src/schemas): what a player could not send, a bot does not send.
 * 2. The operation runs inside `tx.transaction` (a SAVEPOINT). A GameError (not enough cash or
 *    stock, a rule) rolls the savepoint back and counts as refused; any other error is rethrown and
 *    fails the turn (it rolls back and is retried).
 * 3. Still inside the savepoint, the real cash is read back: an action that spent more than the
 *    bot's remaining turn budget, or took its cash under the reserve, is rolled back too (refused).
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
  hireEmployees,
  investInPolitics,
  marketTrade,
  purchaseForBuilding,
  purchaseResearch,
  selectCategory,
  selectRecipe,
  tradeShares,
  transferToStore,
  updateStorePrice,
  upgradeEquipment,
  type DbExecutor,
} from '@marketcraft/db';
import { BOT_CASH_RESERVE_CENTS } from './budget.ts';
import type { BotAction } from './types.ts';

/** Refusal by the bots' own budget rules (the operation itself would have allowed it). */
export class BotBudgetRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BotBudgetRefusal';
  }
}

/** The player's request the action corresponds to, validated by the player's schema. */
function validRequest(action: BotAction): boolean {
  const dollars = (cents: number) => cents / 100;
  switch (action.kind) {
    case 'build':
      return buildBuildingInput.safeParse({ type: action.type, city_id: action.cityId }).success &&
        (action.recipeId === null || selectRecipeInput.safeParse({ id: 1, recipe_id: action.recipeId }).success);
    case 'select_recipe':
      return selectRecipeInput.safeParse({ id: action.buildingId, recipe_id: action.recipeId }).success;
    case 'select_category':
      return selectCategoryInput.safeParse({ id: action.buildingId, category: action.category }).success;
    case 'hire':
      return hireEmployeesInput.safeParse({ id: action.buildingId, count: action.count }).success;
    case 'upgrade_equipment':
      return upgradeEquipmentInput.safeParse({ id: action.buildingId, target_level: action.targetLevel }).success;
    case 'buy_inputs':
    case 'market_buy':
      return marketTradeInput.safeParse({ product_id: action.productId, quantity: action.quantity, action: 'buy' }).success;
    case 'market_sell':
      return marketTradeInput.safeParse({ product_id: action.productId, quantity: action.quantity, action: 'sell' }).success;
    case 'city_buy':
      return buildingInventoryPurchaseInput.safeParse({ id: action.buildingId, product_id: action.productId, quantity: action.quantity }).success;
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

/** Runs the player operation(s) behind one action. */
async function perform(db: DbExecutor, companyId: number, action: BotAction): Promise<void> {
  switch (action.kind) {
    case 'build': {
      const building = await buildBuilding(db, companyId, { type: action.type, cityId: action.cityId });
      if (action.recipeId !== null && building.selected_recipe_id !== action.recipeId) await selectRecipe(db, companyId, building.id, action.recipeId);
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
    case 'market_buy':
      await marketTrade(db, companyId, { productId: action.productId, quantity: action.quantity, action: 'buy' });
      return;
    case 'market_sell':
      await marketTrade(db, companyId, { productId: action.productId, quantity: action.quantity, action: 'sell' });
      return;
    case 'city_buy':
      await purchaseForBuilding(db, companyId, action.buildingId, { productId: action.productId, quantity: action.quantity });
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

/** The bot's money while its actions run: cash now and what it may still spend this turn. */
export interface BotPurse {
  companyId: number;
  cashCents: number;
  remainingCents: number;
}

export type ActionOutcome = 'done' | 'refused' | 'skipped';

/**
 * Runs one action in its own savepoint. 'skipped': its estimated cost no longer fits the purse
 * (nothing ran); 'refused': not a valid player request, or the operation or the budget check
 * refused it (rolled back); 'done': it happened and the purse is updated.
 */
export async function runAction(tx: DbExecutor, purse: BotPurse, action: BotAction): Promise<ActionOutcome> {
  if (!validRequest(action)) return 'refused';
  if (action.costCents > purse.remainingCents) return 'skipped';
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
    return 'done';
  } catch (error) {
    if (error instanceof GameError || error instanceof BotBudgetRefusal) return 'refused';
    throw error;
  }
}
