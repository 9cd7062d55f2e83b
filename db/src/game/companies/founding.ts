import { sql } from 'drizzle-orm';
import {
  EARLY_BIRD_CAPITAL,
  EARLY_BIRD_PLAYER_LIMIT,
  GameError,
  INITIAL_CAPITAL,
  SIGNUP_THROTTLE_MESSAGE,
  dollarsToCents,
  formatCents,
  listing,
  type SignupBonusMode,
} from '@marketcraft/shared';
import { companies, shareRecords } from '../../schema/index.ts';
import { changeCash } from '../books/ledger.ts';
import { appendToLog } from '../replay/log.ts';
import type { DbExecutor } from '../../client.ts';
import { companyNameKey, freeCompanyName, withCompanyName } from './names.ts';
import { enrolFounder } from './members.ts';

/** Serialises company founding so the early-bird count is exact under concurrent signups. */
const FOUNDING_LOCK_KEY = 0x6d636663; // "mcfc"

/** "jane.doe+x@example.com" -> "Jane Doe Enterprises". */
function defaultCompanyName(email: string): string {
  const local = email.split('@')[0]?.split('+')[0] ?? '';
  const words = local
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());
  return `${words.length ? words.join(' ') : 'New'} Enterprises`.slice(0, 80);
}

/**
 * Where a sign-up came from: its address (signupAddressKey), how many bonuses one address takes
 * (EARLY_BIRD_PER_ADDRESS) and how many sign-ups it makes in an hour (SIGNUPS_PER_ADDRESS_PER_HOUR; 0: no limit).
 */
export interface SignupOrigin {
  address: string;
  /** Early-bird bonuses sign-ups from the address may take; null: no cap (the game's own machine). */
  bonusesPerAddress: number | null;
  /** Sign-ups the address may make in an hour; 0: no limit. */
  signupsPerHour: number;
  /** How many first player companies of the world get the early-bird bonus (EARLY_BIRD_PLAYER_LIMIT unless configured). */
  earlyBirdPlayers: number;
}

/**
 * The starting cash of a new player company: in `early-bird` mode the first 50 early-bird bonuses
 * ($500,000) go to the first player companies founded, at most `bonusesPerAddress` (3) to sign-ups
 * from one network address; every other company gets $100,000. In `flat` mode everyone gets $100,000.
 */
function startingCapital(mode: SignupBonusMode, bonuses: { granted: number; grantedToAddress: number; perAddress: number | null; players: number }): number {
  const eligible = bonuses.granted < bonuses.players && (bonuses.perAddress === null || bonuses.grantedToAddress < bonuses.perAddress);
  return mode === 'early-bird' && eligible ? EARLY_BIRD_CAPITAL : INITIAL_CAPITAL;
}

/**
 * 429 when the address already signed up SIGNUPS_PER_ADDRESS_PER_HOUR times in the last hour
 * (counted on the companies sign-ups founded, under the founding lock: exact under concurrency).
 * Retry-After: when the oldest of them leaves the hour. Sign-up also asks before hashing the
 * password (no lock: that answer only saves the hashing; this one under the lock decides).
 */
export async function refuseSignupFlood(tx: DbExecutor, worldId: number, signup: SignupOrigin): Promise<void> {
  if (signup.signupsPerHour <= 0) return;
  const [recent] = await tx.execute<{ signups: number; retry_after_seconds: number | null }>(sql`
    select count(*)::int as signups, ceil(extract(epoch from min(founded_at) + interval '1 hour' - now()))::int as retry_after_seconds
    from companies
    where world_id = ${worldId} and signup_address = ${signup.address} and founded_at > now() - interval '1 hour'`);
  if (Number(recent?.signups ?? 0) < signup.signupsPerHour) return;
  throw new GameError('RATE_LIMITED', SIGNUP_THROTTLE_MESSAGE, { retryAfterSeconds: Math.max(1, Number(recent?.retry_after_seconds ?? 3600)) });
}

/**
 * Founds a player's company (with its share record) inside the caller's transaction. Starting
 * cash is the company's opening balance (`starting_cash_cents`), not a ledger row.
 * Founding again after bankruptcy counts as a later founding (no second early-bird bonus).
 * `signup` (a sign-up's address) counts the bonuses per address; without one (the benchmark, test
 * fixtures) only the 50 are counted.
 */
export async function createPlayerCompany(
  tx: DbExecutor,
  input: {
    worldId: number;
    userId: number;
    email: string;
    mode: SignupBonusMode;
    name?: string;
    startingCashCents?: number | null;
    signup?: SignupOrigin;
  },
): Promise<{ id: number; name: string; cashCents: number }> {
  // One founding at a time per world: the bonuses granted are counted exactly, whatever the concurrency.
  await tx.execute(sql`select pg_advisory_xact_lock(${FOUNDING_LOCK_KEY}, ${input.worldId}::int)`);
  const address = input.signup?.address ?? null;
  if (input.signup) await refuseSignupFlood(tx, input.worldId, input.signup);
  // The bonuses granted so far: the player companies that started with the early-bird capital (a
  // company founded again, or in a private world, never gets it in this world).
  const [bonuses] = await tx.execute<{ granted: number; granted_to_address: number }>(sql`
    select count(*)::int as granted, count(*) filter (where signup_address = ${address})::int as granted_to_address
    from companies
    where world_id = ${input.worldId} and not is_bot and starting_cash_cents = ${dollarsToCents(EARLY_BIRD_CAPITAL)}`);
  // A private world's instructor sets everyone's starting cash; the public world has the sign-up bonus.
  const startingCents =
    input.startingCashCents ??
    dollarsToCents(
      startingCapital(input.mode, {
        granted: Number(bonuses?.granted ?? 0),
        grantedToAddress: Number(bonuses?.granted_to_address ?? 0),
        perAddress: input.signup?.bonusesPerAddress ?? null,
        players: input.signup?.earlyBirdPlayers ?? EARLY_BIRD_PLAYER_LIMIT,
      }),
    );
  // Founding again after a bankruptcy in this world: no fresh starting grant, only what the
  // liquidation left (docs/economy.md, "Founding again after bankruptcy"). The bankrupt companies are frozen, and the founding lock
  // serialises this player's foundings, so each leftover moves once.
  const bankrupt = await bankruptCompaniesOf(tx, input.worldId, input.userId);
  const restart = bankrupt.length > 0;
  const openingCents = restart ? 0 : startingCents;
  // A chosen name (nor a look-alike) must be free in the world (409); a default one takes the next free number.
  const name = input.name ?? (await freeCompanyName(tx, input.worldId, defaultCompanyName(input.email)));
  const [company] = await withCompanyName(() =>
    tx
      .insert(companies)
      .values({
        worldId: input.worldId,
        userId: input.userId,
        name,
        nameKey: companyNameKey(name),
        cashCents: openingCents,
        startingCashCents: openingCents,
        isBot: false,
        signupAddress: address,
      })
      .returning({ id: companies.id, name: companies.name, cashCents: companies.cashCents }),
  );
  if (!company) throw new Error('company insert returned nothing');
  for (const leftover of bankrupt) {
    if (leftover.cashCents <= 0) continue;
    const dollars = formatCents(leftover.cashCents);
    await changeCash(tx, {
      companyId: leftover.id,
      amountCents: -leftover.cashCents,
      type: 'other',
      reason: 'restart_capital',
      description: `${dollars} left after the bankruptcy moved to ${name}`,
      ref: { counterpartyCompanyId: company.id },
    });
    company.cashCents = await changeCash(tx, {
      companyId: company.id,
      amountCents: leftover.cashCents,
      type: 'other',
      reason: 'restart_capital',
      description: `${dollars} left by your bankrupt company`,
      ref: { counterpartyCompanyId: leftover.id },
    });
  }
  await enrolFounder(tx, input.worldId, company.id, input.userId);
  await listCompany(tx, input.worldId, company.id, company.cashCents);
  // The founding in the world's log: replay founds it again with the starting cash decided here (the
  // sign-up bonus depends on addresses replay does not have).
  await appendToLog(tx, [
    {
      worldId: input.worldId,
      companyId: company.id,
      actingUserId: input.userId,
      action: 'foundCompany',
      input: { user_id: input.userId, name, starting_cash_cents: startingCents },
      outcome: { applied: true, result: { company_id: company.id, cash_cents: company.cashCents } },
    },
  ]);
  return company;
}

/** The player's bankrupt companies in this world with their cash (what their liquidation left), locked. */
async function bankruptCompaniesOf(tx: DbExecutor, worldId: number, userId: number): Promise<{ id: number; cashCents: number }[]> {
  const rows = await tx.execute<{ id: number; cash_cents: number }>(sql`
    select id, cash_cents from companies
    where world_id = ${worldId} and user_id = ${userId} and status = 'bankrupt'
    order by id for update`);
  return rows.map((row) => ({ id: Number(row.id), cashCents: Number(row.cash_cents) }));
}

/** Lists a new company on the stock exchange at its book value (shared `listing`: about $100 a share). */
export async function listCompany(tx: DbExecutor, worldId: number, companyId: number, bookCents: number): Promise<void> {
  const { totalShares, priceCents } = listing(bookCents);
  await tx.insert(shareRecords).values({ worldId, companyId, totalShares, sharePriceCents: priceCents, fundamentalCents: priceCents });
}
