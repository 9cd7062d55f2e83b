-- The append-only records the turn writes by the ten thousand keep world_id without a foreign key to worlds (db/src/schema/world.ts, recordWorldId): a trigger per row that could never fail.
ALTER TABLE "financial_history" DROP CONSTRAINT "financial_history_world_id_worlds_id_fk";
--> statement-breakpoint
ALTER TABLE "stock_price_history" DROP CONSTRAINT "stock_price_history_world_id_worlds_id_fk";
--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_world_id_worlds_id_fk";
--> statement-breakpoint
ALTER TABLE "product_price_history" DROP CONSTRAINT "product_price_history_world_id_worlds_id_fk";
--> statement-breakpoint
ALTER TABLE "week_reports" DROP CONSTRAINT "week_reports_world_id_worlds_id_fk";
