-- The world's state hash after each turn (docs/replay.md): replay compares its own with it.
ALTER TABLE "turns" ADD COLUMN "state_hash" text;
