/**
 * Phase 10, the books (docs/economy.md): the ledger rows and balances are written, a
 * financial_history row per company that was active when the turn started (the turn's cash change,
 * the cash after it, the week's profit after tax and the net worth), then the world moves to the
 * next week with last_turn_at = now and next_turn_at = the schedule's next run (null: manual only).
 */
import { sql } from 'drizzle-orm';
import type { TurnContext } from './context.ts';
import { flushLedger } from './ledgerBatch.ts';

export async function runFinish(ctx: TurnContext): Promise<void> {
  const { tx, week, now, nextTurnAt, worldId } = ctx;
  await flushLedger(ctx);
  await tx.execute(sql`
    insert into financial_history (world_id, company_id, week, amount_cents, cash_after_cents, profit_cents, net_worth_cents)
    select ${worldId}::int, tc.company_id, ${week}::int, c.cash_cents - tc.cash_cents, c.cash_cents,
           coalesce(p.profit_cents, 0), v.net_worth_cents
    from turn_companies tc
    -- the balances flushLedger just wrote
    join companies c on c.world_id = ${worldId}::int and c.id = tc.company_id
    left join turn_profit p on p.company_id = tc.company_id
    left join turn_valuation v on v.company_id = tc.company_id`);
  await tx.execute(sql`
    update worlds set current_week = ${week + 1}::int, last_turn_at = ${now.toISOString()}::timestamptz,
           next_turn_at = ${nextTurnAt ? nextTurnAt.toISOString() : null}::timestamptz, updated_at = now()
    where id = ${worldId}::int`);
}
