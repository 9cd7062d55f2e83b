/**
 * Who plays for a company (docs/classroom.md, "Teams"). In a class world a company may have several
 * members (`company_members`); everywhere else its one player is `companies.user_id`. Every place that
 * finds "the user's company in this world" (the session check, personal API tokens, founding, joining,
 * the world list) asks `memberCompanyIdSql` (or, for the session and token checks, its row form
 * `memberCompanySql`), so every member of a team acts for it, and so does every token of a member
 * ("tokens act for their user in their team").
 */
import { sql, type SQL } from 'drizzle-orm';
import { TEAM_CODE_LENGTH } from '@marketcraft/shared';
import { randomInt } from 'node:crypto';
import type { DbExecutor } from '../../client.ts';

/**
 * SQL: the id of the user's active company in the world, or null: the company they answer for
 * (`companies.user_id`: the public world, a founder), else the one whose team they are a member of.
 * Two index lookups; `worldId` and `userId` may be columns of the enclosing query.
 */
export function memberCompanyIdSql(worldId: SQL | number, userId: SQL | number): SQL {
  return sql`coalesce(
    (select mc_own.id from companies mc_own where mc_own.world_id = ${worldId} and mc_own.user_id = ${userId} and mc_own.status = 'active'),
    (select mc_member.company_id from company_members mc_member
       join companies mc_team on mc_team.world_id = mc_member.world_id and mc_team.id = mc_member.company_id and mc_team.status = 'active'
       where mc_member.world_id = ${worldId} and mc_member.user_id = ${userId}))`;
}

/**
 * SQL: the same company as memberCompanyIdSql, as a row (id, name, world_id) to `left join lateral
 * ... on true`: their own active company, else their team's, the first found. The session and token
 * checks (every signed-in request) read it this way: joined by the scalar id, a small world's
 * companies were scanned and hashed on every request (the planner's choice below a few hundred
 * companies: about 0.1 ms of PostgreSQL per request in bench:api, docs/benchmarks.md), while each
 * branch here is one lookup by index (companies_active_user_key, company_members' key).
 */
export function memberCompanySql(worldId: SQL | number, userId: SQL | number): SQL {
  return sql`(
    select mc_own.id, mc_own.name, mc_own.world_id from companies mc_own
    where mc_own.world_id = ${worldId} and mc_own.user_id = ${userId} and mc_own.status = 'active'
    union all
    select mc_team.id, mc_team.name, mc_team.world_id from company_members mc_member
      join companies mc_team on mc_team.world_id = mc_member.world_id and mc_team.id = mc_member.company_id and mc_team.status = 'active'
      where mc_member.world_id = ${worldId} and mc_member.user_id = ${userId}
    limit 1)`;
}

/** SQL: whether the user has ever played in the world (a company of their own, active or not, or a team). */
export function playedInWorldSql(worldId: SQL | number, userId: SQL | number): SQL {
  return sql`(exists (select 1 from companies pc where pc.world_id = ${worldId} and pc.user_id = ${userId})
    or exists (select 1 from company_members pm where pm.world_id = ${worldId} and pm.user_id = ${userId}))`;
}

/** The user's active company in the world (theirs or their team's), or null. */
export async function activeCompanyIdOf(db: DbExecutor, worldId: number, userId: number): Promise<number | null> {
  const [row] = await db.execute<{ id: number | null }>(sql`select ${memberCompanyIdSql(worldId, userId)} as id`);
  return row?.id == null ? null : Number(row.id);
}

/** Letters and digits a student cannot misread (no 0/O, 1/I/L): the join code's alphabet. */
const TEAM_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function generateTeamCode(): string {
  let code = '';
  for (let index = 0; index < TEAM_CODE_LENGTH; index += 1) code += TEAM_CODE_ALPHABET[randomInt(TEAM_CODE_ALPHABET.length)];
  return code;
}

/**
 * A class world's new player company: its founder becomes its first member and it gets a team code
 * (unique in the world: the caller holds the world's founding lock, so no other founding draws at
 * the same time). The public world has no teams: nothing happens there.
 */
export async function enrolFounder(tx: DbExecutor, worldId: number, companyId: number, userId: number): Promise<void> {
  const [world] = await tx.execute<{ kind: string; current_week: number }>(sql`select kind, current_week from worlds where id = ${worldId}`);
  if (world?.kind !== 'private') return;
  for (let attempt = 0; ; attempt += 1) {
    const code = generateTeamCode();
    const [taken] = await tx.execute(sql`select 1 from companies where world_id = ${worldId} and team_code = ${code}`);
    if (!taken || attempt >= 5) {
      await tx.execute(sql`update companies set team_code = ${code} where world_id = ${worldId} and id = ${companyId}`);
      break;
    }
  }
  // A member of a bankrupt team founding again: their row moves to the new company.
  await tx.execute(sql`
    insert into company_members (world_id, user_id, company_id, role, joined_week)
    values (${worldId}, ${userId}, ${companyId}, null, ${Number(world.current_week)})
    on conflict (world_id, user_id) do update set company_id = excluded.company_id, role = null, joined_week = excluded.joined_week`);
}
