/**
 * Phase 10, the books (docs/economy.md): a financial_history row per company that was active when
 * the turn started (the turn's cash change and the cash after), then the world moves to the next
 * week with last_turn_at = now and next_turn_at = the schedule's next run (null: manual turns only).
 */
import { sql } from 'drizzle-orm';
import type { TurnContext } from './context.ts';
import { flushLedger } from './ledgerBatch.ts';

export async function runFinish(ctx: TurnContext): Promise<void> {
  const { tx, week, now, nextTurnAt } = ctx;
  await flushLedger(ctx);
  await tx.execute(sql`
    insert into financial_history (company_id, week, amount_cents, cash_after_cents)
    select tc.company_id, ${week}::int, tc.cash_cents - tc.cash_before_cents, tc.cash_cents
    from turn_companies tc`);
  await tx.execute(sql`
    update world set current_week = ${week + 1}::int, last_turn_at = ${now.toISOString()}::timestamptz,
           next_turn_at = ${nextTurnAt ? nextTurnAt.toISOString() : null}::timestamptz, updated_at = now()
    where id = 1`);
}
