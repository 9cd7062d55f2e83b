-- A building's automation_level and efficiency_bonus were never written by anything (always 0):
-- the turn's output bonus is the city's and research's (outputBonusRule). Dropped with their check.
ALTER TABLE "buildings" DROP CONSTRAINT "buildings_automation_level";--> statement-breakpoint
ALTER TABLE "buildings" DROP COLUMN "automation_level";--> statement-breakpoint
ALTER TABLE "buildings" DROP COLUMN "efficiency_bonus";
