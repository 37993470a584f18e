CREATE TABLE "meter_readings" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"meter_id" integer NOT NULL,
	"value" numeric(15, 4) NOT NULL,
	"total" numeric(15, 4),
	"reset" boolean DEFAULT false NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"work_order_id" integer,
	"recorded_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meter_readings_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "meters" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"asset_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"unit" text NOT NULL,
	"description" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meters_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "meter_readings" ADD CONSTRAINT "meter_readings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_readings" ADD CONSTRAINT "meter_readings_org_id_meter_id_meters_org_id_id_fk" FOREIGN KEY ("org_id","meter_id") REFERENCES "public"."meters"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_org_id_asset_id_assets_org_id_id_fk" FOREIGN KEY ("org_id","asset_id") REFERENCES "public"."assets"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meter_readings_org_meter_time_idx" ON "meter_readings" USING btree ("org_id","meter_id","read_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "meters_org_asset_name_idx" ON "meters" USING btree ("org_id","asset_id",lower("name"));