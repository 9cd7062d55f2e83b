/**
 * The player actions, one table (docs/actions.md): each action's name, the input schema a player's
 * request goes through (shared/src/schemas), its one function (a list of requests in, one outcome
 * per request out), the refusals it can answer, and the view the API answers for an applied one.
 * The API's routers and the bots dispatch through here, and every request is logged here (the
 * action log, docs/replay.md): one door.
 */
import type { z } from 'zod';
import {
  buildBuildingInput,
  buildingIdInput,
  buildingInventoryPurchaseInput,
  cancelExchangeOrderInput,
  contractIdInput,
  hireEmployeesInput,
  marketTradeInput,
  offerContractInput,
  placeExchangeOrderInput,
  politicsInvestSchema,
  productionRateInput,
  researchPurchaseSchema,
  selectCategoryInput,
  selectRecipeInput,
  stockTradeSchema,
  storeProductInput,
  toggleStoreProductInput,
  transferToStoreInput,
  updateProfileSchema,
  updateStorePriceInput,
  upgradeEquipmentInput,
  warehouseMoveInput,
  GameError,
  type GameErrorCode,
} from '@marketcraft/shared';
import { isPostgresError, LOCK_NOT_AVAILABLE, withWriteGuard, type DbExecutor, type Transaction } from '../client.ts';
import { refused, type ActionRequest, type Outcome, type PlayerAction } from './action.ts';
import { appendToLog, lockLogToDecide, restoreLockWait, type LogEntry } from './replay/log.ts';
import type { LoggedOutcome } from '../schema/replay.ts';
import {
  buildBuilding,
  hireEmployees,
  selectCategory,
  selectRecipe,
  sellBuilding,
  setProductionRate,
  upgradeEquipment,
  type BuildingChanged,
} from './buildings/actions.ts';
import { buildingView } from './buildings/buildings.ts';
import { updateCompanyProfile } from './companies/company.ts';
import { acceptContracts, cancelContracts, declineContracts, offerContracts } from './exchange/contracts.ts';
import { cancelExchangeOrders, placeExchangeOrders } from './exchange/orders.ts';
import { purchaseForBuilding } from './goods/buildingPurchase.ts';
import { marketTrade } from './goods/market.ts';
import { moveGoods } from './goods/warehouse.ts';
import { investInPolitics } from './politics/politics.ts';
import { purchaseResearch } from './research/research.ts';
import { transferToStore } from './retail/shelving.ts';
import { removeStoreProduct, storeProductView, toggleStoreProduct, updateStorePrice, type ShelfChanged } from './retail/stores.ts';
import { tradeShares } from './shares/stocks.ts';

interface ActionEntry<S extends z.ZodType, R, V> {
  /** The request's input schema (the API's and the bots'): what a player could not send, nobody sends. */
  input: S;
  run: PlayerAction<z.output<S>, R>;
  /** The refusals it can answer (their codes; the messages are the action's). */
  refuses: readonly GameErrorCode[];
  /** The API's answer for an applied request (a building action answers the building's view). */
  respond: (db: DbExecutor, request: ActionRequest<z.output<S>>, result: R) => Promise<V> | V;
}

function entry<S extends z.ZodType, R, V = R>(
  input: S,
  run: PlayerAction<z.output<S>, R>,
  refuses: readonly GameErrorCode[],
  respond?: (db: DbExecutor, request: ActionRequest<z.output<S>>, result: R) => Promise<V> | V,
): ActionEntry<S, R, V> {
  return { input, run, refuses, respond: respond ?? ((_db, _request, result) => result as unknown as V) };
}

/** A building action's answer: the building as GET /buildings lists it. */
const theBuilding = (db: DbExecutor, request: ActionRequest<unknown>, result: BuildingChanged) => buildingView(db, request.companyId, result.building_id);

/** A shelf action's answer: the store product as GET /stores/{id}/products lists it. */
const theShelf = (db: DbExecutor, request: ActionRequest<unknown>, result: ShelfChanged) =>
  storeProductView(db, request.companyId, result.building_id, result.product_id);

export const ACTIONS = {
  buildBuilding: entry(buildBuildingInput, buildBuilding, ['NOT_FOUND', 'NOT_ENOUGH_CASH'], theBuilding),
  hireEmployees: entry(hireEmployeesInput, hireEmployees, ['NOT_FOUND', 'NOT_ENOUGH_CASH'], theBuilding),
  upgradeEquipment: entry(upgradeEquipmentInput, upgradeEquipment, ['NOT_FOUND', 'RULE_BROKEN', 'NOT_ENOUGH_CASH'], theBuilding),
  setProductionRate: entry(productionRateInput, setProductionRate, ['NOT_FOUND'], theBuilding),
  selectRecipe: entry(selectRecipeInput, selectRecipe, ['NOT_FOUND', 'RULE_BROKEN'], theBuilding),
  selectCategory: entry(selectCategoryInput, selectCategory, ['NOT_FOUND', 'RULE_BROKEN'], theBuilding),
  sellBuilding: entry(buildingIdInput, sellBuilding, ['NOT_FOUND']),
  purchaseForBuilding: entry(buildingInventoryPurchaseInput, purchaseForBuilding, ['NOT_FOUND', 'RULE_BROKEN', 'NOT_ENOUGH_CASH']),
  transferToStore: entry(transferToStoreInput, transferToStore, ['NOT_FOUND', 'RULE_BROKEN', 'NOT_ENOUGH_STOCK']),
  moveGoods: entry(warehouseMoveInput, moveGoods, ['NOT_FOUND', 'RULE_BROKEN', 'NOT_ENOUGH_STOCK']),
  marketTrade: entry(marketTradeInput, marketTrade, ['NOT_FOUND', 'RULE_BROKEN', 'NOT_ENOUGH_CASH', 'NOT_ENOUGH_STOCK', 'CONFLICT']),
  updateStorePrice: entry(updateStorePriceInput, updateStorePrice, ['NOT_FOUND', 'RULE_BROKEN'], theShelf),
  toggleStoreProduct: entry(toggleStoreProductInput, toggleStoreProduct, ['NOT_FOUND', 'RULE_BROKEN'], theShelf),
  removeStoreProduct: entry(storeProductInput, removeStoreProduct, ['NOT_FOUND', 'RULE_BROKEN']),
  investInPolitics: entry(politicsInvestSchema, investInPolitics, ['NOT_FOUND', 'INVALID_INPUT', 'RULE_BROKEN', 'NOT_ENOUGH_CASH']),
  purchaseResearch: entry(researchPurchaseSchema, purchaseResearch, ['NOT_FOUND', 'RULE_BROKEN', 'CONFLICT', 'NOT_ENOUGH_CASH']),
  tradeShares: entry(stockTradeSchema, tradeShares, ['NOT_FOUND', 'RULE_BROKEN', 'NOT_ENOUGH_CASH', 'NOT_ENOUGH_SHARES', 'CONFLICT']),
  updateCompanyProfile: entry(updateProfileSchema, updateCompanyProfile, ['NOT_FOUND', 'CONFLICT']),
  placeExchangeOrders: entry(placeExchangeOrderInput, placeExchangeOrders, ['NOT_FOUND', 'CONFLICT', 'RULE_BROKEN', 'NOT_ENOUGH_CASH', 'NOT_ENOUGH_STOCK']),
  cancelExchangeOrders: entry(cancelExchangeOrderInput, cancelExchangeOrders, ['NOT_FOUND', 'CONFLICT']),
  offerContracts: entry(offerContractInput, offerContracts, ['NOT_FOUND', 'CONFLICT', 'RULE_BROKEN', 'NOT_ENOUGH_STOCK']),
  acceptContracts: entry(contractIdInput, acceptContracts, ['NOT_FOUND', 'CONFLICT', 'FORBIDDEN', 'NOT_ENOUGH_CASH']),
  declineContracts: entry(contractIdInput, declineContracts, ['NOT_FOUND', 'CONFLICT', 'FORBIDDEN']),
  cancelContracts: entry(contractIdInput, cancelContracts, ['NOT_FOUND', 'CONFLICT', 'FORBIDDEN']),
} as const;

export type ActionName = keyof typeof ACTIONS;
type Entry<N extends ActionName> = (typeof ACTIONS)[N];
export type ActionInput<N extends ActionName> = z.output<Entry<N>['input']>;
export type ActionResult<N extends ActionName> = Entry<N> extends ActionEntry<z.ZodType, infer R, unknown> ? R : never;
export type ActionResponse<N extends ActionName> = Awaited<ReturnType<Entry<N>['respond']>>;

/** What the log keeps of an outcome: applied with its result, or the refusal's code and message. */
export function loggedOutcome(outcome: Outcome<unknown>): LoggedOutcome {
  return outcome.applied ? { applied: true, result: outcome.result } : { applied: false, code: outcome.refusal.code, message: outcome.refusal.message };
}

/** Refusals whose request is in the log (act): the API's transaction commits the entry and answers the refusal. */
const loggedRefusals = new WeakSet<GameError>();

/** Whether a refusal's request was logged (act): its transaction commits (the log entry) and still answers the refusal. */
export function isLoggedRefusal(error: unknown): boolean {
  return error instanceof GameError && loggedRefusals.has(error);
}

class Refusal extends Error {
  readonly outcome: Outcome<unknown>;
  constructor(outcome: Outcome<unknown>) {
    super('refused');
    this.outcome = outcome;
  }
}

/**
 * The API's door: one request (its input already parsed by the router with the same schema), its
 * answer, or its refusal thrown (the API turns it into its 4xx). The request and its outcome go to
 * the world's log in the same transaction (a refusal too: its writes undone in a savepoint, its
 * entry kept).
 */
export async function act<N extends ActionName>(db: DbExecutor, name: N, request: ActionRequest<ActionInput<N>>): Promise<ActionResponse<N>> {
  const action = ACTIONS[name] as unknown as ActionEntry<z.ZodType, unknown, ActionResponse<N>>;
  const { outcome, answer } = await db.transaction(async (tx) => {
    const decided = await decideAndLog(tx, name, request);
    return { outcome: decided, answer: decided.applied ? await action.respond(tx, request, decided.result) : null };
  });
  if (!outcome.applied) {
    loggedRefusals.add(outcome.refusal);
    throw outcome.refusal;
  }
  return answer as ActionResponse<N>;
}

/**
 * A replayed request refused whose writes cannot be undone alone: the log keeps it as applied and
 * it ran without a savepoint (`actOutcome`'s `none`), or it wrote in a nested savepoint before its
 * guard's (`beforeWrites`). The caller rolls back what it ran with it and runs it again with
 * savepoints (the replay: its week).
 */
export class UnguardedRefusal extends Error {
  readonly outcome: LoggedOutcome;
  constructor(outcome: LoggedOutcome) {
    super('a replayed request was refused after writes it cannot undo alone');
    this.outcome = outcome;
  }
}

/**
 * How replay runs a request (`actOutcome`): `savepoint`, in its own savepoint as `act` runs it;
 * `none`, the log says it applied: without one, and a refusal throws UnguardedRefusal (its writes
 * cannot be undone alone); `beforeWrites`, the log says it was refused: a savepoint only before its
 * first statement that may write (`withWriteGuard`), rolled back if it is refused (UnguardedRefusal
 * if it kept writes from before that savepoint).
 */
export type ReplaySavepoint = 'savepoint' | 'none' | 'beforeWrites';

/**
 * One request decided as `act` decides it, answering its outcome as the log keeps it instead of the
 * API's view, and its log entry (not appended: the replay appends a week's entries together, in
 * their order, with `appendToLog`). Inside the caller's transaction: replay runs a week's requests
 * in one, into a world nothing else writes meanwhile, so a refusal is decided once, and the row
 * locks a refused request took before its savepoint (`beforeWrites`) keep nobody waiting.
 */
export async function actOutcome<N extends ActionName>(
  tx: Transaction,
  name: N,
  request: ActionRequest<ActionInput<N>>,
  savepoint: ReplaySavepoint = 'savepoint',
): Promise<{ outcome: LoggedOutcome; entry: LogEntry & { companyId: number } }> {
  const action = ACTIONS[name] as unknown as ActionEntry<z.ZodType, unknown, unknown>;
  const runOne = async () => {
    const [ran] = await action.run(tx, [request]);
    if (!ran) throw new Error('an action answered no outcome');
    return ran;
  };
  let decided: Outcome<unknown>;
  if (savepoint === 'none') {
    decided = await runOne();
    if (!decided.applied) throw new UnguardedRefusal(loggedOutcome(decided));
  } else if (savepoint === 'beforeWrites') {
    const guarded = await withWriteGuard(tx, runOne);
    decided = guarded.result;
    if (!decided.applied) {
      // Writes kept by a nested savepoint before the guard's: the caller must undo them.
      if (guarded.wroteUnguarded) throw new UnguardedRefusal(loggedOutcome(decided));
      await guarded.undo();
    }
  } else decided = await decide(tx, name, request);
  const outcome = loggedOutcome(decided);
  return { outcome, entry: { companyId: request.companyId, actingUserId: request.actingUserId, action: name, input: request.input, outcome } };
}

/**
 * How long a refusal's last decision, holding its world's log lock, waits for a row another
 * request holds before it lets go of the lock and decides again (that request may be waiting for
 * the log lock to commit), and how often it tries.
 */
const LOCKED_DECISION_WAIT_MS = 5;
const LOCKED_DECISIONS = 100;

/**
 * The request in a savepoint (rolled back when refused), then its entry in the world's log.
 *
 * An applied request appends its entry as its last statement, taking the world's log lock there
 * and holding it to its commit (log.ts): whatever it read that another request changes is a row it
 * holds locked, so its entry follows every change it saw. A refusal holds nothing once its
 * savepoint rolls back, so another request could commit, and log itself first, between the
 * refusal's reads and its entry: the log would put before it a change it did not see (a sale that
 * raised its cash) and its replay would answer otherwise (found by the replay tests under load).
 * So a refusal is decided once more holding the log lock: nothing can log itself between that
 * decision and its entry. Holding the log lock it must not wait long for a row: a request holding
 * that row may be waiting for the log lock to commit (a deadlock, which PostgreSQL would break by
 * failing one of them: a 500), so its row waits give up after LOCKED_DECISION_WAIT_MS, the
 * savepoint lets the lock go, and it decides again. After LOCKED_DECISIONS tries (half a second of
 * waits) it is decided and logged without the lock, as an applied request is: its replay may then
 * answer otherwise (docs/replay.md).
 */
async function decideAndLog(tx: Transaction, name: ActionName, request: ActionRequest<unknown>): Promise<Outcome<unknown>> {
  const entryOf = (outcome: Outcome<unknown>) => ({
    companyId: request.companyId,
    actingUserId: request.actingUserId,
    action: name,
    input: request.input,
    outcome: loggedOutcome(outcome),
  });
  const first = await decide(tx, name, request);
  if (first.applied) {
    await appendToLog(tx, [entryOf(first)]);
    return first;
  }
  for (let attempt = 1; attempt <= LOCKED_DECISIONS; attempt += 1) {
    try {
      return await tx.transaction(async (savepoint) => {
        const previousWait = await lockLogToDecide(savepoint, request.companyId, LOCKED_DECISION_WAIT_MS);
        const decided = await decide(savepoint, name, request);
        await restoreLockWait(savepoint, previousWait);
        await appendToLog(savepoint, [entryOf(decided)]);
        return decided;
      });
    } catch (error) {
      if (!isPostgresError(error, LOCK_NOT_AVAILABLE)) throw error;
      if (attempt === LOCKED_DECISIONS) break;
    }
  }
  const decided = await decide(tx, name, request);
  await appendToLog(tx, [entryOf(decided)]);
  return decided;
}

/** The request in a savepoint, rolled back when refused: a refusal keeps nothing it wrote. */
async function decide(tx: Transaction, name: ActionName, request: ActionRequest<unknown>): Promise<Outcome<unknown>> {
  const action = ACTIONS[name] as unknown as ActionEntry<z.ZodType, unknown, unknown>;
  return tx
    .transaction(async (savepoint) => {
      const [ran] = await action.run(savepoint, [request]);
      if (!ran) throw new Error('an action answered no outcome');
      if (!ran.applied) throw new Refusal(ran);
      return ran;
    })
    .catch((error: unknown) => {
      if (error instanceof Refusal) return error.outcome;
      throw error;
    });
}

/**
 * The door for many requests of one action (the bots' week of moves): each input goes through the
 * action's schema first (an invalid one is refused INVALID_INPUT with the schema's message), then
 * the valid ones through the action in one call. One outcome per request, in the list's order, and
 * one log entry per request in the same order (inside the caller's transaction: the turn's). A
 * request without an acting user is a bot's move, made by the turn (`by_turn`).
 */
export async function actMany<N extends ActionName>(
  db: DbExecutor,
  name: N,
  requests: readonly ActionRequest<ActionInput<N>>[],
): Promise<Outcome<ActionResult<N>>[]> {
  const action = ACTIONS[name] as unknown as ActionEntry<z.ZodType, ActionResult<N>, unknown>;
  const outcomes: (Outcome<ActionResult<N>> | null)[] = [];
  const valid: ActionRequest<unknown>[] = [];
  const inputs: unknown[] = [];
  for (const request of requests) {
    const parsed = action.input.safeParse(request.input);
    if (parsed.success) {
      valid.push({ ...request, input: parsed.data });
      inputs.push(parsed.data);
      outcomes.push(null);
    } else {
      inputs.push(request.input);
      outcomes.push(refused(new GameError('INVALID_INPUT', parsed.error.issues[0]?.message ?? 'Invalid input')));
    }
  }
  // The actions and their entries in one transaction (a savepoint inside the turn's): the log's lock
  // is held until they commit.
  return db.transaction(async (tx) => {
    const ran = valid.length === 0 ? [] : await action.run(tx, valid);
    let next = 0;
    const answered = outcomes.map((outcome) => outcome ?? ran[next++]!);
    await appendToLog(
      tx,
      requests.map((request, index) => ({
        companyId: request.companyId,
        actingUserId: request.actingUserId,
        action: name,
        input: inputs[index],
        outcome: loggedOutcome(answered[index]!),
        byTurn: request.actingUserId === null,
      })),
    );
    return answered;
  });
}

interface Waiting {
  request: ActionRequest<unknown>;
  resolve: (answer: unknown) => void;
  reject: (error: unknown) => void;
}

/** Per database pool, per action and world: the requests waiting for the batch in flight to commit. */
const queues = new WeakMap<object, Map<string, Waiting[]>>();

/**
 * The API's door for an action many players send at once in one world (POST /market/trade): the
 * same answer as `act`, but requests that arrive while an earlier batch of the same action and world
 * runs wait for it, then go together: one transaction, one call of the action with the list (as the
 * bots' moves go, priced in the list's order exactly as one after the other), one log entry each,
 * one commit. Every action of a world waits for the world's log lock, held until its commit (the
 * disk's flush): one at a time, each request paid a commit alone; together, a batch pays one. A
 * request alone runs as `act` (its one-statement path). If the batch fails before its commit,
 * nothing of it is written and each request runs again alone, so one request's failure is never
 * another's. `db` must be the pool, not a transaction (a private world's actions run in one that
 * holds the world open: they use `act`).
 */
export function actTogether<N extends ActionName>(
  db: DbExecutor,
  name: N,
  worldId: number,
  request: ActionRequest<ActionInput<N>>,
): Promise<ActionResponse<N>> {
  let byKey = queues.get(db);
  if (!byKey) queues.set(db, (byKey = new Map()));
  const key = `${name}:${worldId}`;
  return new Promise<ActionResponse<N>>((resolve, reject) => {
    const waiting = byKey.get(key);
    const item: Waiting = { request, resolve: resolve as (answer: unknown) => void, reject };
    if (waiting) {
      waiting.push(item);
      return;
    }
    // No batch in flight: this request leads; whoever arrives meanwhile waits in the queue.
    const queue: Waiting[] = [item];
    byKey.set(key, queue);
    void (async () => {
      while (queue.length > 0) await runTogether(db, name, queue.splice(0));
      byKey.delete(key);
    })();
  });
}

async function runTogether(db: DbExecutor, name: ActionName, batch: Waiting[]): Promise<void> {
  const alone = async (item: Waiting) => {
    try {
      item.resolve(await act(db, name, item.request as ActionRequest<ActionInput<typeof name>>));
    } catch (error) {
      item.reject(error);
    }
  };
  if (batch.length === 1) return alone(batch[0]!);
  const action = ACTIONS[name] as unknown as ActionEntry<z.ZodType, unknown, unknown>;
  let committing = false;
  let answers: { outcome: Outcome<unknown>; answer: unknown }[];
  try {
    answers = await db.transaction(async (tx) => {
      const outcomes = await actMany(
        tx,
        name,
        batch.map((item) => item.request as ActionRequest<ActionInput<typeof name>>),
      );
      const answered: { outcome: Outcome<unknown>; answer: unknown }[] = [];
      for (const [index, outcome] of outcomes.entries()) {
        answered.push({ outcome, answer: outcome.applied ? await action.respond(tx, batch[index]!.request, outcome.result) : null });
      }
      committing = true;
      return answered;
    });
  } catch (error) {
    // Failed at the commit: whether it was written is unknown, so nothing runs again.
    if (committing) {
      for (const item of batch) item.reject(error);
      return;
    }
    // Failed before: nothing was written; each request alone.
    for (const item of batch) await alone(item);
    return;
  }
  for (const [index, { outcome, answer }] of answers.entries()) {
    const item = batch[index]!;
    if (outcome.applied) item.resolve(answer);
    else {
      loggedRefusals.add(outcome.refusal);
      item.reject(outcome.refusal);
    }
  }
}
