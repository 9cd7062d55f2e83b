CREATE TABLE "api_token_usage" (
	"token_id" integer NOT NULL,
	"day" date NOT NULL,
	"company_id" integer,
	"requests" integer DEFAULT 0 NOT NULL,
	"mutations" integer DEFAULT 0 NOT NULL,
	"limited" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "api_token_usage_token_id_day_pk" PRIMARY KEY("token_id","day")
);
--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "api_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"lookup_id" text NOT NULL,
	"secret_hash" "bytea" NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"scope" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "api_tokens_scope" CHECK ("api_tokens"."scope" in ('read', 'trade', 'manage')),
	CONSTRAINT "api_tokens_name_length" CHECK (length("api_tokens"."name") between 1 and 50)
);
--> statement-breakpoint
-- UNLOGGED: no WAL for counters that matter for a minute; a crash of PostgreSQL resets them.
CREATE UNLOGGED TABLE "rate_limit_counters" (
	"subject" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"mutations" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limit_counters_subject_window_start_pk" PRIMARY KEY("subject","window_start")
);
--> statement-breakpoint
ALTER TABLE "api_token_usage" ADD CONSTRAINT "api_token_usage_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_token_usage" ADD CONSTRAINT "api_token_usage_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_token_usage_day_idx" ON "api_token_usage" USING btree ("day");--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_lookup_id_key" ON "api_tokens" USING btree ("lookup_id");--> statement-breakpoint
CREATE INDEX "api_tokens_user_id_idx" ON "api_tokens" USING btree ("user_id");