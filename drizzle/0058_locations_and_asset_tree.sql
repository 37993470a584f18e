CREATE TABLE "locations" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"parent_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "locations_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "location_id" integer;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "work_stations" ADD COLUMN "location_id" integer;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_org_id_parent_id_locations_org_id_id_fk" FOREIGN KEY ("org_id","parent_id") REFERENCES "public"."locations"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "locations_org_parent_idx" ON "locations" USING btree ("org_id","parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "locations_org_code_key" ON "locations" USING btree ("org_id",lower("code")) WHERE "locations"."code" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "locations_org_parent_name_key" ON "locations" USING btree ("org_id",coalesce("parent_id", 0),lower("name"));--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_org_id_location_id_locations_org_id_id_fk" FOREIGN KEY ("org_id","location_id") REFERENCES "public"."locations"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_org_id_parent_id_assets_org_id_id_fk" FOREIGN KEY ("org_id","parent_id") REFERENCES "public"."assets"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_stations" ADD CONSTRAINT "work_stations_org_id_location_id_locations_org_id_id_fk" FOREIGN KEY ("org_id","location_id") REFERENCES "public"."locations"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assets_org_location_idx" ON "assets" USING btree ("org_id","location_id");--> statement-breakpoint
CREATE INDEX "assets_org_parent_idx" ON "assets" USING btree ("org_id","parent_id");--> statement-breakpoint
CREATE INDEX "work_stations_org_location_idx" ON "work_stations" USING btree ("org_id","location_id");