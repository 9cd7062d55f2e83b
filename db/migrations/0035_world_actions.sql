-- The action log (docs/replay.md): every state-changing action of a world, appended in the
-- action's own transaction, in commit order (seq), never edited. Replay re-runs it in seq order.
CREATE TABLE "world_actions" (
	"world_id" integer NOT NULL,
	"seq" bigint NOT NULL,
	"week" integer NOT NULL,
	"company_id" integer,
	"acting_user_id" integer,
	"action" text NOT NULL,
	"input" jsonb NOT NULL,
	"outcome" jsonb NOT NULL,
	"by_turn" boolean DEFAULT false NOT NULL,
	"logged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "world_actions_world_id_seq_pk" PRIMARY KEY("world_id","seq"),
	CONSTRAINT "world_actions_seq_positive" CHECK ("world_actions"."seq" >= 1)
);
--> statement-breakpoint
CREATE INDEX "world_actions_company_idx" ON "world_actions" USING btree ("world_id","company_id","seq");
--> statement-breakpoint
-- The log is history: an entry is never changed. (Whole worlds' logs may be deleted with them.)
CREATE FUNCTION "world_actions_never_edited"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'world_actions is append-only: entry (%, %) cannot be changed', OLD.world_id, OLD.seq;
END $$;
--> statement-breakpoint
CREATE TRIGGER "world_actions_never_edited" BEFORE UPDATE ON "world_actions" FOR EACH ROW EXECUTE FUNCTION "world_actions_never_edited"();
