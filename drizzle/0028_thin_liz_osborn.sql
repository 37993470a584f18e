CREATE TABLE "pm_occurrences" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"plan_id" integer NOT NULL,
	"asset_id" integer,
	"due_date" date NOT NULL,
	"status" text NOT NULL,
	"kind" text DEFAULT 'calendar' NOT NULL,
	"work_order_id" integer,
	"meter_value" double precision,
	"reason" text,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pm_occurrences_org_id_id_pk" PRIMARY KEY("org_id","id"),
	CONSTRAINT "pm_occurrences_once_key" UNIQUE NULLS NOT DISTINCT("org_id","plan_id","asset_id","due_date")
);
--> statement-breakpoint
CREATE TABLE "pm_plan_assets" (
	"org_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"asset_id" integer NOT NULL,
	CONSTRAINT "pm_plan_assets_org_id_plan_id_asset_id_pk" PRIMARY KEY("org_id","plan_id","asset_id")
);
--> statement-breakpoint
CREATE TABLE "pm_plan_assignees" (
	"org_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "pm_plan_assignees_org_id_plan_id_user_id_pk" PRIMARY KEY("org_id","plan_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "pm_plan_parts" (
	"org_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"part_id" integer NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "pm_plan_parts_org_id_plan_id_part_id_pk" PRIMARY KEY("org_id","plan_id","part_id")
);
--> statement-breakpoint
CREATE TABLE "pm_plans" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"work_station_id" integer,
	"team_id" integer,
	"title" text NOT NULL,
	"instructions" text,
	"priority" text DEFAULT 'medium' NOT NULL,
	"duration" text,
	"procedure_id" integer,
	"trigger" text DEFAULT 'calendar' NOT NULL,
	"frequency" text NOT NULL,
	"interval" integer DEFAULT 1 NOT NULL,
	"weekdays" text[] DEFAULT '{}' NOT NULL,
	"monthly_mode" text DEFAULT 'day' NOT NULL,
	"month_day" integer,
	"month_week" integer,
	"month_weekday" text,
	"schedule" text DEFAULT 'fixed' NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"lead_days" integer DEFAULT 0 NOT NULL,
	"meter_id" integer,
	"meter_every" double precision,
	"meter_threshold" double precision,
	"meter_lead_units" double precision DEFAULT 0 NOT NULL,
	"meter_base" double precision,
	"paused" boolean DEFAULT false NOT NULL,
	"active_from" date NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pm_plans_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "pm_settings" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"grace_days" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pm_occurrences" ADD CONSTRAINT "pm_occurrences_org_id_plan_id_pm_plans_org_id_id_fk" FOREIGN KEY ("org_id","plan_id") REFERENCES "public"."pm_plans"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pm_plan_assets" ADD CONSTRAINT "pm_plan_assets_org_id_plan_id_pm_plans_org_id_id_fk" FOREIGN KEY ("org_id","plan_id") REFERENCES "public"."pm_plans"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pm_plan_assets" ADD CONSTRAINT "pm_plan_assets_org_id_asset_id_assets_org_id_id_fk" FOREIGN KEY ("org_id","asset_id") REFERENCES "public"."assets"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pm_plan_assignees" ADD CONSTRAINT "pm_plan_assignees_org_id_plan_id_pm_plans_org_id_id_fk" FOREIGN KEY ("org_id","plan_id") REFERENCES "public"."pm_plans"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pm_plan_assignees" ADD CONSTRAINT "pm_plan_assignees_org_id_user_id_users_org_id_id_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pm_plan_parts" ADD CONSTRAINT "pm_plan_parts_org_id_plan_id_pm_plans_org_id_id_fk" FOREIGN KEY ("org_id","plan_id") REFERENCES "public"."pm_plans"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pm_plan_parts" ADD CONSTRAINT "pm_plan_parts_org_id_part_id_parts_org_id_id_fk" FOREIGN KEY ("org_id","part_id") REFERENCES "public"."parts"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pm_plans" ADD CONSTRAINT "pm_plans_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pm_plans" ADD CONSTRAINT "pm_plans_org_id_work_station_id_work_stations_org_id_id_fk" FOREIGN KEY ("org_id","work_station_id") REFERENCES "public"."work_stations"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pm_plans" ADD CONSTRAINT "pm_plans_org_id_team_id_teams_org_id_id_fk" FOREIGN KEY ("org_id","team_id") REFERENCES "public"."teams"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pm_plans" ADD CONSTRAINT "pm_plans_org_id_meter_id_meters_org_id_id_fk" FOREIGN KEY ("org_id","meter_id") REFERENCES "public"."meters"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pm_plans" ADD CONSTRAINT "pm_plans_org_id_procedure_id_procedures_org_id_id_fk" FOREIGN KEY ("org_id","procedure_id") REFERENCES "public"."procedures"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pm_settings" ADD CONSTRAINT "pm_settings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pm_occurrences_work_order_idx" ON "pm_occurrences" USING btree ("org_id","work_order_id");--> statement-breakpoint
CREATE INDEX "pm_occurrences_org_due_idx" ON "pm_occurrences" USING btree ("org_id","due_date");--> statement-breakpoint
CREATE INDEX "pm_plan_assets_asset_idx" ON "pm_plan_assets" USING btree ("org_id","asset_id");--> statement-breakpoint
CREATE INDEX "pm_plan_assignees_user_idx" ON "pm_plan_assignees" USING btree ("org_id","user_id");--> statement-breakpoint
CREATE INDEX "pm_plans_org_name_idx" ON "pm_plans" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "pm_plans_org_team_idx" ON "pm_plans" USING btree ("org_id","team_id");--> statement-breakpoint
CREATE INDEX "maintenance_orders_org_calendar_idx" ON "maintenance_orders" USING btree ("org_id",coalesce("due_date", "schedule_date"));--> statement-breakpoint
CREATE INDEX "work_orders_org_calendar_idx" ON "work_orders" USING btree ("org_id",coalesce("due_date", "start_date"));