-- How a team's checkpoint points reach its members (docs/classroom.md, "How grades are computed"):
-- 'equal' (every member gets the team's points) or 'contribution' (by their share of the team's actions).
ALTER TABLE "world_score_weights" ADD COLUMN "team_weighting" text DEFAULT 'equal' NOT NULL;
--> statement-breakpoint
ALTER TABLE "world_score_weights" ADD CONSTRAINT "world_score_weights_team_weighting" CHECK ("team_weighting" in ('equal', 'contribution'));
