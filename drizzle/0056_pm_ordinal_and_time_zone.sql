ALTER TABLE "pm_occurrences" DROP CONSTRAINT "pm_occurrences_once_key";--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "pm_occurrences" ADD COLUMN "ordinal" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pm_occurrences" ADD CONSTRAINT "pm_occurrences_once_key" UNIQUE NULLS NOT DISTINCT("org_id","plan_id","asset_id","due_date","ordinal");