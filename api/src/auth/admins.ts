/**
 * Who is an admin: users flagged is_admin. `npm run admin -- grant|revoke <email>` sets it by hand
 * (the operator's deliberate act). ADMIN_EMAILS (config) grants the flag only where somebody showed
 * they may hold the listed address (docs/auth.md, "Admins"):
 * - a Google sign-in whose verified email is listed, into an account with no password (created by
 *   Google), anywhere;
 * - a password sign-up or sign-in with a listed address made on the machine the game runs on
 *   (loopback) of a game with no PUBLIC_URL: the operator at their own console on a first run.
 * From anywhere else a password proves nothing: we do not verify the emails of password sign-ups,
 * so whoever signed up first with the operator's address would otherwise become admin.
 * ADMIN_EMAILS only ever grants: removing an address from it does not revoke (use the CLI).
 */
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbExecutor } from '@marketcraft/db/client.ts';
import { users } from '@marketcraft/db/schema/index.ts';
import { isLoopbackAddress } from '../clientIp.ts';

function isListedAdmin(adminEmails: readonly string[], email: string): boolean {
  return adminEmails.includes(email.trim().toLowerCase());
}

/**
 * How a signing-in person showed they may hold the account's address: a verified Google identity,
 * a password typed on the game's own machine (`localPasswordProof`), or only a password.
 */
export type AddressProof = 'google' | 'local-password' | 'password';

/**
 * The proof of a password sign-up or sign-in from `clientIp`: 'local-password' on the game's own
 * machine when the game has no public address (`trustsLocalPasswords`: PUBLIC_URL unset), else
 * 'password'. Behind a reverse proxy the client address is the proxy's unless TRUST_PROXY_HOPS says
 * otherwise; a public deployment sets PUBLIC_URL, which turns this off.
 */
export function passwordProof(trustsLocalPasswords: boolean, clientIp: string): AddressProof {
  return trustsLocalPasswords && isLoopbackAddress(clientIp) ? 'local-password' : 'password';
}

/** Whether ADMIN_EMAILS makes this account admin, given how the person signing in proved the address. */
export function grantsListedAdmin(adminEmails: readonly string[], account: { email: string; passwordHash: string | null }, proof: AddressProof): boolean {
  if (!isListedAdmin(adminEmails, account.email)) return false;
  // A Google identity proves the address, but not who set a password (linking removes it: accounts.ts).
  if (proof === 'google') return account.passwordHash === null;
  return proof === 'local-password';
}

function normalisedList(adminEmails: readonly string[]): string[] {
  return adminEmails.map((email) => email.trim().toLowerCase()).filter(Boolean);
}

/**
 * At API start: makes every listed account without a password (a Google account) an admin; returns
 * how many changed. Listed password accounts are left alone (see the module comment).
 */
export async function applyAdminEmails(db: DbExecutor, adminEmails: readonly string[]): Promise<number> {
  const emails = normalisedList(adminEmails);
  if (emails.length === 0) return 0;
  const changed = await db
    .update(users)
    .set({ isAdmin: true })
    .where(and(inArray(sql`lower(${users.email})`, emails), eq(users.isAdmin, false), isNull(users.passwordHash)))
    .returning({ id: users.id });
  return changed.length;
}

/** The listed addresses whose account has a password and is not admin: the start log tells the operator to use the CLI. */
export async function listedPasswordAccounts(db: DbExecutor, adminEmails: readonly string[]): Promise<string[]> {
  const emails = normalisedList(adminEmails);
  if (emails.length === 0) return [];
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(inArray(sql`lower(${users.email})`, emails), eq(users.isAdmin, false), isNotNull(users.passwordHash)))
    .orderBy(users.email);
  return rows.map((row) => row.email);
}

/** Sets or clears the admin flag of the user with this email (any case); null when there is no such user. */
export async function setAdmin(db: DbExecutor, email: string, isAdmin: boolean): Promise<{ email: string; isAdmin: boolean } | null> {
  const [user] = await db
    .update(users)
    .set({ isAdmin })
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .returning({ email: users.email, isAdmin: users.isAdmin });
  return user ?? null;
}
