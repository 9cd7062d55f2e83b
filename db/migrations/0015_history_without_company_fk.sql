-- The turn's per-company records (financial_history, stock_price_history) keep company_id without a foreign key, as the ledger does (db/src/schema/companies.ts): the turn writes them by the ten thousand from the company rows it holds locked, and the key check was one index lookup per row; orphanLedgerRows checks them.
ALTER TABLE "financial_history" DROP CONSTRAINT "financial_history_company_fk";
--> statement-breakpoint
ALTER TABLE "stock_price_history" DROP CONSTRAINT "stock_price_history_company_fk";
