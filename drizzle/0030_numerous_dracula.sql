CREATE TABLE "user_assets" (
	"org_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"asset_id" integer NOT NULL,
	CONSTRAINT "user_assets_org_id_user_id_asset_id_pk" PRIMARY KEY("org_id","user_id","asset_id")
);
--> statement-breakpoint
CREATE TABLE "user_services" (
	"org_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"service_id" integer NOT NULL,
	CONSTRAINT "user_services_org_id_user_id_service_id_pk" PRIMARY KEY("org_id","user_id","service_id")
);
--> statement-breakpoint
CREATE TABLE "user_work_stations" (
	"org_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"work_station_id" integer NOT NULL,
	CONSTRAINT "user_work_stations_org_id_user_id_work_station_id_pk" PRIMARY KEY("org_id","user_id","work_station_id")
);
--> statement-breakpoint
ALTER TABLE "user_assets" ADD CONSTRAINT "user_assets_org_id_user_id_users_org_id_id_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_assets" ADD CONSTRAINT "user_assets_org_id_asset_id_assets_org_id_id_fk" FOREIGN KEY ("org_id","asset_id") REFERENCES "public"."assets"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_services" ADD CONSTRAINT "user_services_org_id_user_id_users_org_id_id_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_services" ADD CONSTRAINT "user_services_org_id_service_id_services_org_id_id_fk" FOREIGN KEY ("org_id","service_id") REFERENCES "public"."services"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_work_stations" ADD CONSTRAINT "user_work_stations_org_id_user_id_users_org_id_id_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_work_stations" ADD CONSTRAINT "user_work_stations_org_id_work_station_id_work_stations_org_id_id_fk" FOREIGN KEY ("org_id","work_station_id") REFERENCES "public"."work_stations"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_assets_asset_idx" ON "user_assets" USING btree ("org_id","asset_id");--> statement-breakpoint
CREATE INDEX "user_services_service_idx" ON "user_services" USING btree ("org_id","service_id");--> statement-breakpoint
CREATE INDEX "user_work_stations_station_idx" ON "user_work_stations" USING btree ("org_id","work_station_id");