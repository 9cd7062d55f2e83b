-- GET /goods keeps its last answer per world under a version (db/src/game/catalog/catalog.ts). The
-- version was computed at every read from the world's week, its market flow (~300 rows) and its
-- posted prices (~300 rows); now it is one row per world, raised by every transaction that changes
-- what the answer is computed from: the world's posted prices (world_products), this week's flow
-- (market_activity) and the week (worlds.current_week). A database trigger raises it, so no writer
-- (a trade, the turn, a teacher's shock, a new world) can forget to.
--
-- The triggers are deferred to the commit: the version row is locked only while its transaction
-- commits, after every other lock that transaction takes, so it never joins a wait in a cycle, and
-- the actions of a world, which already commit one after the other (the world's action log lock),
-- wait for nothing new. Raised once per world and transaction (a transaction-local setting marks it).
CREATE TABLE IF NOT EXISTS "world_price_versions" (
	"world_id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "raise_world_price_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  world integer;
  marker text;
BEGIN
  IF TG_TABLE_NAME = 'worlds' THEN
    world := NEW.id;
  ELSIF TG_OP = 'DELETE' THEN
    world := OLD.world_id;
  ELSE
    world := NEW.world_id;
  END IF;
  marker := 'marketcraft.price_version_raised_' || world;
  IF current_setting(marker, true) = 'yes' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config(marker, 'yes', true);
  -- A world deleted in this transaction (an expired sandbox) gets no row back.
  INSERT INTO world_price_versions AS v (world_id, version)
  SELECT world, 1 WHERE EXISTS (SELECT 1 FROM worlds WHERE id = world)
  ON CONFLICT (world_id) DO UPDATE SET version = v.version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "world_products_raise_price_version" ON "world_products";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "world_products_raise_price_version" AFTER INSERT OR UPDATE OR DELETE ON "world_products"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_world_price_version"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "market_activity_raise_price_version" ON "market_activity";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "market_activity_raise_price_version" AFTER INSERT OR UPDATE OR DELETE ON "market_activity"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_world_price_version"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "worlds_raise_price_version" ON "worlds";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "worlds_raise_price_version" AFTER UPDATE OF "current_week" ON "worlds"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD."current_week" IS DISTINCT FROM NEW."current_week") EXECUTE FUNCTION "raise_world_price_version"();
