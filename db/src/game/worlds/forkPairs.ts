/**
 * A fork's companies paired with its original's: the fork was replayed from the original's log, so
 * its companies were founded in the same order, and the n-th by id in one world is the n-th in the
 * other (the state hash pairs them the same way, by rank instead of id). A subquery with
 * `original_id` and `fork_id`.
 */
import { sql, type SQL } from 'drizzle-orm';

export function forkCompanyPairs(originalId: number, forkId: number): SQL {
  return sql`(select o.id as original_id, f.id as fork_id
    from (select id, row_number() over (order by id) as rank from companies where world_id = ${originalId}) o
    join (select id, row_number() over (order by id) as rank from companies where world_id = ${forkId}) f on f.rank = o.rank)`;
}
