-- Worlds, part 2 (docs/worlds.md): every world has its own exchange prices and tax rates; world_id has no default
-- any more (every write names its world); instructors, shocks and announcements of private worlds.
CREATE TABLE "world_countries" (
	"world_id" integer NOT NULL,
	"country_id" integer NOT NULL,
	"tax_rate" integer NOT NULL,
	CONSTRAINT "world_countries_world_id_country_id_pk" PRIMARY KEY("world_id","country_id"),
	CONSTRAINT "world_countries_tax_rate_range" CHECK ("world_countries"."tax_rate" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "world_products" (
	"world_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"current_price_cents" bigint NOT NULL,
	CONSTRAINT "world_products_world_id_product_id_pk" PRIMARY KEY("world_id","product_id"),
	CONSTRAINT "world_products_price_positive" CHECK ("world_products"."current_price_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "world_announcements" (
	"world_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "world_announcements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"message" text NOT NULL,
	"week" integer NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "world_announcements_world_id_id_pk" PRIMARY KEY("world_id","id"),
	CONSTRAINT "world_announcements_length" CHECK (length(trim("world_announcements"."message")) between 1 and 500)
);
--> statement-breakpoint
CREATE TABLE "world_instructors" (
	"world_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "world_instructors_world_id_user_id_pk" PRIMARY KEY("world_id","user_id"),
	CONSTRAINT "world_instructors_role" CHECK ("world_instructors"."role" in ('instructor', 'co_instructor'))
);
--> statement-breakpoint
CREATE TABLE "world_shocks" (
	"world_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "world_shocks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"country_id" integer,
	"product_id" integer,
	"percent" integer NOT NULL,
	"start_week" integer NOT NULL,
	"end_week" integer NOT NULL,
	"description" text NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "world_shocks_world_id_id_pk" PRIMARY KEY("world_id","id"),
	CONSTRAINT "world_shocks_kind" CHECK ("world_shocks"."kind" in ('tax_rate', 'demand', 'price')),
	CONSTRAINT "world_shocks_target" CHECK (("world_shocks"."kind" = 'tax_rate') = ("world_shocks"."country_id" is not null) and ("world_shocks"."kind" = 'tax_rate') = ("world_shocks"."product_id" is null)),
	CONSTRAINT "world_shocks_weeks" CHECK ("world_shocks"."end_week" >= "world_shocks"."start_week" and "world_shocks"."start_week" >= 1),
	CONSTRAINT "world_shocks_percent" CHECK ("world_shocks"."percent" between -90 and 200 and "world_shocks"."percent" <> 0)
);
--> statement-breakpoint
ALTER TABLE "countries" DROP CONSTRAINT "countries_tax_rate_range";--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_prices_positive";--> statement-breakpoint
ALTER TABLE "city_market_data" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "turns" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "building_inventory_items" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "buildings" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "companies" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "company_research" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "financial_history" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "influence_records" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "inventory_items" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "market_activity" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "political_events" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "portfolio_entries" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "share_records" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "stock_price_history" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "store_products" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "transactions" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "product_price_history" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "world_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "world_countries" ADD CONSTRAINT "world_countries_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_countries" ADD CONSTRAINT "world_countries_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_products" ADD CONSTRAINT "world_products_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_products" ADD CONSTRAINT "world_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_announcements" ADD CONSTRAINT "world_announcements_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_announcements" ADD CONSTRAINT "world_announcements_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_instructors" ADD CONSTRAINT "world_instructors_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_instructors" ADD CONSTRAINT "world_instructors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_shocks" ADD CONSTRAINT "world_shocks_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_shocks" ADD CONSTRAINT "world_shocks_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_shocks" ADD CONSTRAINT "world_shocks_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_shocks" ADD CONSTRAINT "world_shocks_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "world_announcements_created_idx" ON "world_announcements" USING btree ("world_id","created_at");--> statement-breakpoint
CREATE INDEX "world_instructors_user_idx" ON "world_instructors" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "world_shocks_weeks_idx" ON "world_shocks" USING btree ("world_id","start_week","end_week");--> statement-breakpoint
-- Each world's exchange prices and tax rates; the existing game's (the public world's) move there.
INSERT INTO "world_products" ("world_id", "product_id", "current_price_cents") SELECT w."id", p."id", p."current_price_cents" FROM "products" p CROSS JOIN "worlds" w;--> statement-breakpoint
INSERT INTO "world_countries" ("world_id", "country_id", "tax_rate") SELECT w."id", c."id", c."tax_rate" FROM "countries" c CROSS JOIN "worlds" w;--> statement-breakpoint
ALTER TABLE "countries" DROP COLUMN "tax_rate";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "current_price_cents";--> statement-breakpoint
ALTER TABLE "countries" ADD CONSTRAINT "countries_tax_rate_range" CHECK ("countries"."base_tax_rate" between 0 and 100);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_prices_positive" CHECK ("products"."base_price_cents" > 0);