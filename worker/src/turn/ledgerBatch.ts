/**
 * The turn's cash changes. Phases insert their ledger rows into the temporary table `turn_cash`;
 * nothing touches `companies` or `transactions` until the finish phase. A phase that needs to know
 * a company's cash (dividends, bankruptcy, share prices) reads `turnBalancesSql`: the cash when the
 * turn started plus the sum of the turn's rows so far. `flushLedger` (finish) writes every row to
 * `transactions` and the final balances to `companies` in two set-based statements. All of it is
 * one transaction, so at commit cash = starting cash + ledger holds exactly, as for changeCash.
 * Turn costs may take cash below zero (what leads to bankruptcy).
 *
 * Why: every company's cash changes in several phases; keeping the rows in one small temporary
 * table (no WAL, no indexes) and summing them where needed is several times faster than updating
 * balances after every phase (see worker/bench/turn.ts).
 */
import { sql } from 'drizzle-orm';
import type { TurnContext } from './context.ts';
import { declareTurnTable } from './turnTables.ts';

export async function createTurnTables(ctx: TurnContext): Promise<void> {
  await declareTurnTable(
    ctx.tx,
    'turn_cash',
    sql`
      company_id integer not null,
      type text not null,
      reason text not null,
      amount_cents bigint not null,
      description text not null`,
  );
  // Per company: what the week earned and spent (taxes, dividends, the books).
  await declareTurnTable(
    ctx.tx,
    'turn_pnl',
    sql`
      company_id integer not null,
      store_revenue_cents bigint not null default 0,
      market_sales_cents bigint not null default 0,
      market_purchases_cents bigint not null default 0,
      wages_cents bigint not null default 0,
      operating_cents bigint not null default 0,
      subsidy_cents bigint not null default 0,
      tax_cents bigint not null default 0,
      -- Accrual: the goods held now less those held when last taxed, valued as net worth values them.
      goods_change_cents bigint not null default 0`,
  );
}

/** (company_id, cash_cents): every company of the turn's cash right now, with the turn's rows so far. */
export const turnBalancesSql = sql`(
  select tc.company_id, tc.cash_cents + coalesce(pending.total, 0) as cash_cents
  from turn_companies tc
  left join (select company_id, sum(amount_cents)::bigint as total from turn_cash group by company_id) pending
    on pending.company_id = tc.company_id
)`;

/**
 * Writes the turn's ledger rows, the final balances and the losses carried forward (the finish
 * phase). After it a company's cash is `companies.cash_cents` (what the week reports, the books'
 * history and the open data read): `turn_companies.cash_cents` stays the cash when the turn
 * started, which `turnBalancesSql` adds the turn's rows to. Writing the balances back into
 * turn_companies as well cost a second update of every company's row (~65 ms of CPU at 10,000
 * companies) for readers that join companies anyway.
 */
export async function flushLedger(ctx: TurnContext): Promise<void> {
  await ctx.tx.execute(sql`
    insert into transactions (world_id, company_id, type, reason, amount_cents, description, week)
    select ${ctx.worldId}::int, company_id, type, reason, amount_cents, left(description, 500), ${ctx.week}::int from turn_cash
    -- every column: rows that tie on company and reason still land in the same order on a replay
    order by company_id, reason, type, amount_cents, description`);
  // The balances and the losses carried forward (the taxes phase's turn_tax) in ONE update of each
  // company row: a second update of a row in the same transaction finds no room on its page for a
  // HOT update (the first new version is not yet prunable) and writes every index of companies.
  await ctx.tx.execute(sql`
    update companies c set cash_cents = b.cash_cents, tax_loss_cents = coalesce(t.carried_after_cents, c.tax_loss_cents),
                           taxed_goods_cents = coalesce(t.goods_cents, c.taxed_goods_cents)
    from ${turnBalancesSql} b left join turn_tax t on t.company_id = b.company_id
    where c.world_id = ${ctx.worldId}::int and b.company_id = c.id
      and (c.cash_cents <> b.cash_cents or c.tax_loss_cents <> coalesce(t.carried_after_cents, c.tax_loss_cents)
           or c.taxed_goods_cents is distinct from coalesce(t.goods_cents, c.taxed_goods_cents))`);
}
