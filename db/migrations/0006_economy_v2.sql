ALTER TABLE "city_market_data" ADD COLUMN "price_factor_bp" integer DEFAULT 10000 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "depth_units" bigint DEFAULT 4000 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "tax_loss_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "financial_history" ADD COLUMN "profit_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "financial_history" ADD COLUMN "net_worth_cents" bigint;--> statement-breakpoint
ALTER TABLE "influence_records" ADD COLUMN "platform" text DEFAULT 'lower_taxes' NOT NULL;--> statement-breakpoint
ALTER TABLE "share_records" ADD COLUMN "fundamental_cents" bigint DEFAULT 10000 NOT NULL;--> statement-breakpoint
ALTER TABLE "share_records" ADD COLUMN "sentiment" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "share_records" ADD COLUMN "week_flow" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_depth_positive" CHECK ("products"."depth_units" > 0);--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_tax_loss" CHECK ("companies"."tax_loss_cents" >= 0);--> statement-breakpoint
ALTER TABLE "influence_records" ADD CONSTRAINT "influence_records_platform" CHECK ("influence_records"."platform" in ('lower_taxes', 'higher_taxes'));--> statement-breakpoint
ALTER TABLE "share_records" ADD CONSTRAINT "share_records_fundamental" CHECK ("share_records"."fundamental_cents" >= 0);--> statement-breakpoint
-- Economy v2 in an existing game (docs/economy.md, "Upgrading an existing game").
-- 1. Each city keeps its own price level for each product: the factor its reference price had over the product price.
UPDATE "city_market_data" cmd SET "price_factor_bp" = least(11500, greatest(8500, round(cmd."market_price_cents" * 10000.0 / p."current_price_cents")))::integer
FROM "products" p WHERE p."id" = cmd."product_id";--> statement-breakpoint
-- 2. Shares re-based: every company gets about one share per $100 of its book value (cash + buildings at
--    half their cost), holders keep their fraction (rounded down), the price becomes the book value per share.
CREATE TEMP TABLE "rebased_shares" AS
SELECT s."company_id", s."total_shares" AS "old_shares",
       greatest(1, round(greatest(100, c."cash_cents" + coalesce(b."book_cents", 0)) / 10000.0))::bigint AS "new_shares",
       greatest(100, c."cash_cents" + coalesce(b."book_cents", 0))::bigint AS "book_cents"
FROM "share_records" s
JOIN "companies" c ON c."id" = s."company_id"
LEFT JOIN (SELECT "company_id", sum("construction_cost_cents") / 2 AS "book_cents" FROM "buildings" GROUP BY "company_id") b ON b."company_id" = s."company_id";--> statement-breakpoint
UPDATE "portfolio_entries" pe
SET "shares_owned" = floor(pe."shares_owned" * r."new_shares"::numeric / r."old_shares")::bigint,
    "average_price_cents" = round(pe."average_price_cents" * r."old_shares"::numeric / r."new_shares")::bigint
FROM "rebased_shares" r WHERE r."company_id" = pe."issuer_company_id";--> statement-breakpoint
DELETE FROM "portfolio_entries" WHERE "shares_owned" = 0;--> statement-breakpoint
UPDATE "share_records" s
SET "total_shares" = r."new_shares", "share_price_cents" = r."book_cents" / r."new_shares", "fundamental_cents" = r."book_cents" / r."new_shares",
    "sentiment" = 0, "week_flow" = 0
FROM "rebased_shares" r WHERE r."company_id" = s."company_id";--> statement-breakpoint
DROP TABLE "rebased_shares";
