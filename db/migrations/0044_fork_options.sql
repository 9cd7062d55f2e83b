-- Forks with changes and sandboxes (docs/replay.md, "Forking a world", "Sandbox backtests"):
-- whether the world's bots still make moves (a fork can turn them off), the changes asked for at
-- the fork (applied by the worker once the replay reached the fork week), and a sandbox's owner
-- (a player's private fork of the public world: only they see it; deleted 7 days after creation).
ALTER TABLE "worlds" ADD COLUMN "bots_active" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "worlds" ADD COLUMN "fork_changes" jsonb;
--> statement-breakpoint
ALTER TABLE "worlds" ADD COLUMN "sandbox_owner_user_id" integer;
--> statement-breakpoint
ALTER TABLE "worlds" ADD CONSTRAINT "worlds_sandbox_owner_user_id_users_id_fk" FOREIGN KEY ("sandbox_owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "worlds" ADD CONSTRAINT "worlds_sandbox_is_fork" CHECK ("worlds"."sandbox_owner_user_id" is null or "worlds"."forked_from_world_id" is not null);
--> statement-breakpoint
CREATE INDEX "worlds_sandbox_owner_idx" ON "worlds" USING btree ("sandbox_owner_user_id") WHERE "worlds"."sandbox_owner_user_id" is not null;
