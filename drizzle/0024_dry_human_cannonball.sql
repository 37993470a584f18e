ALTER TABLE "pm_occurrences" ADD COLUMN "kind" text DEFAULT 'calendar' NOT NULL;--> statement-breakpoint
ALTER TABLE "pm_plans" ADD COLUMN "meter_base" double precision;--> statement-breakpoint
ALTER TABLE "pm_plans" ADD CONSTRAINT "pm_plans_org_id_meter_id_meters_org_id_id_fk" FOREIGN KEY ("org_id","meter_id") REFERENCES "public"."meters"("org_id","id") ON DELETE no action ON UPDATE no action;