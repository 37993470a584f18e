CREATE TABLE "stock_part_settings" (
	"org_id" integer NOT NULL,
	"part_id" integer NOT NULL,
	"preferred_vendor_id" integer,
	"average_cost_minor" bigint,
	CONSTRAINT "stock_part_settings_org_id_part_id_pk" PRIMARY KEY("org_id","part_id")
);
--> statement-breakpoint
CREATE TABLE "stock_reorders" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"purchase_order_id" integer NOT NULL,
	"part_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"quantity" numeric(14, 3) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_reorders_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "stock_part_settings" ADD CONSTRAINT "stock_part_settings_org_id_part_id_parts_org_id_id_fk" FOREIGN KEY ("org_id","part_id") REFERENCES "public"."parts"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_reorders" ADD CONSTRAINT "stock_reorders_org_id_purchase_order_id_purchase_orders_org_id_id_fk" FOREIGN KEY ("org_id","purchase_order_id") REFERENCES "public"."purchase_orders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_reorders" ADD CONSTRAINT "stock_reorders_org_id_part_id_parts_org_id_id_fk" FOREIGN KEY ("org_id","part_id") REFERENCES "public"."parts"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_reorders" ADD CONSTRAINT "stock_reorders_org_id_location_id_stock_locations_org_id_id_fk" FOREIGN KEY ("org_id","location_id") REFERENCES "public"."stock_locations"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_reorders_part_idx" ON "stock_reorders" USING btree ("org_id","part_id","location_id");