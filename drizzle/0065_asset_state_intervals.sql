CREATE TABLE "asset_state_intervals" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"asset_id" integer NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"set_by" integer,
	"work_order_id" integer,
	"maintenance_request_id" integer,
	"cascaded_from" integer,
	CONSTRAINT "asset_state_intervals_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "independent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "asset_state_intervals" ADD CONSTRAINT "asset_state_intervals_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_state_intervals" ADD CONSTRAINT "asset_state_intervals_org_id_asset_id_assets_org_id_id_fk" FOREIGN KEY ("org_id","asset_id") REFERENCES "public"."assets"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "asset_state_intervals_one_open_idx" ON "asset_state_intervals" USING btree ("org_id","asset_id") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "asset_state_intervals_org_asset_start_idx" ON "asset_state_intervals" USING btree ("org_id","asset_id","started_at");--> statement-breakpoint
CREATE INDEX "asset_state_intervals_org_cascade_idx" ON "asset_state_intervals" USING btree ("org_id","cascaded_from") WHERE cascaded_from is not null;--> statement-breakpoint
CREATE INDEX "asset_state_intervals_org_work_order_idx" ON "asset_state_intervals" USING btree ("org_id","work_order_id") WHERE work_order_id is not null;--> statement-breakpoint
CREATE INDEX "asset_state_intervals_org_request_idx" ON "asset_state_intervals" USING btree ("org_id","maintenance_request_id") WHERE maintenance_request_id is not null;