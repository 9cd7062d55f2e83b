-- The turn reads the week's ledger twice (the taxes phase: the week's exchange trades; the week
-- reports: every line of the week per player). The only index by week was (world, company, week),
-- which finds one week's lines only by reading every week's entries of the world: at week 50 of a
-- 10,000-company world (3 million lines) the planner read the whole table instead, and the read
-- grew every week. The ledger is written week after week (each turn appends its week's lines
-- together), so a block-range index on (world, week) finds a week's pages: a few pages of index,
-- nearly nothing to maintain on insert (a b-tree on the same columns cost ~15% more CPU for the
-- turn's 60,000 lines; this one measured no more than without), and pages written since the last
-- vacuum are always read, which are the current week's (docs/benchmarks.md, "2026-12-07: turn part B").
CREATE INDEX IF NOT EXISTS "transactions_week_idx" ON "transactions" USING brin ("world_id","week");
