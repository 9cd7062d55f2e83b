/**
 * Who is an admin: users flagged is_admin. ADMIN_EMAILS (config) grants the flag at API start and
 * whenever a listed user signs up or signs in; `npm run admin -- grant|revoke <email>` sets it by
 * hand. ADMIN_EMAILS only ever grants: removing an address from it does not revoke (use the CLI).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { users, type DbExecutor } from '@marketcraft/db';

export function isListedAdmin(adminEmails: readonly string[], email: string): boolean {
  return adminEmails.includes(email.trim().toLowerCase());
}

/** Makes every existing user listed in ADMIN_EMAILS an admin; returns how many changed. */
export async function applyAdminEmails(db: DbExecutor, adminEmails: readonly string[]): Promise<number> {
  const emails = adminEmails.map((email) => email.trim().toLowerCase()).filter(Boolean);
  if (emails.length === 0) return 0;
  const changed = await db
    .update(users)
    .set({ isAdmin: true })
    .where(and(inArray(sql`lower(${users.email})`, emails), eq(users.isAdmin, false)))
    .returning({ id: users.id });
  return changed.length;
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
