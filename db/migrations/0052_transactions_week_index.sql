-- The turn reads the week's ledger twice (the taxes phase: the week's exchange trades; the week
-- reports: every line of the week per player). The only index by week was (world, company, week),
-- which finds one week's lines only by reading every week's entries of the world: at week 50 of a
-- 10,000-company world (3 million lines) that read became a scan of the whole table, ~1.2 s, and
-- longer every week. Indexed by week, a turn reads its week's lines only. The turn appends a week's
-- lines together, so this index's new entries land on a few hundred adjacent pages: no measurable
-- cost to the turn's insert (docs/benchmarks.md, 2026-12-07 turnB).
CREATE INDEX IF NOT EXISTS "transactions_week_idx" ON "transactions" USING btree ("world_id","week");
