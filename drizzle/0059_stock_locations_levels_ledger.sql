CREATE TABLE "stock_levels" (
	"org_id" integer NOT NULL,
	"part_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"quantity" numeric(14, 3) DEFAULT 0 NOT NULL,
	"reorder_point" numeric(14, 3) DEFAULT 0 NOT NULL,
	"reorder_quantity" numeric(14, 3) DEFAULT 0 NOT NULL,
	"bin" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_levels_org_id_part_id_location_id_pk" PRIMARY KEY("org_id","part_id","location_id")
);
--> statement-breakpoint
CREATE TABLE "stock_locations" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_locations_org_id_id_pk" PRIMARY KEY("org_id","id"),
	CONSTRAINT "stock_locations_kind_check" CHECK ("stock_locations"."kind" in ('storeroom', 'van', 'site-store'))
);
--> statement-breakpoint
CREATE TABLE "stock_settings" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"allow_negative_stock" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stock_moves" ADD COLUMN "from_location_id" integer;--> statement-breakpoint
ALTER TABLE "stock_moves" ADD COLUMN "to_location_id" integer;--> statement-breakpoint
ALTER TABLE "stock_moves" ADD COLUMN "unit_cost_minor" bigint;--> statement-breakpoint
ALTER TABLE "stock_moves" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "stock_moves" ADD COLUMN "work_order_id" integer;--> statement-breakpoint
ALTER TABLE "stock_moves" ADD COLUMN "purchase_order_id" integer;--> statement-breakpoint
ALTER TABLE "work_order_parts" ADD COLUMN "location_id" integer;--> statement-breakpoint
ALTER TABLE "stock_levels" ADD CONSTRAINT "stock_levels_org_id_part_id_parts_org_id_id_fk" FOREIGN KEY ("org_id","part_id") REFERENCES "public"."parts"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_levels" ADD CONSTRAINT "stock_levels_org_id_location_id_stock_locations_org_id_id_fk" FOREIGN KEY ("org_id","location_id") REFERENCES "public"."stock_locations"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_locations" ADD CONSTRAINT "stock_locations_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_settings" ADD CONSTRAINT "stock_settings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_levels_location_idx" ON "stock_levels" USING btree ("org_id","location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_locations_org_name_key" ON "stock_locations" USING btree ("org_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "stock_locations_org_default_key" ON "stock_locations" USING btree ("org_id") WHERE "stock_locations"."is_default";--> statement-breakpoint
ALTER TABLE "stock_moves" ADD CONSTRAINT "stock_moves_org_id_from_location_id_stock_locations_org_id_id_fk" FOREIGN KEY ("org_id","from_location_id") REFERENCES "public"."stock_locations"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_moves" ADD CONSTRAINT "stock_moves_org_id_to_location_id_stock_locations_org_id_id_fk" FOREIGN KEY ("org_id","to_location_id") REFERENCES "public"."stock_locations"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_parts" ADD CONSTRAINT "work_order_parts_org_id_location_id_stock_locations_org_id_id_fk" FOREIGN KEY ("org_id","location_id") REFERENCES "public"."stock_locations"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_moves_from_idx" ON "stock_moves" USING btree ("org_id","from_location_id","id");--> statement-breakpoint
CREATE INDEX "stock_moves_to_idx" ON "stock_moves" USING btree ("org_id","to_location_id","id");--> statement-breakpoint
CREATE INDEX "stock_moves_work_order_idx" ON "stock_moves" USING btree ("org_id","work_order_id","part_id");--> statement-breakpoint
CREATE INDEX "stock_moves_purchase_order_idx" ON "stock_moves" USING btree ("org_id","purchase_order_id");
