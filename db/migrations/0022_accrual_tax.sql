-- Taxes on an accrual basis (docs/economy.md, "Taxes on an accrual basis"): the week's taxable profit
-- counts the change of the goods a company holds, valued as net worth values them. This column is
-- that value when the company was last taxed. Companies of a running game start with none: their
-- first turn after the upgrade takes its baseline without taxing the goods they already held.
ALTER TABLE "companies" ADD COLUMN "taxed_goods_cents" bigint DEFAULT 0;
--> statement-breakpoint
UPDATE "companies" SET "taxed_goods_cents" = NULL;
