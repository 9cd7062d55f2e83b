-- The weekly auction writes one fill row per filled order (~50,000 in a busy week) and one row of
-- both curves per product (~92,000 price levels). Measured in `npm run bench:turn -- --orders 100000`
-- (docs/benchmarks.md):
--
-- 1. A fill had two index entries: the primary key (world, order, week) and the index the week
--    results read by (world, company, week). One key serves both: (world, company, week, order) is
--    as unique as (world, order, week), an order belonging to one company.
ALTER TABLE "exchange_fills" DROP CONSTRAINT IF EXISTS "exchange_fills_world_id_order_id_week_pk";--> statement-breakpoint
DROP INDEX IF EXISTS "exchange_fills_company_idx";--> statement-breakpoint
ALTER TABLE "exchange_fills" ADD CONSTRAINT "exchange_fills_world_id_company_id_week_order_id_pk" PRIMARY KEY("world_id","company_id","week","order_id");--> statement-breakpoint
-- 2. The curves' levels are [price_cents, quantity] pairs instead of {"price_cents", "quantity"}
--    objects: a third of the text the turn sends and PostgreSQL parses.
UPDATE "exchange_auctions" SET
  "bids" = (select coalesce(jsonb_agg(jsonb_build_array(e -> 'price_cents', e -> 'quantity') order by n), '[]'::jsonb) from jsonb_array_elements("bids") with ordinality as l(e, n)),
  "asks" = (select coalesce(jsonb_agg(jsonb_build_array(e -> 'price_cents', e -> 'quantity') order by n), '[]'::jsonb) from jsonb_array_elements("asks") with ordinality as l(e, n))
WHERE jsonb_typeof("bids" -> 0) = 'object' OR jsonb_typeof("asks" -> 0) = 'object';
