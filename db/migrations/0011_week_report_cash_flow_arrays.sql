-- The week's cash flows by reason as parallel arrays too (the jsonb objects were the costliest part of
-- the turn's report phase). Reports written before keep their lines, converted in their order.
ALTER TABLE "week_reports" ALTER COLUMN "cash_flows" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "cash_flow_types" text[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "cash_flow_reasons" text[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "cash_flow_amounts_cents" bigint[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "week_reports" ADD COLUMN "cash_flow_lines" integer[] NOT NULL DEFAULT '{}';--> statement-breakpoint
UPDATE "week_reports" r SET
  "cash_flow_types" = f.types, "cash_flow_reasons" = f.reasons, "cash_flow_amounts_cents" = f.amounts, "cash_flow_lines" = f.lines
FROM (
  SELECT r0.world_id, r0.company_id, r0.week,
         array_agg(e->>'type' ORDER BY ord) AS types,
         array_agg(e->>'reason' ORDER BY ord) AS reasons,
         array_agg((e->>'amount_cents')::bigint ORDER BY ord) AS amounts,
         array_agg((e->>'lines')::int ORDER BY ord) AS lines
  FROM "week_reports" r0, jsonb_array_elements(r0.cash_flows) WITH ORDINALITY AS x(e, ord)
  GROUP BY r0.world_id, r0.company_id, r0.week
) f
WHERE f.world_id = r.world_id AND f.company_id = r.company_id AND f.week = r.week;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "cash_flow_types" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "cash_flow_reasons" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "cash_flow_amounts_cents" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" ALTER COLUMN "cash_flow_lines" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "week_reports" DROP COLUMN "cash_flows";
