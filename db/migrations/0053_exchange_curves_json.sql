-- The auction's published curves are stored as `json` (their text, checked) instead of `jsonb`:
-- the turn writes ~300 products' curves (~90,000 price levels) every week and nothing queries
-- inside them (the history route reads them whole), so parsing them into jsonb's binary form was
-- work nobody used: the clearings' statement ~120 -> ~40 ms of CPU (docs/benchmarks.md).
ALTER TABLE "exchange_auctions"
  ALTER COLUMN "bids" SET DATA TYPE json USING "bids"::json,
  ALTER COLUMN "asks" SET DATA TYPE json USING "asks"::json;
