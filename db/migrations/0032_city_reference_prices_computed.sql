-- A city's reference price follows the world's posted price (referencePriceRule): it is computed
-- where it is read (cityMarketsSql), no longer stored and rewritten for every city row each turn.
ALTER TABLE "city_market_data" DROP CONSTRAINT IF EXISTS "city_market_data_price_positive";--> statement-breakpoint
ALTER TABLE "city_market_data" DROP COLUMN "market_price_cents";
