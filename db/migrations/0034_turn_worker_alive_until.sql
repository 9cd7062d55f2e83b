-- Until when a turn worker counts as alive (ms since the epoch), set by every worker each second:
-- an 'Advance Turn' pressed while the worker restarts is queued instead of refused
-- (docs/operations.md). A sequence is written in place: no dead row a second.
CREATE SEQUENCE "public"."turn_worker_alive_until_ms" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;
