-- The turn reads the week's ledger twice (the taxes phase: the week's exchange trades; the week
-- reports: every line of the week per player). The only index by week was (world, company, week),
-- which finds one week's lines only by reading every week's entries of the world: at week 50 of a
-- 10,000-company world (3 million lines) the week reports' read took 35-41 s of CPU, and longer
-- every week. Indexed by week, a turn reads its week's lines only (~0.6 s for the whole report).
-- The turn appends a week's lines together, so this index's new entries land on a few hundred
-- adjacent pages: ~50 ms more CPU for the turn's 60,000 lines. A block-range (BRIN) index on the
-- same columns cost nothing on insert, but the report's plan did not use it (still ~38 s)
-- (docs/benchmarks.md, "2026-12-07: turn part B").
CREATE INDEX IF NOT EXISTS "transactions_week_idx" ON "transactions" USING btree ("world_id","week");
