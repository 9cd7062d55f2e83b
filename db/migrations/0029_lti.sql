-- LTI 1.3 (docs/classroom.md, "Launch from your course system"): the tool's signing keys, the
-- course platforms registered with it, the logins in flight, the accounts and courses launched.
CREATE TABLE "lti_tool_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lti_platforms" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lti_platforms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"deployment_ids" text[] NOT NULL,
	"auth_login_url" text NOT NULL,
	"auth_token_url" text NOT NULL,
	"jwks_url" text NOT NULL,
	"registered_by_user_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "lti_platforms_issuer_client_key" ON "lti_platforms" USING btree ("issuer","client_id");
--> statement-breakpoint
CREATE TABLE "lti_login_states" (
	"state" text PRIMARY KEY NOT NULL,
	"nonce" text NOT NULL,
	"platform_id" integer NOT NULL REFERENCES "lti_platforms"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_users" (
	"platform_id" integer NOT NULL REFERENCES "lti_platforms"("id") ON DELETE CASCADE,
	"subject" text NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"name" text,
	CONSTRAINT "lti_users_pk" PRIMARY KEY("platform_id","subject")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "lti_users_user_key" ON "lti_users" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "lti_contexts" (
	"platform_id" integer NOT NULL REFERENCES "lti_platforms"("id") ON DELETE CASCADE,
	"context_id" text NOT NULL,
	"world_id" integer NOT NULL REFERENCES "worlds"("id") ON DELETE CASCADE,
	"title" text,
	"lineitems_url" text,
	"memberships_url" text,
	"line_item_url" text,
	CONSTRAINT "lti_contexts_pk" PRIMARY KEY("platform_id","context_id")
);
--> statement-breakpoint
CREATE INDEX "lti_contexts_world_idx" ON "lti_contexts" USING btree ("world_id");
--> statement-breakpoint
CREATE TABLE "lti_scores" (
	"platform_id" integer NOT NULL,
	"context_id" text NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"score" integer NOT NULL,
	"posted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_scores_pk" PRIMARY KEY("platform_id","context_id","user_id"),
	CONSTRAINT "lti_scores_context_fk" FOREIGN KEY ("platform_id","context_id") REFERENCES "lti_contexts"("platform_id","context_id") ON DELETE CASCADE
);
