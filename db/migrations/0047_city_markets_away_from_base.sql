-- A world's city markets whose demand is away from its base level: the only ones a turn changes
-- (markets.ts brings them back) and the only ones the state hash reads from its version 2 on
-- (db/src/game/replay/stateHash.ts). A class world has 15,200 city markets and, in the game as it
-- is, none away from its base: both read this index's few rows instead of every city market.
-- The update that moves a demand level is not HOT through it, and only those rows are updated.
CREATE INDEX IF NOT EXISTS "city_market_data_away_idx" ON "city_market_data" USING btree ("world_id") WHERE "city_market_data"."demand_level" <> "city_market_data"."base_demand_level";
