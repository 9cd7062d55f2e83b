-- The ledger is append-only and written only from company rows the writer holds locked; companies are
-- never deleted. The per-row key check was half the time of the turn's ledger insert (~7 rows per
-- company). orphanLedgerRows (db/src/game/invariants.ts) checks the invariant in the economy tests.
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_company_id_companies_id_fk";
