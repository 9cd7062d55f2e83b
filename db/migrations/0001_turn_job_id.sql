ALTER TABLE "turns" ADD COLUMN "job_id" text;--> statement-breakpoint
ALTER TABLE "turns" ADD CONSTRAINT "turns_jobId_unique" UNIQUE("job_id");