-- Statements that do a whole player action in one round trip (a share trade: db/src/game/stocks.ts)
-- check at their end that every conditional write happened; when one did not, they call this,
-- which fails the statement and so undoes all of it (docs/architecture.md, "One-statement actions").
-- It holds no rule of the game: the statement decides, this only stops it.
CREATE OR REPLACE FUNCTION refuse_statement(reason text) RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'MC001', MESSAGE = reason;
END
$$;
