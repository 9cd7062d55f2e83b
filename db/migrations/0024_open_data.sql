-- Open data (docs/open-data.md): what the turn records of each finished week for the weekly data
-- files, and the files themselves once made.

-- Shares bought from and sold back to each issuer this week (gross; week_flow is the net), reset
-- by the turn after it records them.
ALTER TABLE "share_records" ADD COLUMN "week_bought" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "share_records" ADD COLUMN "week_sold" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint

-- Every company of the turn as the week's books closed: one row per world and week, parallel
-- arrays (one element per company), the cheapest shape for the turn to write.
CREATE TABLE "week_company_figures" (
	"world_id" integer NOT NULL,
	"week" integer NOT NULL,
	"company_ids" integer[] NOT NULL,
	"names" text[] NOT NULL,
	"is_bots" boolean[] NOT NULL,
	"strategies" text[] NOT NULL,
	"statuses" text[] NOT NULL,
	"ranks" integer[] NOT NULL,
	"cash_cents" bigint[] NOT NULL,
	"net_worth_cents" bigint[] NOT NULL,
	"listed" boolean[] NOT NULL,
	"share_price_cents" bigint[] NOT NULL,
	"total_shares" bigint[] NOT NULL,
	"book_value_cents" bigint[] NOT NULL,
	"dividend_per_share_cents" bigint[] NOT NULL,
	"shares_bought" bigint[] NOT NULL,
	"shares_sold" bigint[] NOT NULL,
	CONSTRAINT "week_company_figures_world_id_week_pk" PRIMARY KEY("world_id","week")
);--> statement-breakpoint

-- The stores' sales of the week per city and product (only where something sold): parallel arrays.
CREATE TABLE "week_city_sales" (
	"world_id" integer NOT NULL,
	"week" integer NOT NULL,
	"city_ids" integer[] NOT NULL,
	"product_ids" integer[] NOT NULL,
	"stores" integer[] NOT NULL,
	"units" bigint[] NOT NULL,
	"revenue_cents" bigint[] NOT NULL,
	CONSTRAINT "week_city_sales_world_id_week_pk" PRIMARY KEY("world_id","week")
);--> statement-breakpoint

-- The weekly data files, made once (on first request) and kept: a finished week never changes.
CREATE TABLE "data_files" (
	"world_id" integer NOT NULL,
	"week" integer NOT NULL,
	"table_name" text NOT NULL,
	"format" text NOT NULL,
	"content" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"rows" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_files_world_id_week_table_name_format_pk" PRIMARY KEY("world_id","week","table_name","format"),
	CONSTRAINT "data_files_format" CHECK ("data_files"."format" in ('csv.gz', 'parquet'))
);
