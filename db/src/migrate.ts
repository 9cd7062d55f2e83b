import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { seedWorld } from './seed/index.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../migrations', import.meta.url));
/** Advisory lock key shared by every process that migrates or seeds ("mcft" in ASCII). */
const SETUP_LOCK_KEY = 0x6d636674;

async function withSetupLock(url: string, work: (sql: postgres.Sql) => Promise<void>): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${SETUP_LOCK_KEY})`;
    try {
      await work(sql);
    } finally {
      await sql`select pg_advisory_unlock(${SETUP_LOCK_KEY})`;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Applies the committed drizzle-kit migrations. Runs under a PostgreSQL advisory lock so the API
 * and the worker starting together never race; the second one finds nothing left to do.
 */
export async function migrateDatabase(url: string): Promise<void> {
  await withSetupLock(url, (sql) => migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER }));
}

/** Migrations, then the seeded world if it is missing, under the same lock. Every process calls it at start. */
export async function prepareDatabase(url: string): Promise<void> {
  await withSetupLock(url, async (sql) => {
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });
    const { connectDatabase } = await import('./client.ts');
    const connection = connectDatabase(url, { max: 2, applicationName: 'marketcraft-seed' });
    try {
      await seedWorld(connection.db);
    } finally {
      await connection.close();
    }
  });
}
