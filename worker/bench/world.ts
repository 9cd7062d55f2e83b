/** The benchmark world: N companies with 10 buildings each, seeded set-based (worker/bench/turn.ts, bench:turn --worlds). */
import { sql } from 'drizzle-orm';
import type { Database } from '@marketcraft/db/client.ts';
import { referencePriceSql } from '@marketcraft/db';

/** N companies x 10 buildings in world `worldId` (default the public world), set-based. */
export async function seedCompanies(db: Database, companies: number, worldId = 1): Promise<void> {
  const w = sql`${worldId}::int`;
  await db.execute(sql`
    insert into companies (world_id, name, cash_cents, starting_cash_cents)
    select ${w}, 'Bench company ' || g, 50000000, 50000000 from generate_series(1, ${companies}::int) g`);
  await db.execute(sql`
    insert into share_records (world_id, company_id, total_shares, share_price_cents)
    select ${w}, id, 100, 10000 from companies where world_id = ${w} and name like 'Bench company %' on conflict do nothing`);
  await db.execute(sql`drop table if exists bench_recipes`);
  await db.execute(sql`
    create temp table bench_recipes as
    select building_type, (select min(r.id) from recipes r where r.building_type = t.building_type
                           and (t.building_type = 'farm' or exists (select 1 from recipe_inputs ri where ri.recipe_id = r.id))) as recipe_id
    from (values ('farm'), ('mill'), ('bakery')) t(building_type)`);
  // Slots 0-2 farms, 3-4 mills, 5-6 bakeries, 7-9 stores.
  await db.execute(sql`
    insert into buildings (world_id, company_id, type, city_id, employees, equipment_level, selected_recipe_id, construction_cost_cents, built_week)
    select ${w}, c.id, s.type, ci.id, 1 + (c.id + slot) % 8, 1 + (c.id + slot) % 3,
           (select recipe_id from bench_recipes br where br.building_type = s.type), bt.construction_cost_cents, 1
    from companies c
    cross join generate_series(0, 9) slot
    cross join lateral (select case when slot < 3 then 'farm' when slot < 5 then 'mill' when slot < 7 then 'bakery' else 'store' end as type) s
    join building_types bt on bt.type = s.type
    join lateral (select id from cities order by id offset ((c.id * 7 + slot) % (select count(*) from cities)) limit 1) ci on true
    where c.world_id = ${w} and c.name like 'Bench company %'`);
  // Inputs in the warehouse for the mills and bakeries (enough for about one week).
  await db.execute(sql`
    insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents)
    select ${w}, c.id, ri.product_id, ri.quantity * 2, p.current_price_cents
    from companies c
    join bench_recipes br on br.building_type in ('mill', 'bakery')
    join recipe_inputs ri on ri.recipe_id = br.recipe_id
    join world_products p on p.world_id = ${w} and p.product_id = ri.product_id
    where c.world_id = ${w} and c.name like 'Bench company %'
    on conflict (world_id, company_id, product_id) do update set quantity = inventory_items.quantity + excluded.quantity`);
  // Two products on each store's shelf, priced 1.2x to 2x the city market price.
  await db.execute(sql`
    insert into store_products (world_id, building_id, product_id, quantity, retail_price_cents, cost_price_cents)
    select ${w}, b.id, p.id, 300,
           greatest(1, round(coalesce(case when cmd.world_id is not null then ${referencePriceSql(sql`p.current_price_cents`, sql`cmd.price_factor_bp`)} end, p.current_price_cents)
                             * (1.2 + (b.id % 9) / 10.0))), p.current_price_cents
    from buildings b
    join companies c on c.world_id = b.world_id and c.id = b.company_id and c.name like 'Bench company %'
    cross join lateral (select pr.id, wp.current_price_cents from products pr join world_products wp on wp.world_id = ${w} and wp.product_id = pr.id
                        where pr.category in ('Food Products', 'Consumer Goods')
                        order by pr.id offset (b.id % 5) limit 2) p
    left join city_market_data cmd on cmd.world_id = ${w} and cmd.city_id = b.city_id and cmd.product_id = p.id
    where b.world_id = ${w} and b.type = 'store'`);
  // Each company holds 10 shares of the next one (dividends); market activity on every product.
  await db.execute(sql`
    insert into portfolio_entries (world_id, holder_company_id, issuer_company_id, shares_owned, average_price_cents)
    select ${w}, id, next_id, 10, 10000
    from (select id, lead(id) over (order by id) as next_id from companies where world_id = ${w} and name like 'Bench company %') c
    where next_id is not null`);
  await db.execute(sql`
    insert into market_activity (world_id, week, product_id, units_bought, units_sold)
    select ${w}, (select current_week from worlds where id = ${w}), id, (id * 37) % 900, (id * 53) % 700 from products
    on conflict do nothing`);
  await db.execute(sql`
    insert into company_research (world_id, company_id, upgrade_id, researched_week)
    select ${w}, c.id, u.id, 1 from companies c
    join lateral (select id from research_upgrades where prerequisite_id is null order by id limit 1) u on true
    where c.world_id = ${w} and c.name like 'Bench company %' and c.id % 4 = 0`);
}
