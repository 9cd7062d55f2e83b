/**
 * The turn's cash changes. Phases insert rows into the temporary table `turn_cash`; `postCashBatch`
 * applies their sums to the running balances in `turn_companies.cash_cents` (what later phases read)
 * and moves them to `turn_ledger`. `flushLedger` (last phase) writes every ledger row to
 * `transactions` and the final balances to `companies` in two set-based statements. All of it is
 * one transaction, so at commit cash = starting cash + ledger holds exactly, as for changeCash.
 * Turn costs may take cash below zero (what leads to bankruptcy).
 *
 * Why balances in a temp table: every company's row is touched by several phases; updating the
 * small temporary table (no WAL, no indexes but its key) and `companies` once is several times
 * faster than updating `companies` after every phase (see worker/bench/turn.ts).
 */
import { sql } from 'drizzle-orm';
import type { TurnContext } from './context.ts';

export async function createTurnTables(ctx: TurnContext): Promise<void> {
  await ctx.tx.execute(sql`
    create temp table turn_cash (
      company_id integer not null,
      type text not null,
      reason text not null,
      amount_cents bigint not null,
      description text not null
    ) on commit drop`);
  await ctx.tx.execute(sql`
    create temp table turn_ledger (
      seq bigserial primary key,
      company_id integer not null,
      type text not null,
      reason text not null,
      amount_cents bigint not null,
      description text not null
    ) on commit drop`);
  // Per company and country: what the turn earned and spent there (taxes and profit).
  await ctx.tx.execute(sql`
    create temp table turn_pnl (
      company_id integer not null,
      country_id integer not null,
      revenue_cents bigint not null default 0,
      wages_cents bigint not null default 0,
      operating_cents bigint not null default 0,
      tax_cents bigint not null default 0,
      subsidy_cents bigint not null default 0
    ) on commit drop`);
}

/** Re-reads the companies' cash into the running balances (after the bots, who use the players' operations). */
export async function refreshBalances(ctx: TurnContext): Promise<void> {
  await ctx.tx.execute(sql`
    update turn_companies tc set cash_cents = c.cash_cents
    from companies c where c.id = tc.company_id and c.cash_cents <> tc.cash_cents`);
}

/** Applies the pending rows of turn_cash to the running balances and queues them for the ledger. */
export async function postCashBatch(ctx: TurnContext): Promise<void> {
  await ctx.tx.execute(sql`
    update turn_companies tc set cash_cents = tc.cash_cents + s.total
    from (select company_id, sum(amount_cents)::bigint as total from turn_cash group by company_id) s
    where tc.company_id = s.company_id and s.total <> 0`);
  await ctx.tx.execute(sql`
    insert into turn_ledger (company_id, type, reason, amount_cents, description)
    select company_id, type, reason, amount_cents, left(description, 500) from turn_cash
    -- every column: rows that tie on company and reason still land in the same order on a replay
    order by company_id, reason, type, amount_cents, description`);
  await ctx.tx.execute(sql`truncate turn_cash`);
}

/** Writes the turn's ledger rows and the final balances (the finish phase). */
export async function flushLedger(ctx: TurnContext): Promise<void> {
  await ctx.tx.execute(sql`
    insert into transactions (company_id, type, reason, amount_cents, description, week)
    select company_id, type, reason, amount_cents, description, ${ctx.week}::int from turn_ledger order by seq`);
  await ctx.tx.execute(sql`
    update companies c set cash_cents = tc.cash_cents
    from turn_companies tc where tc.company_id = c.id and c.cash_cents <> tc.cash_cents`);
}
