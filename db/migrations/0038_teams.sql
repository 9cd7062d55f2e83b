-- Teams in class worlds (docs/classroom.md, "Teams"): a company may have several members.
-- The instructor sets the world's team size (1: every student runs a company alone).
ALTER TABLE "worlds" ADD COLUMN "team_size" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "worlds" ADD CONSTRAINT "worlds_team_size" CHECK ("worlds"."team_size" between 1 and 6);--> statement-breakpoint
-- What a student types (with the world's code) to join a company's team; private worlds' player companies only.
ALTER TABLE "companies" ADD COLUMN "team_code" text;--> statement-breakpoint
CREATE UNIQUE INDEX "companies_world_team_code_key" ON "companies" USING btree ("world_id","team_code") WHERE "companies"."team_code" is not null;--> statement-breakpoint
-- The members of a class world's companies: one row per user and world (a user plays in one team
-- of a world). The company's founder is a member too; companies.user_id stays the member who
-- answers for the company (the founder, or the longest-standing member after the founder left).
CREATE TABLE "company_members" (
	"world_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"role" text,
	"joined_week" integer NOT NULL,
	CONSTRAINT "company_members_pkey" PRIMARY KEY("world_id","user_id"),
	CONSTRAINT "company_members_role" CHECK ("company_members"."role" is null or "company_members"."role" in ('ceo', 'operations', 'finance', 'sales')),
	CONSTRAINT "company_members_joined_week" CHECK ("company_members"."joined_week" >= 1)
);--> statement-breakpoint
ALTER TABLE "company_members" ADD CONSTRAINT "company_members_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_members" ADD CONSTRAINT "company_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_members" ADD CONSTRAINT "company_members_company_fk" FOREIGN KEY ("world_id","company_id") REFERENCES "public"."companies"("world_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "company_members_company_idx" ON "company_members" USING btree ("world_id","company_id");--> statement-breakpoint
-- The class worlds' players so far: each the only member of their company, with a team code.
INSERT INTO "company_members" ("world_id", "user_id", "company_id", "joined_week")
SELECT c.world_id, c.user_id, c.id, w.current_week
FROM "companies" c JOIN "worlds" w ON w.id = c.world_id
WHERE w.kind = 'private' AND NOT c.is_bot AND c.status = 'active' AND c.user_id IS NOT NULL;--> statement-breakpoint
UPDATE "companies" c SET "team_code" = (
	SELECT string_agg(substr('ABCDEFGHJKMNPQRSTUVWXYZ23456789', 1 + floor(random() * 31)::int, 1), '')
	FROM generate_series(1, 6) WHERE c.id IS NOT NULL
)
FROM "worlds" w
WHERE w.id = c.world_id AND w.kind = 'private' AND NOT c.is_bot;
