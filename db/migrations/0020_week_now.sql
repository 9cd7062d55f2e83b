-- The world's current week as committed when this is called, not as the calling statement's
-- snapshot saw it: a VOLATILE function's query takes its own snapshot. A one-statement action (a
-- share or market trade) takes its snapshot when it starts, then may wait for a company row lock
-- that a turn holds; after that turn commits, its snapshot still reads the past week (and that
-- week's prices). The action compares the two after its locks and, when they differ, refuses
-- itself and is run again on a fresh snapshot (docs/architecture.md, "One-statement actions").
CREATE OR REPLACE FUNCTION world_week_now(world integer) RETURNS integer
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RETURN (SELECT current_week FROM worlds WHERE id = world);
END
$$;
