-- No query reads a company's ledger by created_at (the news feed uses transactions_large_idx, the
-- invariants check scans); (company_id, week) serves per-company lookups and the foreign key. One
-- index less on the table the turn inserts ~7 rows per company into (worker/bench/turn.ts).
DROP INDEX "transactions_company_created_idx";
