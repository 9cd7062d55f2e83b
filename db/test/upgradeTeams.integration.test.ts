/**
 * Class worlds that run when teams arrive (migration 0038_teams): each of their players becomes the
 * only member of their company, which gets a team code; the public world's companies and the bots
 * get neither, and every world's team size is 1 (everyone plays alone, as before).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { inject } from 'vitest';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { MIGRATIONS_FOLDER } from '../src/migrate.ts';
import { databaseWithOldMigrations } from '../src/testing/oldMigrations.ts';

const LAST_BEFORE_TEAMS = '0035_world_actions';

describe('upgrading class worlds to teams', () => {
  let url: string;
  let oldFolder: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ url, oldFolder, cleanup } = await databaseWithOldMigrations(inject('testServerUrl'), `${inject('testRunId')}_upgrade_teams`, LAST_BEFORE_TEAMS));
  });
  afterAll(async () => {
    await cleanup();
  });

  it("makes each class world's player the only member of their company, with a team code", async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await migrate(drizzle(sql), { migrationsFolder: oldFolder });
      const [publicWorld] = await sql<{ id: number }[]>`select id from worlds where kind = 'public'`;
      const [classWorld] = await sql<{ id: number }[]>`
        insert into worlds (name, kind, join_code, current_week) values ('Class', 'private', 'ABCD2345', 4) returning id`;
      const [ana] = await sql<{ id: number }[]>`insert into users (email) values ('ana@example.com') returning id`;
      const [ben] = await sql<{ id: number }[]>`insert into users (email) values ('ben@example.com') returning id`;
      const company = async (worldId: number, name: string, userId: number | null, status = 'active') =>
        (
          await sql<{ id: number }[]>`
            insert into companies (world_id, user_id, name, cash_cents, starting_cash_cents, is_bot, strategy, status)
            values (${worldId}, ${userId}, ${name}, 100, 100, ${userId === null}, ${userId === null ? 'bot' : null}, ${status}) returning id`
        )[0]!.id;
      const anaClass = await company(classWorld!.id, 'Ana Class Co', ana!.id);
      await company(classWorld!.id, 'Class Bot', null);
      await company(publicWorld!.id, 'Ana Public Co', ana!.id);
      await company(classWorld!.id, 'Ben Broke Co', ben!.id, 'bankrupt');

      await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });

      const members = await sql<{ world_id: number; user_id: number; company_id: number; role: string | null; joined_week: number }[]>`
        select world_id, user_id, company_id, role, joined_week from company_members`;
      expect(members).toEqual([{ world_id: classWorld!.id, user_id: ana!.id, company_id: anaClass, role: null, joined_week: 4 }]);
      const codes = await sql<{ name: string; team_code: string | null }[]>`select name, team_code from companies order by id`;
      expect(codes.find((row) => row.name === 'Ana Class Co')!.team_code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
      expect(codes.find((row) => row.name === 'Class Bot')!.team_code).toBeNull();
      expect(codes.find((row) => row.name === 'Ana Public Co')!.team_code).toBeNull();
      const sizes = await sql<{ team_size: number }[]>`select team_size from worlds`;
      expect(sizes.map((row) => row.team_size)).toEqual([1, 1]);
    } finally {
      await sql.end();
    }
  });
});
