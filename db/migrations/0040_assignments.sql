-- Graded assignments in class worlds (docs/classroom.md, "Assignments"): an instructor's assignments
-- with their checkpoints, what each company earned and its evidence (written by the turn's grades
-- phase, or by the student's answer to the question), the world's scoring weights, and the course
-- platform's line item and last posted score per assignment (LTI grade passback).
CREATE TABLE "assignments" (
	"world_id" integer NOT NULL REFERENCES "worlds"("id"),
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "assignments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"due_week" integer NOT NULL,
	"created_by_user_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assignments_pk" PRIMARY KEY("world_id","id"),
	CONSTRAINT "assignments_due_week" CHECK ("due_week" >= 1),
	CONSTRAINT "assignments_title_length" CHECK (length(trim("title")) between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "assignment_checkpoints" (
	"world_id" integer NOT NULL REFERENCES "worlds"("id"),
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "assignment_checkpoints_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"assignment_id" integer NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"points" integer NOT NULL,
	"target" bigint,
	"weeks" integer,
	CONSTRAINT "assignment_checkpoints_pk" PRIMARY KEY("world_id","id"),
	CONSTRAINT "assignment_checkpoints_assignment_fk" FOREIGN KEY ("world_id","assignment_id") REFERENCES "assignments"("world_id","id") ON DELETE CASCADE,
	CONSTRAINT "assignment_checkpoints_kind" CHECK ("kind" in ('net_worth', 'weekly_profit', 'chain', 'efficiency', 'no_debt', 'cities', 'profit_question')),
	CONSTRAINT "assignment_checkpoints_points" CHECK ("points" between 1 and 100),
	CONSTRAINT "assignment_checkpoints_target" CHECK ("target" is null or "target" >= 1),
	CONSTRAINT "assignment_checkpoints_weeks" CHECK ("weeks" is null or "weeks" between 1 and 52)
);
--> statement-breakpoint
CREATE INDEX "assignment_checkpoints_assignment_idx" ON "assignment_checkpoints" USING btree ("world_id","assignment_id","position");
--> statement-breakpoint
CREATE TABLE "checkpoint_results" (
	"world_id" integer NOT NULL REFERENCES "worlds"("id"),
	"checkpoint_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"week" integer NOT NULL,
	"points" integer NOT NULL,
	"evidence" jsonb NOT NULL,
	"answered_by_user_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"earned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkpoint_results_pk" PRIMARY KEY("world_id","checkpoint_id","company_id"),
	CONSTRAINT "checkpoint_results_checkpoint_fk" FOREIGN KEY ("world_id","checkpoint_id") REFERENCES "assignment_checkpoints"("world_id","id") ON DELETE CASCADE,
	CONSTRAINT "checkpoint_results_company_fk" FOREIGN KEY ("world_id","company_id") REFERENCES "companies"("world_id","id") ON DELETE CASCADE,
	CONSTRAINT "checkpoint_results_points" CHECK ("points" >= 0)
);
--> statement-breakpoint
CREATE INDEX "checkpoint_results_company_idx" ON "checkpoint_results" USING btree ("world_id","company_id");
--> statement-breakpoint
CREATE TABLE "world_score_weights" (
	"world_id" integer PRIMARY KEY NOT NULL REFERENCES "worlds"("id"),
	"net_worth_rank" integer NOT NULL,
	"profit" integer NOT NULL,
	"checkpoints" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "world_score_weights_range" CHECK ("net_worth_rank" between 0 and 100 and "profit" between 0 and 100 and "checkpoints" between 0 and 100),
	CONSTRAINT "world_score_weights_sum" CHECK ("net_worth_rank" + "profit" + "checkpoints" = 100)
);
--> statement-breakpoint
CREATE TABLE "lti_line_items" (
	"platform_id" integer NOT NULL,
	"context_id" text NOT NULL,
	"resource_id" text NOT NULL,
	"line_item_url" text NOT NULL,
	CONSTRAINT "lti_line_items_pk" PRIMARY KEY("platform_id","context_id","resource_id"),
	CONSTRAINT "lti_line_items_context_fk" FOREIGN KEY ("platform_id","context_id") REFERENCES "lti_contexts"("platform_id","context_id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE TABLE "lti_line_item_scores" (
	"platform_id" integer NOT NULL,
	"context_id" text NOT NULL,
	"resource_id" text NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"score" integer NOT NULL,
	"posted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_line_item_scores_pk" PRIMARY KEY("platform_id","context_id","resource_id","user_id"),
	CONSTRAINT "lti_line_item_scores_item_fk" FOREIGN KEY ("platform_id","context_id","resource_id") REFERENCES "lti_line_items"("platform_id","context_id","resource_id") ON DELETE CASCADE
);
