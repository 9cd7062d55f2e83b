-- When a turn worker was last seen alive (one row, written every second by the worker): an
-- 'Advance Turn' pressed while the worker restarts is queued instead of refused (docs/operations.md).
CREATE TABLE "turn_worker_presence" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	"heartbeat_seconds" integer NOT NULL,
	CONSTRAINT "turn_worker_presence_one_row" CHECK ("turn_worker_presence"."id" = 1)
);
