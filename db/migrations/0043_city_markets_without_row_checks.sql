-- A world's city markets (15,200 rows: 50 cities x 304 products) are copied once, when the world
-- is created, from the public world's rows (populateWorld). Their three foreign keys (to worlds,
-- cities and products) checked every copied row with a trigger each: ~1 s of a class world's
-- 1.3 s creation on the shared machine (docs/benchmarks.md). The copy takes ids that already
-- exist, the catalogue is never deleted and worlds are never deleted (docs/invariants.md).
ALTER TABLE "city_market_data" DROP CONSTRAINT IF EXISTS "city_market_data_world_id_worlds_id_fk";--> statement-breakpoint
ALTER TABLE "city_market_data" DROP CONSTRAINT IF EXISTS "city_market_data_city_id_cities_id_fk";--> statement-breakpoint
ALTER TABLE "city_market_data" DROP CONSTRAINT IF EXISTS "city_market_data_product_id_products_id_fk";
