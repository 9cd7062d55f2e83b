/**
 * Company names become unique per world (migration 0016_company_names, docs/world.md "Company
 * names"): a game that already has duplicates (a player who took a bot's name in another case,
 * two players with one name) upgrades in place. The oldest company keeps the name (the bots, seeded
 * first), the others get their id appended; other worlds, bankrupt companies and distinct names are
 * left alone, and from then on the database refuses a duplicate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { inject } from 'vitest';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { MIGRATIONS_FOLDER } from '../src/migrate.ts';
import { databaseWithOldMigrations } from '../src/testing/oldMigrations.ts';

const LAST_BEFORE_UNIQUE_NAMES = '0015_history_without_company_fk';

describe('upgrading to unique company names', () => {
  let url: string;
  let oldFolder: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ url, oldFolder, cleanup } = await databaseWithOldMigrations(inject('testServerUrl'), `${inject('testRunId')}_upgrade_names`, LAST_BEFORE_UNIQUE_NAMES));
  });
  afterAll(async () => {
    await cleanup();
  });

  it('renames the later duplicates of each world and then refuses new ones', async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await migrate(drizzle(sql), { migrationsFolder: oldFolder });
      const [klass] = await sql<{ id: number }[]>`insert into worlds (name, kind, join_code) values ('Class', 'private', 'ABCDEFGH') returning id`;
      const add = async (world: number, name: string, options: { bot?: boolean; status?: string } = {}) => {
        const [row] = await sql<{ id: number }[]>`
          insert into companies (world_id, name, cash_cents, starting_cash_cents, is_bot, strategy, status)
          values (${world}, ${name}, 100, 100, ${options.bot ?? false}, ${options.bot ? 'balanced' : null}, ${options.status ?? 'active'})
          returning id`;
        return row!.id;
      };
      const bot = await add(1, 'Iron Works', { bot: true });
      const copycat = await add(1, ' iron works ');
      const acme = await add(1, 'Acme');
      const acmeTwin = await add(1, 'ACME');
      const bankrupt = await add(1, 'Acme', { status: 'bankrupt' });
      const elsewhere = await add(klass!.id, 'Iron Works', { bot: true });
      const distinct = await add(1, 'Distinct Co');

      await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });

      const rows = await sql<{ id: number; name: string }[]>`select id, name from companies order by id`;
      expect(rows).toEqual([
        { id: bot, name: 'Iron Works' },
        { id: copycat, name: `iron works (${copycat})` },
        { id: acme, name: 'Acme' },
        { id: acmeTwin, name: `ACME (${acmeTwin})` },
        { id: bankrupt, name: 'Acme' },
        { id: elsewhere, name: 'Iron Works' },
        { id: distinct, name: 'Distinct Co' },
      ]);
      await expect(add(1, 'DISTINCT CO ')).rejects.toMatchObject({ code: '23505', constraint_name: 'companies_world_name_key' });
    } finally {
      await sql.end();
    }
  });
});
