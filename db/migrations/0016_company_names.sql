-- Company names are unique per world among active companies, ignoring case and surrounding spaces (docs/world.md, "Company names").
-- Existing duplicates (a player who named their company like a bot or like another player) keep the name on the oldest company (the bots, seeded first) and get their id appended on the others: "Acme (1234)".
UPDATE "companies" AS c SET "name" = btrim(c."name") || ' (' || c."id" || ')'
FROM (
  SELECT "world_id", "id", row_number() OVER (PARTITION BY "world_id", lower(btrim("name")) ORDER BY "id") AS "rank"
  FROM "companies" WHERE "status" = 'active'
) AS d
WHERE c."world_id" = d."world_id" AND c."id" = d."id" AND d."rank" > 1;
--> statement-breakpoint
CREATE UNIQUE INDEX "companies_world_name_key" ON "companies" USING btree ("world_id",lower(btrim("name"))) WHERE "companies"."status" = 'active';
