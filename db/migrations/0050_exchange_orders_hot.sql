-- The weekly auction updates every order it fills (~50,000 of 100,000 in a busy week). The live
-- orders' index was partial on the status, so every fill (open -> partially_filled or filled) was a
-- non-HOT update writing a new entry into each of the table's indexes. Indexed instead by the
-- order's last week: every live order's last week is this week or later (the turn of that week
-- expires it), so the auction and the books find the live ones among at most 8 weeks of orders, and
-- a fill, cancel or expiry changes no indexed column. With room left on every page for the new row
-- version (fillfactor), those updates are HOT: no index entries at all (docs/benchmarks.md).
DROP INDEX IF EXISTS "exchange_orders_live_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "exchange_orders_week_idx" ON "exchange_orders" USING btree ("world_id","expires_week","product_id");--> statement-breakpoint
ALTER TABLE "exchange_orders" SET (fillfactor = 60);
--> statement-breakpoint
-- A published book is kept between reads under a version (db/src/game/exchange/books.ts). Its part
-- for the orders was their count and highest id, read from every live order of the product at each
-- read (~0.25 ms of PostgreSQL with 200 orders); now one row per product, raised by every placed or
-- cancelled order in the same transaction (the turn's fills and expiries change the week instead).
CREATE TABLE IF NOT EXISTS "exchange_book_versions" (
	"world_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "exchange_book_versions_world_id_product_id_pk" PRIMARY KEY("world_id","product_id")
);
