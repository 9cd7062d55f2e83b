/**
 * Who is an admin: users flagged is_admin. `npm run admin -- grant|revoke <email>` sets it by hand
 * (the operator's deliberate act). ADMIN_EMAILS (config) grants the flag only where somebody proved
 * they own the listed address: a Google sign-in whose verified email is listed, into an account
 * with no password (created by Google). A password account is never made admin by the list, at
 * sign-up, sign-in or start: we do not verify the emails of password sign-ups, so whoever signed
 * up first with the operator's address would otherwise become admin (docs/auth.md, "Admins").
 * ADMIN_EMAILS only ever grants: removing an address from it does not revoke (use the CLI).
 */
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { users, type DbExecutor } from '@marketcraft/db';

export function isListedAdmin(adminEmails: readonly string[], email: string): boolean {
  return adminEmails.includes(email.trim().toLowerCase());
}

/**
 * Whether ADMIN_EMAILS makes this account admin: its address is listed and it has no password, so
 * only its verified Google identity signs into it (the caller has just checked that identity).
 */
export function grantsListedAdmin(adminEmails: readonly string[], account: { email: string; passwordHash: string | null }): boolean {
  return account.passwordHash === null && isListedAdmin(adminEmails, account.email);
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
