-- The turn updates (nearly) every row of these tables once per week, set-based: with half of every page free
-- the new row versions fit on the same page, so the updates are HOT (no new index entries; worker/bench/turn.ts).
ALTER TABLE "companies" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "inventory_items" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "store_products" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "share_records" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "city_market_data" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "products" SET (fillfactor = 50);
