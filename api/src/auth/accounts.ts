/**
 * Account operations behind the auth routes: sign up, sign in with a password, sign in with an
 * external identity (Google). They know nothing of HTTP: they take validated input, throw
 * GameErrors with the player-readable message, and return the user and a new session token.
 */
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  GOOGLE_RETRY_MESSAGE,
  GOOGLE_UNVERIFIED_EMAIL_MESSAGE,
  GameError,
  PUBLIC_WORLD_ID,
  type AuthUser,
  type SignInInput,
  type SignUpInput,
  type SignupBonusMode,
} from '@marketcraft/shared';
import {
  apiTokens,
  createPlayerCompany,
  oauthAccounts,
  isPostgresError,
  refuseSignupFlood,
  sessions,
  UNIQUE_VIOLATION,
  users,
  type Database,
  type DbExecutor,
  type SignupOrigin,
} from '@marketcraft/db';
import { createSession } from './session.ts';
import { hashPassword, verifyDummyPassword, verifyPassword } from './password.ts';
import { SIGN_IN_LOCK_MINUTES, clearFailures, reserveSignInAttempt, throttleKeys } from './throttle.ts';
import { grantsListedAdmin, passwordProof, type AddressProof } from './admins.ts';
import { isLoopbackAddress, signupAddressKey } from '../clientIp.ts';

const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';
const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';
const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many failed sign-in attempts. Try again in 10 minutes.';

/** The parts of the API's configuration the account operations follow. */
export interface AccountSettings {
  signupBonus: SignupBonusMode;
  /** Early-bird bonuses one address takes (EARLY_BIRD_PER_ADDRESS unless configured). */
  earlyBirdPerAddress: number;
  /** Player companies of the public world that get the early-bird bonus (EARLY_BIRD_PLAYER_LIMIT unless configured). */
  earlyBirdPlayers: number;
  /** Sign-ups one address makes in an hour (SIGNUPS_PER_ADDRESS_PER_HOUR unless configured; 0: no limit). */
  signupsPerAddressPerHour: number;
  /** Lowercased addresses from ADMIN_EMAILS (granted to verified Google sign-ins, and to local password ones: admins.ts). */
  adminEmails: readonly string[];
  /** A game without PUBLIC_URL: a password sign-in on its own machine may take a listed admin address (admins.ts). */
  trustsLocalPasswords: boolean;
  /**
   * This request came through a reverse proxy that TRUST_PROXY_HOPS does not declare
   * (relayedByUndeclaredProxy): its loopback address is the proxy's, not the game's own machine, so
   * neither the local-password admin rule nor the loopback exemption of the sign-up throttle applies.
   */
  relayedByUndeclaredProxy: boolean;
}

export interface SignedIn {
  user: AuthUser;
  /** The session token (`<id>.<secret>`): the cookie's value, or `Authorization: Bearer <token>`. */
  token: string;
  expiresAt: Date;
}

const authUserColumns = { id: users.id, email: users.email, isAdmin: users.isAdmin };

async function findUserByEmail(db: DbExecutor, email: string) {
  const [user] = await db
    .select({ ...authUserColumns, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()));
  return user ?? null;
}

/**
 * Grants admin to a listed account that is not one yet, at each sign-in that proves the address
 * (admins.ts), so an address added to ADMIN_EMAILS later takes effect at the next sign-in.
 */
async function applyListedAdmin(
  db: DbExecutor,
  settings: AccountSettings,
  user: AuthUser & { passwordHash: string | null },
  proof: AddressProof,
): Promise<AuthUser> {
  const signedIn = { id: user.id, email: user.email, isAdmin: user.isAdmin };
  if (user.isAdmin || !grantsListedAdmin(settings.adminEmails, user, proof)) return signedIn;
  await db.update(users).set({ isAdmin: true }).where(eq(users.id, user.id));
  return { ...signedIn, isAdmin: true };
}

/**
 * Where a sign-up comes from, and what that address may still take. The per-address caps are for
 * network addresses: the game's own machine (loopback) is neither throttled nor capped in
 * early-bird bonuses. Its operator, test runs, drills and scripted players sign up many players
 * from it, and a flood from it is its own operator's (docs/auth.md).
 */
function signupOrigin(settings: AccountSettings, clientIp: string): SignupOrigin {
  // A proxy nobody declared relays from loopback too: its users are not the machine (relayedByUndeclaredProxy).
  const local = isLoopbackAddress(clientIp) && !settings.relayedByUndeclaredProxy;
  return {
    address: signupAddressKey(clientIp),
    bonusesPerAddress: local ? null : settings.earlyBirdPerAddress,
    signupsPerHour: local ? 0 : settings.signupsPerAddressPerHour,
    earlyBirdPlayers: settings.earlyBirdPlayers,
  };
}

/**
 * Creates the user and founds their company in one transaction (the early-bird count is exact:
 * createPlayerCompany serialises foundings). A duplicate email, even under a race, is a CONFLICT.
 * `clientIp` is where the sign-up came from: one address takes at most EARLY_BIRD_PER_ADDRESS
 * early-bird bonuses (later sign-ups from it found their company with the initial capital), and
 * makes at most SIGNUPS_PER_ADDRESS_PER_HOUR sign-ups an hour (then 429, nothing written).
 */
async function createUserWithCompany(
  db: Database,
  settings: AccountSettings,
  input: { email: string; passwordHash: string | null; clientIp: string; external?: { provider: 'google'; subject: string } },
): Promise<AuthUser> {
  try {
    return await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          email: input.email,
          passwordHash: input.passwordHash,
          // A verified Google identity, or a password sign-up on the game's own machine (admins.ts).
          isAdmin: grantsListedAdmin(settings.adminEmails, input, input.external ? 'google' : passwordProof(settings.trustsLocalPasswords, input.clientIp)),
        })
        .returning(authUserColumns);
      if (!user) throw new Error('user insert returned nothing');
      if (input.external) {
        await tx.insert(oauthAccounts).values({ provider: input.external.provider, providerUserId: input.external.subject, userId: user.id });
      }
      await createPlayerCompany(tx, {
        worldId: PUBLIC_WORLD_ID,
        userId: user.id,
        email: user.email,
        mode: settings.signupBonus,
        signup: signupOrigin(settings, input.clientIp),
      });
      return user;
    });
  } catch (error) {
    if (isPostgresError(error, UNIQUE_VIOLATION)) throw new GameError('CONFLICT', EMAIL_TAKEN_MESSAGE);
    throw error;
  }
}

async function startSession(db: Database, user: AuthUser): Promise<SignedIn> {
  const { token, expiresAt } = await createSession(db, user.id);
  return { user, token, expiresAt };
}

/** A new account with its company, signed in. */
export async function signUp(db: Database, settings: AccountSettings, input: SignUpInput, clientIp: string): Promise<SignedIn> {
  // Answer a known duplicate before spending a hash; the unique index still decides races.
  if (await findUserByEmail(db, input.email)) throw new GameError('CONFLICT', EMAIL_TAKEN_MESSAGE);
  // Nor hash for an address over its sign-ups of the hour (a flood costs no CPU); the founding decides under its lock.
  await refuseSignupFlood(db, PUBLIC_WORLD_ID, signupOrigin(settings, clientIp));
  const passwordHash = await hashPassword(input.password);
  const user = await createUserWithCompany(db, settings, { email: input.email, passwordHash, clientIp });
  return startSession(db, user);
}

/**
 * Email and password sign-in. The attempt is counted first (atomically, whatever the concurrency)
 * and refused with 429 and a retry time while the account or the address is locked, before any
 * user lookup or hashing; wrong email and wrong password get the same 401 and cost the same time.
 */
export async function signIn(db: Database, settings: AccountSettings, input: SignInInput, clientIp: string, now = new Date()): Promise<SignedIn> {
  const keys = throttleKeys(input.email, clientIp);
  const verdict = await reserveSignInAttempt(db, keys, now);
  if (!verdict.allowed) {
    // A concurrent attempt may have set the lock from a slightly later clock: never say more than the lock's length.
    const retryAfterSeconds = Math.min(SIGN_IN_LOCK_MINUTES * 60, (verdict.retryAt.getTime() - Date.now()) / 1000);
    throw new GameError('RATE_LIMITED', TOO_MANY_ATTEMPTS_MESSAGE, { retryAfterSeconds });
  }
  const found = await findUserByEmail(db, input.email);
  const valid = found?.passwordHash ? await verifyPassword(found.passwordHash, input.password) : await verifyDummyPassword(input.password);
  // A failure stays counted (it was counted before the check).
  if (!found || !valid) throw new GameError('UNAUTHORIZED', INVALID_CREDENTIALS_MESSAGE);
  await clearFailures(db, keys);
  // ADMIN_EMAILS only on the game's own machine: elsewhere a password proves nothing about the address (admins.ts).
  return startSession(db, await applyListedAdmin(db, settings, found, passwordProof(settings.trustsLocalPasswords, clientIp)));
}

/** What an external provider vouches for. */
export interface ExternalIdentity {
  provider: 'google';
  /** The provider's stable user id (Google's `sub`). */
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

async function findUserByIdentity(db: DbExecutor, identity: ExternalIdentity) {
  const [user] = await db
    .select({ ...authUserColumns, passwordHash: users.passwordHash })
    .from(oauthAccounts)
    .innerJoin(users, eq(users.id, oauthAccounts.userId))
    .where(sql`${oauthAccounts.provider} = ${identity.provider} and ${oauthAccounts.providerUserId} = ${identity.subject}`);
  return user ?? null;
}

/**
 * Links a verified external identity to the account with its email. When that account was signed
 * up with a password, nobody verified that password sign-up's address: whoever signed up with somebody
 * else's email would keep knowing the password of the account its owner now reaches with Google
 * (account pre-hijacking). So the link takes the account over for the identity, in one
 * transaction: the password is removed, and every session and personal access token made before
 * (by whoever held the password) ends. The owner signs in with Google from now on (docs/auth.md).
 */
async function linkIdentity(db: Database, userId: number, identity: ExternalIdentity): Promise<void> {
  await db.transaction(async (tx) => {
    const [linked] = await tx
      .insert(oauthAccounts)
      .values({ provider: identity.provider, providerUserId: identity.subject, userId })
      .onConflictDoNothing()
      .returning({ userId: oauthAccounts.userId });
    // A concurrent sign-in with the same identity linked it first: it did the rest.
    if (!linked) return;
    // An account without a password (another Google identity with this email made it) keeps its sessions.
    const hadPassword = await tx
      .update(users)
      .set({ passwordHash: null })
      .where(and(eq(users.id, userId), isNotNull(users.passwordHash)))
      .returning({ id: users.id });
    if (hadPassword.length === 0) return;
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
  });
}

/**
 * Sign-in with an external identity, keyed on the provider's subject: the account already linked
 * to it; else the user with the same (verified) email, linked now (linkIdentity: its password and
 * earlier sessions end); else a new user (no password) with a company, as at sign-up.
 */
export async function signInWithIdentity(db: Database, settings: AccountSettings, identity: ExternalIdentity, clientIp: string): Promise<SignedIn> {
  // A concurrent first sign-in with the same identity may win the race to link or create it:
  // then the next pass finds its link.
  for (let pass = 0; pass < 3; pass += 1) {
    const linked = await findUserByIdentity(db, identity);
    if (linked) return startSession(db, await applyListedAdmin(db, settings, linked, 'google'));
    if (!identity.email || !identity.emailVerified) throw new GameError('FORBIDDEN', GOOGLE_UNVERIFIED_EMAIL_MESSAGE);
    const existing = await findUserByEmail(db, identity.email);
    if (existing) {
      await linkIdentity(db, existing.id, identity);
      continue;
    }
    try {
      const user = await createUserWithCompany(db, settings, {
        email: identity.email,
        passwordHash: null,
        clientIp,
        external: { provider: identity.provider, subject: identity.subject },
      });
      return startSession(db, user);
    } catch (error) {
      if (!(error instanceof GameError && error.code === 'CONFLICT')) throw error;
    }
  }
  throw new GameError('CONFLICT', GOOGLE_RETRY_MESSAGE);
}
