import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../migrations', import.meta.url));
/** Advisory lock key shared by every process that migrates or seeds ("mcft" in ASCII). */
export const SETUP_LOCK_KEY = 0x6d636674;

/**
 * Applies the committed drizzle-kit migrations. Runs under a PostgreSQL advisory lock so the API
 * and the worker starting together never race; the second one finds nothing left to do.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${SETUP_LOCK_KEY})`;
    try {
      await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await sql`select pg_advisory_unlock(${SETUP_LOCK_KEY})`;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
