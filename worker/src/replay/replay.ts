/**
 * Replay (docs/replay.md): a world's log re-run, in seq order, into another world (a fresh
 * database's, or a fork in the same database), from the same seed and catalogue. Each player's
 * request goes through the same action door again, each turn runs again (its bots decide again from
 * the seed), and after every turn the replayed world's state hash is compared with the one the
 * original turn stored.
 *
 * Ids differ in the replayed world: companies are paired by rank (the world's first companies, its
 * bots) or by the founding that created them; buildings by the action that built them (its result's
 * building_id, the bots' builds paired in the order the turn logged them). A request's ids are
 * translated before it runs again.
 */
import { sql } from 'drizzle-orm';
import { GameError, MAX_ROW_ID, type TeamRole } from '@marketcraft/shared';
import {
  ACTIONS,
  actOutcome,
  addAnnouncement,
  appendToLog,
  addShock,
  changeWorldSettings,
  createPlayerCompany,
  endWorld,
  IN_FAILED_TRANSACTION,
  isPostgresError,
  loggedOutcome,
  stateHash,
  stateHashVersionOf,
  ASSIGNMENT_LOG_ACTIONS,
  STATE_HASH_VERSION,
  TEAM_MOVES,
  replayTeamMove,
  updateWorldClock,
  type ActionName,
  type Database,
  type DbExecutor,
  type LogEntry,
  type LoggedOutcome,
  type Transaction,
  UnguardedRefusal,
} from '@marketcraft/db';
import { runTurn } from '../turn/index.ts';

type LoggedEntry = {
  seq: number;
  week: number;
  company_id: number | null;
  acting_user_id: number | null;
  action: string;
  input: Record<string, unknown>;
  outcome: LoggedOutcome;
  by_turn: boolean;
};

/** Where a replay runs: a world of a database, at its first week, with its first companies only. */
export interface ReplayTarget {
  db: Database;
  worldId: number;
  /** The account the instructors' entries (shocks, clock, announcements) run as: a site admin. */
  admin: { id: number; isAdmin: boolean };
  /** The account an original user (a founding's, a team move's) becomes in the target, the same each time (a fresh database has none of the original's). */
  userFor: (originalUserId: number) => Promise<number>;
}

export interface WeekCheck {
  week: number;
  original: string | null;
  replayed: string | null;
  matches: boolean;
  /** Milliseconds the week's replay took (its actions and its turn). */
  ms: number;
  /** Of which the turn's (its phases, its state hash and the check of its own entries). */
  turnMs: number;
  /** Entries of the week in the log (the turn's own included). */
  entries: number;
}

interface OutcomeMismatch {
  seq: number;
  action: string;
  original: LoggedOutcome;
  replayed: LoggedOutcome;
}

export interface ReplayReport {
  weeks: WeekCheck[];
  mismatches: OutcomeMismatch[];
  /** The week the target world is at when the replay stops. */
  week: number;
}

export interface ReplayOptions {
  /** Stop at the start of this week: after the turn that ended the week before, before any later request. */
  toWeek?: number;
  /** Called after each replayed turn (the CLI prints it). */
  onWeek?: (check: WeekCheck) => void | Promise<void>;
  /** Replaces a logged entry's input before it runs (the what-if of a test: one decision changed). */
  alter?: (entry: LoggedEntry) => Record<string, unknown>;
  /**
   * Each request as the API's door runs it: in its own savepoint, its entry appended right after it
   * (the replay before it skipped savepoints and appended a week's entries together). The
   * benchmark's comparison (`npm run replay -- --bench --compare`); the same outcomes and hashes.
   */
  oneByOne?: boolean;
  /**
   * Called before each step the replay takes, with its name: a request's action (applied or
   * refused, as logged), `log append`, `turn`, or another logged entry's action (the benchmark's
   * `--profile` counts the statements each sends).
   */
  onStep?: (step: string) => void;
}

/** The actions whose `id` is a building of the acting company. */
const BUILDING_ID_ACTIONS = new Set<string>([
  'hireEmployees',
  'upgradeEquipment',
  'setProductionRate',
  'selectRecipe',
  'selectCategory',
  'sellBuilding',
  'purchaseForBuilding',
  'transferToStore',
  'updateStorePrice',
  'toggleStoreProduct',
  'removeStoreProduct',
]);

/** Entries the log keeps as history and replay does not run again (docs/replay.md). */
const ASSIGNMENT_ONLY = new Set<string>(ASSIGNMENT_LOG_ACTIONS);

const TEAM_MOVE_NAMES = new Set<string>(TEAM_MOVES);

/** The actions whose `id` is a contract. */
const CONTRACT_ID_ACTIONS = new Set<string>(['acceptContracts', 'declineContracts', 'cancelContracts']);

/** Original id -> replayed id, per kind of row. */
class IdMap {
  readonly companies = new Map<number, number>();
  readonly buildings = new Map<number, number>();
  readonly orders = new Map<number, number>();
  readonly contracts = new Map<number, number>();
  /**
   * The original companies' sign-up addresses (companies.signup_address), which the log leaves out
   * (a founding's log entry carries no network address): a founding copies its original's, as the
   * state hash counts every column of a company (without it no public world with sign-ups replayed or forked).
   */
  readonly signupAddresses = new Map<number, string>();

  company(id: number): number {
    const mapped = this.companies.get(id);
    if (mapped === undefined) throw new Error(`replay: company ${id} of the log has no counterpart`);
    return mapped;
  }

  /** A building the log names: its counterpart, or an id no building has (the request is refused again, as it was). */
  building(id: number): number {
    return this.buildings.get(id) ?? MAX_ROW_ID;
  }

  /** The ids a result names (a built building, a placed order, an offered contract) paired with the replay's. */
  pairResults(action: string, original: LoggedOutcome, replayed: LoggedOutcome): void {
    if (!original.applied || !replayed.applied) return;
    const from = original.result as Record<string, unknown> | undefined;
    const to = replayed.result as Record<string, unknown> | undefined;
    if (typeof from?.building_id === 'number' && typeof to?.building_id === 'number') this.buildings.set(from.building_id, to.building_id);
    if (typeof from?.id === 'number' && typeof to?.id === 'number') {
      if (action === 'placeExchangeOrders') this.orders.set(from.id, to.id);
      if (action === 'offerContracts') this.contracts.set(from.id, to.id);
    }
  }
}

function translateInput(action: string, input: Record<string, unknown>, ids: IdMap): Record<string, unknown> {
  const translated = { ...input };
  if (BUILDING_ID_ACTIONS.has(action) && typeof input.id === 'number') translated.id = ids.building(input.id);
  if (action === 'tradeShares' && typeof input.company_id === 'number') translated.company_id = ids.companies.get(input.company_id) ?? MAX_ROW_ID;
  if (action === 'offerContracts' && typeof input.buyer_company_id === 'number')
    translated.buyer_company_id = ids.companies.get(input.buyer_company_id) ?? MAX_ROW_ID;
  // An id no row has: the request is refused again, as it was.
  if (action === 'cancelExchangeOrders' && typeof input.id === 'number') translated.id = ids.orders.get(input.id) ?? MAX_ROW_ID;
  if (CONTRACT_ID_ACTIONS.has(action) && typeof input.id === 'number') translated.id = ids.contracts.get(input.id) ?? MAX_ROW_ID;
  return translated;
}

function sameOutcome(a: LoggedOutcome, b: LoggedOutcome): boolean {
  if (a.applied !== b.applied) return false;
  if (!a.applied && !b.applied) return a.code === b.code && a.message === b.message;
  return true;
}

async function logOf(db: DbExecutor, worldId: number, afterSeq = 0): Promise<LoggedEntry[]> {
  const rows = await db.execute<LoggedEntry>(sql`
    select seq, week, company_id, acting_user_id, action, input, outcome, by_turn
    from world_actions where world_id = ${worldId} and seq > ${afterSeq} order by seq`);
  return rows.map((row) => ({ ...row, seq: Number(row.seq), week: Number(row.week) }));
}

async function lastSeq(db: DbExecutor, worldId: number): Promise<number> {
  const [row] = await db.execute<{ seq: number }>(sql`select coalesce(max(seq), 0) as seq from world_actions where world_id = ${worldId}`);
  return Number(row?.seq ?? 0);
}

/** The world's companies that no logged founding created (its bots), by id. */
async function firstCompanies(db: DbExecutor, worldId: number, founded: ReadonlySet<number>): Promise<number[]> {
  const rows = await db.execute<{ id: number }>(sql`select id from companies where world_id = ${worldId} order by id`);
  return rows.map((row) => Number(row.id)).filter((id) => !founded.has(id));
}

/** A week's requests as they are replayed: their log entries waiting to be appended together, in order. */
interface WeekRun {
  tx: Transaction;
  /** With a savepoint for every request (after a request logged as applied was refused without one). */
  guarded: boolean;
  pending: LogEntry[];
  onStep?: (step: string) => void;
}

/** Appends the entries the week's requests left waiting (before an entry that appends its own, and at the week's end). */
async function flush(run: WeekRun, worldId: number): Promise<void> {
  if (run.pending.length === 0) return;
  run.onStep?.('log append');
  await appendToLog(
    run.tx,
    run.pending.splice(0).map((entry) => ({ ...entry, worldId })),
  );
}

/**
 * Runs one logged request again in the target, inside the week's transaction; its outcome as the
 * log keeps it. A player's request through the action door (`actOutcome`: its entry waits in
 * `run.pending`); the world's own entries in a savepoint here, so a refusal undoes only its own writes.
 */
async function replayEntry(run: WeekRun, entry: LoggedEntry, input: Record<string, unknown>, target: ReplayTarget, ids: IdMap): Promise<LoggedOutcome> {
  // History only, not run again: the assignments and their grading (the hash has none of them; a
  // fork carries the original's coming assignments over itself, finishFork).
  if (ASSIGNMENT_ONLY.has(entry.action)) return entry.outcome;
  run.onStep?.(`${entry.action} ${entry.outcome.applied ? 'applied' : 'refused'}`);
  if (entry.action in ACTIONS) {
    const name = entry.action as ActionName;
    const companyId = ids.company(entry.company_id!);
    const parsed = ACTIONS[name].input.safeParse(translateInput(name, input, ids));
    if (!parsed.success) return { applied: false, code: 'INVALID_INPUT', message: parsed.error.issues[0]?.message ?? 'Invalid input' };
    // A request the log keeps as applied runs without a savepoint (nearly every one does apply
    // again); one it keeps as refused gets one only if it writes (most are refused on what they read).
    const { outcome, entry: logged } = await actOutcome(
      run.tx,
      name,
      { companyId, actingUserId: entry.acting_user_id, input: parsed.data as never },
      run.guarded ? 'savepoint' : entry.outcome.applied ? 'none' : 'beforeWrites',
    );
    run.pending.push(logged);
    return outcome;
  }
  await flush(run, target.worldId);
  // Read before the savepoint: a new account is no part of what a refusal undoes.
  const userId = entry.action === 'foundCompany' || TEAM_MOVE_NAMES.has(entry.action) ? await target.userFor(Number(input.user_id)) : 0;
  try {
    return await run.tx.transaction((savepoint) => replayWorldEntry(savepoint, entry, input, target, ids, userId));
  } catch (error) {
    if (error instanceof GameError) return loggedOutcome({ applied: false, refusal: error });
    throw error;
  }
}

/** A founding, an instructor's change or the world's creation, again. */
async function replayWorldEntry(
  tx: Transaction,
  entry: LoggedEntry,
  input: Record<string, unknown>,
  target: ReplayTarget,
  ids: IdMap,
  userId: number,
): Promise<LoggedOutcome> {
  const user = target.admin;
  switch (entry.action) {
    case 'foundCompany': {
      const company = await createPlayerCompany(tx, {
        worldId: target.worldId,
        userId,
        email: `player-${userId}@replay.invalid`,
        mode: 'flat',
        name: String(input.name),
        startingCashCents: Number(input.starting_cash_cents),
      });
      ids.companies.set(entry.company_id!, company.id);
      const address = ids.signupAddresses.get(entry.company_id!);
      if (address !== undefined) await tx.execute(sql`update companies set signup_address = ${address} where id = ${company.id}`);
      return { applied: true, result: { company_id: company.id, cash_cents: company.cashCents } };
    }
    case 'addShock':
      await addShock(tx, user, target.worldId, {
        kind: input.kind as 'tax_rate' | 'demand' | 'price',
        countryId: (input.country_id as number | null) ?? undefined,
        productId: (input.product_id as number | null) ?? undefined,
        percent: Number(input.percent),
        weeks: Number(input.weeks),
      });
      return { applied: true };
    case 'addAnnouncement':
      await addAnnouncement(tx, user, target.worldId, String(input.message));
      return { applied: true };
    case 'updateWorldClock':
      await updateWorldClock(tx, user, target.worldId, {
        status: input.status as 'active' | 'paused' | undefined,
        turnIntervalMinutes: input.turn_interval_minutes as number | null | undefined,
      });
      return { applied: true };
    case 'changeAtFork':
      await changeWorldSettings(tx, user, target.worldId, {
        tax_rates: input.tax_rates as Array<{ country_id: number; tax_rate: number }>,
        bots: input.bots as boolean | undefined,
      });
      return { applied: true };
    case 'endWorld':
      await endWorld(tx, user, target.worldId);
      return { applied: true };
    case 'joinTeam':
    case 'placeTeamMember':
    case 'removeTeamMember':
    case 'setTeamRole': {
      // Who acts for a company is not in the hash, but a fork's teams are those of its fork week.
      const { user_id: _user, company_id: company, role, from_company_id: from, ...detail } = input;
      await replayTeamMove(tx, target.worldId, entry.acting_user_id, {
        action: entry.action,
        userId,
        companyId: ids.company(Number(company)),
        role: (role as TeamRole | null | undefined) ?? null,
        detail: from === undefined ? detail : { ...detail, from_company_id: from === null ? null : (ids.companies.get(Number(from)) ?? null) },
      });
      return { applied: true };
    }
    case 'createWorld':
      // The target world was created from the same settings before the replay started.
      return entry.outcome;
    default:
      throw new Error(`replay: no way to replay the logged action ${entry.action}`);
  }
}

/**
 * Replays the source world's log into the target world (same seed, at week 1, with only its first
 * companies), turn by turn, comparing each turn's state hash with the original's.
 */
export async function replayWorld(source: Database, sourceWorldId: number, target: ReplayTarget, options: ReplayOptions = {}): Promise<ReplayReport> {
  const log = await logOf(source, sourceWorldId);
  const ids = new IdMap();
  const founded = new Set(log.filter((entry) => entry.action === 'foundCompany').map((entry) => entry.company_id!));
  const originals = await firstCompanies(source, sourceWorldId, founded);
  const replayed = await firstCompanies(target.db, target.worldId, new Set());
  if (originals.length !== replayed.length) {
    throw new Error(`replay: the original world starts with ${originals.length} companies, the target with ${replayed.length}`);
  }
  originals.forEach((id, index) => ids.companies.set(id, replayed[index]!));
  const addresses = await source.execute<{ id: number; signup_address: string }>(
    sql`select id, signup_address from companies where world_id = ${sourceWorldId} and signup_address is not null`,
  );
  for (const row of addresses) ids.signupAddresses.set(Number(row.id), row.signup_address);
  const hashes = new Map(
    (await source.execute<{ week: number; state_hash: string | null }>(sql`select week, state_hash from turns where world_id = ${sourceWorldId}`)).map(
      (row) => [Number(row.week), row.state_hash],
    ),
  );

  const report: ReplayReport = { weeks: [], mismatches: [], week: 1 };
  let weekStarted = performance.now();
  let weekEntries = 0;
  /** Whether the replay stops before this entry (at the start of the week `toWeek`). */
  const stopsAt = (entry: LoggedEntry) => options.toWeek !== undefined && !entry.by_turn && entry.week >= options.toWeek;
  let index = 0;
  while (index < log.length && !stopsAt(log[index]!)) {
    const entry = log[index]!;
    if (entry.by_turn) {
      // The turn that logged it ran again below, and logged it again.
      weekEntries += 1;
      index += 1;
      continue;
    }
    if (entry.action === 'advanceTurn') {
      weekEntries += 1;
      const turnStarted = performance.now();
      const before = await lastSeq(target.db, target.worldId);
      const week = Number(entry.input.week);
      options.onStep?.('turn');
      const result = await runTurn(target.db, { worldId: target.worldId, week, nextTurnAt: () => null });
      if (result.status !== 'advanced') throw new Error(`replay: week ${week} did not turn (${result.reason})`);
      options.onStep?.('turn check');
      // The turn's own entries (the bots' moves, bankruptcies): paired with the original's, in order.
      const mine = (await logOf(target.db, target.worldId, before)).filter((logged) => logged.by_turn);
      const theirs: LoggedEntry[] = [];
      for (let next = index + 1; next < log.length && log[next]!.by_turn; next += 1) theirs.push(log[next]!);
      theirs.forEach((original, position) => {
        const again = mine[position];
        if (again) ids.pairResults(original.action, original.outcome, again.outcome);
        if (!again || again.action !== original.action || !sameOutcome(original.outcome, again.outcome)) {
          report.mismatches.push({
            seq: original.seq,
            action: original.action,
            original: original.outcome,
            replayed: again?.outcome ?? { applied: false, code: 'MISSING', message: 'not replayed' },
          });
        }
      });
      const [row] = await target.db.execute<{ state_hash: string | null }>(
        sql`select state_hash from turns where world_id = ${target.worldId} and week = ${week}`,
      );
      const original = hashes.get(week) ?? null;
      // A hash stored before the canonical form's last version is compared with that version's.
      const replayed =
        original !== null && stateHashVersionOf(original) !== STATE_HASH_VERSION
          ? await stateHash(target.db, target.worldId, stateHashVersionOf(original))
          : (row?.state_hash ?? null);
      const check: WeekCheck = {
        week,
        original,
        replayed,
        matches: original !== null && original === replayed,
        ms: Math.round(performance.now() - weekStarted),
        turnMs: Math.round(performance.now() - turnStarted),
        entries: weekEntries,
      };
      report.weeks.push(check);
      await options.onWeek?.(check);
      weekStarted = performance.now();
      weekEntries = 0;
      index += 1;
      continue;
    }
    // The requests up to the next turn, in one transaction: one commit a week instead of one a
    // request (each request still in its own savepoint, so a refusal undoes only its writes). The
    // target world is the replay's alone meanwhile: nothing else waits for its locks.
    let end = index;
    while (end < log.length && !log[end]!.by_turn && log[end]!.action !== 'advanceTurn' && !stopsAt(log[end]!)) end += 1;
    const requests = log.slice(index, end);
    const runWeek = (guarded: boolean) =>
      target.db.transaction(async (tx) => {
        const run: WeekRun = { tx, guarded, pending: [], onStep: options.onStep };
        const found: OutcomeMismatch[] = [];
        for (const request of requests) {
          const input = options.alter ? options.alter(request) : request.input;
          const outcome = await replayEntry(run, request, input, target, ids);
          if (options.oneByOne) await flush(run, target.worldId);
          ids.pairResults(request.action, request.outcome, outcome);
          if (!sameOutcome(request.outcome, outcome)) found.push({ seq: request.seq, action: request.action, original: request.outcome, replayed: outcome });
        }
        await flush(run, target.worldId);
        return found;
      });
    // A request logged as applied and refused now (a replay that diverges) wrote without its
    // savepoint, and a refused request that caught a failed read left the transaction failed (its
    // savepoint comes before its first write only): the week is rolled back and run again, each
    // request in its own savepoint, as the API's door runs it.
    const found = await runWeek(options.oneByOne === true).catch((error: unknown) => {
      if (error instanceof UnguardedRefusal || isPostgresError(error, IN_FAILED_TRANSACTION)) return runWeek(true);
      throw error;
    });
    report.mismatches.push(...found);
    weekEntries += requests.length;
    index = end;
  }
  const [world] = await target.db.execute<{ week: number }>(sql`select current_week as week from worlds where id = ${target.worldId}`);
  report.week = Number(world?.week ?? 1);
  return report;
}
