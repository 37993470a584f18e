CREATE TABLE "work_order_asset_monthly" (
	"org_id" integer NOT NULL,
	"month" date NOT NULL,
	"asset_id" integer,
	"reason_id" integer,
	"hours" numeric DEFAULT '0' NOT NULL,
	"labor_cost" numeric DEFAULT '0' NOT NULL,
	"unrated_hours" numeric DEFAULT '0' NOT NULL,
	"parts_major" numeric DEFAULT '0' NOT NULL,
	"parts_minor" numeric DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "work_order_reason_daily" (
	"org_id" integer NOT NULL,
	"day" date NOT NULL,
	"reason_id" integer,
	"planned" boolean NOT NULL,
	"hours" numeric DEFAULT '0' NOT NULL,
	"labor_cost" numeric DEFAULT '0' NOT NULL,
	"unrated_hours" numeric DEFAULT '0' NOT NULL,
	"parts_major" numeric DEFAULT '0' NOT NULL,
	"parts_minor" numeric DEFAULT '0' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "work_order_asset_monthly" ADD CONSTRAINT "work_order_asset_monthly_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_reason_daily" ADD CONSTRAINT "work_order_reason_daily_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_order_asset_monthly_org_month_idx" ON "work_order_asset_monthly" USING btree ("org_id","month");--> statement-breakpoint
CREATE INDEX "work_order_reason_daily_org_day_idx" ON "work_order_reason_daily" USING btree ("org_id","day");--> statement-breakpoint
CREATE INDEX "work_order_cost_daily_org_asset_day_idx" ON "work_order_cost_daily" USING btree ("org_id","asset_id","day");