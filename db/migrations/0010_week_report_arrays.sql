-- Week reports keep their sales and production as parallel arrays (cheaper for the turn to write than
-- jsonb objects). Reports written before keep their lines: converted from the jsonb, in their order.
ALTER TABLE "week_reports" ALTER COLUMN "sales" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "production" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "sale_building_ids" integer[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "sale_city_ids" integer[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "sale_product_ids" integer[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "sale_units" bigint[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "sale_revenue_cents" bigint[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "production_building_ids" integer[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "production_building_types" text[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "production_city_ids" integer[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "production_product_ids" integer[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "production_made" boolean[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "production_units" bigint[] NOT NULL DEFAULT '{}';--> statement-breakpoint
UPDATE "week_reports" r SET
  "sale_building_ids" = s.building_ids, "sale_city_ids" = s.city_ids, "sale_product_ids" = s.product_ids,
  "sale_units" = s.units, "sale_revenue_cents" = s.revenue_cents
FROM (
  SELECT r0.world_id, r0.company_id, r0.week,
         array_agg((e->>'building_id')::int ORDER BY ord) AS building_ids,
         array_agg(coalesce((SELECT c.id FROM cities c WHERE c.name = e->>'city' LIMIT 1), 0) ORDER BY ord) AS city_ids,
         array_agg((e->>'product_id')::int ORDER BY ord) AS product_ids,
         array_agg((e->>'units')::bigint ORDER BY ord) AS units,
         array_agg((e->>'revenue_cents')::bigint ORDER BY ord) AS revenue_cents
  FROM "week_reports" r0, jsonb_array_elements(r0.sales) WITH ORDINALITY AS x(e, ord)
  GROUP BY r0.world_id, r0.company_id, r0.week
) s
WHERE s.world_id = r.world_id AND s.company_id = r.company_id AND s.week = r.week;--> statement-breakpoint
UPDATE "week_reports" r SET
  "production_building_ids" = p.building_ids, "production_building_types" = p.building_types, "production_city_ids" = p.city_ids,
  "production_product_ids" = p.product_ids, "production_made" = p.made, "production_units" = p.units
FROM (
  SELECT r0.world_id, r0.company_id, r0.week,
         array_agg((e->>'building_id')::int ORDER BY ord) AS building_ids,
         array_agg(coalesce((SELECT bt.type FROM building_types bt WHERE bt.name = e->>'building' LIMIT 1), '') ORDER BY ord) AS building_types,
         array_agg(coalesce((SELECT c.id FROM cities c WHERE c.name = e->>'city' LIMIT 1), 0) ORDER BY ord) AS city_ids,
         array_agg((e->>'product_id')::int ORDER BY ord) AS product_ids,
         array_agg(e->>'role' = 'output' ORDER BY ord) AS made,
         array_agg((e->>'units')::bigint ORDER BY ord) AS units
  FROM "week_reports" r0, jsonb_array_elements(r0.production) WITH ORDINALITY AS x(e, ord)
  GROUP BY r0.world_id, r0.company_id, r0.week
) p
WHERE p.world_id = r.world_id AND p.company_id = r.company_id AND p.week = r.week;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "sale_building_ids" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "sale_city_ids" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "sale_product_ids" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "sale_units" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "sale_revenue_cents" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "production_building_ids" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "production_building_types" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "production_city_ids" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "production_product_ids" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "production_made" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "production_units" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" DROP COLUMN "sales";--> statement-breakpoint
ALTER TABLE "week_reports" DROP COLUMN "production";
