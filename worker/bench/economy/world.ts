/**
 * The benchmark's worlds: one throwaway embedded PostgreSQL server, one migrated and seeded
 * template database, and for each world seed a fresh copy of it whose `world.seed` is that seed
 * (the turn's luck: market noise, political events, elections).
 */
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { startEmbeddedPostgres, type EmbeddedServer } from '@marketcraft/db/embedded.ts';
import { prepareDatabase } from '@marketcraft/db/migrate.ts';
import { connectDatabase, type DatabaseConnection } from '@marketcraft/db/client.ts';
import { createPlayerCompany } from '@marketcraft/db';
import { users } from '@marketcraft/db/schema/index.ts';

const TEMPLATE = 'economy_template';

export interface BenchServer {
  /** A fresh seeded world (its own database) with `world.seed` = seed. */
  freshWorld: (seed: number) => Promise<DatabaseConnection>;
  stop: () => Promise<void>;
}

export async function startBenchServer(): Promise<BenchServer> {
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-economy-'));
  await chmod(tempDir, 0o755);
  let server: EmbeddedServer | undefined;
  try {
    // Thrown away afterwards: no fsync (the benchmark measures the economy, not the disk).
    server = await startEmbeddedPostgres({ dataDir: path.join(tempDir, 'data'), persistent: false });
    const admin = postgres(server.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${TEMPLATE}`);
    await prepareDatabase(server.urlFor(TEMPLATE));
    const running = server;
    return {
      freshWorld: async (seed: number) => {
        const name = `economy_${seed}`;
        await admin.unsafe(`drop database if exists ${name}`);
        await admin.unsafe(`create database ${name} template ${TEMPLATE}`);
        const connection = connectDatabase(running.urlFor(name), { max: 4, applicationName: 'marketcraft-bench-economy' });
        await connection.db.execute(sql`update worlds set seed = ${seed} where id = 1`);
        return connection;
      },
      stop: async () => {
        await admin.end({ timeout: 5 });
        await running.stop();
        await rm(tempDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server?.stop();
    await rm(tempDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A player company founded as sign-up founds one (createPlayerCompany, early-bird: the first 50
 * players get $500,000, or the given starting cash), for a user made for it.
 */
export async function foundPlayer(db: DatabaseConnection['db'], name: string, startingCashCents?: number): Promise<{ id: number; cashCents: number }> {
  return db.transaction(async (tx) => {
    const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@bench.example`;
    const [user] = await tx.insert(users).values({ email }).returning({ id: users.id });
    // `startingCashCents`: a player who signs up after the early-bird bonuses are gone ($100,000).
    const company = await createPlayerCompany(tx, { worldId: 1, userId: user!.id, email, mode: 'early-bird', name, startingCashCents });
    return { id: company.id, cashCents: company.cashCents };
  });
}
