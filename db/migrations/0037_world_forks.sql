-- A fork's origin (docs/replay.md, "Forking a world"): the world it was replayed from, and the
-- week it starts at (the original's state at the start of that week).
ALTER TABLE "worlds" ADD COLUMN "forked_from_world_id" integer;
--> statement-breakpoint
ALTER TABLE "worlds" ADD COLUMN "forked_at_week" integer;
--> statement-breakpoint
ALTER TABLE "worlds" ADD CONSTRAINT "worlds_forked_from_world_id_worlds_id_fk" FOREIGN KEY ("forked_from_world_id") REFERENCES "public"."worlds"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "worlds" ADD CONSTRAINT "worlds_fork" CHECK (("worlds"."forked_from_world_id" is null) = ("worlds"."forked_at_week" is null));
