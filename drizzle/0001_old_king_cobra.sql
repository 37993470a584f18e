CREATE TABLE "asset_categories" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "asset_categories_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "product_categories" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"parent_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_categories_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "tax_children" (
	"org_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	CONSTRAINT "tax_children_org_id_group_id_child_id_pk" PRIMARY KEY("org_id","group_id","child_id")
);
--> statement-breakpoint
CREATE TABLE "taxes" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"scope" text NOT NULL,
	"tax_computation" text NOT NULL,
	"amount" numeric(14, 4),
	"is_price_included" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "taxes_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "time_tracking_reasons" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"is_blocking_reason" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "time_tracking_reasons_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "uom_categories" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uom_categories_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "uoms" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"category_id" integer NOT NULL,
	"ratio" numeric(14, 6) DEFAULT 1 NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uoms_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"org_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"worker_id" integer NOT NULL,
	"is_team_lead" boolean DEFAULT false NOT NULL,
	"is_default_assignee" boolean DEFAULT false NOT NULL,
	CONSTRAINT "team_members_org_id_team_id_worker_id_pk" PRIMARY KEY("org_id","team_id","worker_id")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teams_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "customer_vendors" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"type" text NOT NULL,
	"category" text NOT NULL,
	"parent_id" integer,
	"street" text,
	"street2" text,
	"city" text,
	"state" text,
	"zip_code" text,
	"country" text,
	"tin_vat" text,
	"phone" text,
	"mobile" text,
	"website" text,
	"customer_documents" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"profile_picture" text,
	"profile_picture_low" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_vendors_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "assets" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"serial" text,
	"asset_barcode" text,
	"asset_code" text,
	"date" date NOT NULL,
	"customer_vendor_id" integer,
	"asset_category_id" integer NOT NULL,
	"status" text DEFAULT 'Operational' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assets_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "parts" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"sku_code" text,
	"category_id" integer NOT NULL,
	"sales_price" numeric(14, 2) NOT NULL,
	"unit_of_measure_id" integer NOT NULL,
	"purchase_unit_of_measure_id" integer NOT NULL,
	"image" text,
	"image_low" text,
	"quantity_on_hand" numeric(14, 3) DEFAULT 0 NOT NULL,
	"minimum_quantity" numeric(14, 3) DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parts_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "stock_moves" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"part_id" integer NOT NULL,
	"quantity" numeric(14, 3) NOT NULL,
	"reason" text NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_moves_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "work_stations" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"city" text NOT NULL,
	"team_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_stations_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "service_work_stations" (
	"org_id" integer NOT NULL,
	"service_id" integer NOT NULL,
	"work_station_id" integer NOT NULL,
	"operation" text NOT NULL,
	"time_required" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "service_work_stations_org_id_service_id_work_station_id_pk" PRIMARY KEY("org_id","service_id","work_station_id")
);
--> statement-breakpoint
CREATE TABLE "services" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"title" text NOT NULL,
	"price" numeric(14, 2) NOT NULL,
	"operations" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "services_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "asset_categories" ADD CONSTRAINT "asset_categories_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_org_id_parent_id_product_categories_org_id_id_fk" FOREIGN KEY ("org_id","parent_id") REFERENCES "public"."product_categories"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_children" ADD CONSTRAINT "tax_children_org_id_group_id_taxes_org_id_id_fk" FOREIGN KEY ("org_id","group_id") REFERENCES "public"."taxes"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_children" ADD CONSTRAINT "tax_children_org_id_child_id_taxes_org_id_id_fk" FOREIGN KEY ("org_id","child_id") REFERENCES "public"."taxes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "taxes" ADD CONSTRAINT "taxes_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_tracking_reasons" ADD CONSTRAINT "time_tracking_reasons_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uom_categories" ADD CONSTRAINT "uom_categories_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uoms" ADD CONSTRAINT "uoms_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uoms" ADD CONSTRAINT "uoms_org_id_category_id_uom_categories_org_id_id_fk" FOREIGN KEY ("org_id","category_id") REFERENCES "public"."uom_categories"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_org_id_team_id_teams_org_id_id_fk" FOREIGN KEY ("org_id","team_id") REFERENCES "public"."teams"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_org_id_worker_id_users_org_id_id_fk" FOREIGN KEY ("org_id","worker_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_vendors" ADD CONSTRAINT "customer_vendors_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_vendors" ADD CONSTRAINT "customer_vendors_org_id_parent_id_customer_vendors_org_id_id_fk" FOREIGN KEY ("org_id","parent_id") REFERENCES "public"."customer_vendors"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_org_id_asset_category_id_asset_categories_org_id_id_fk" FOREIGN KEY ("org_id","asset_category_id") REFERENCES "public"."asset_categories"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_org_id_customer_vendor_id_customer_vendors_org_id_id_fk" FOREIGN KEY ("org_id","customer_vendor_id") REFERENCES "public"."customer_vendors"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parts" ADD CONSTRAINT "parts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parts" ADD CONSTRAINT "parts_org_id_category_id_product_categories_org_id_id_fk" FOREIGN KEY ("org_id","category_id") REFERENCES "public"."product_categories"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parts" ADD CONSTRAINT "parts_org_id_unit_of_measure_id_uoms_org_id_id_fk" FOREIGN KEY ("org_id","unit_of_measure_id") REFERENCES "public"."uoms"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parts" ADD CONSTRAINT "parts_org_id_purchase_unit_of_measure_id_uoms_org_id_id_fk" FOREIGN KEY ("org_id","purchase_unit_of_measure_id") REFERENCES "public"."uoms"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_moves" ADD CONSTRAINT "stock_moves_org_id_part_id_parts_org_id_id_fk" FOREIGN KEY ("org_id","part_id") REFERENCES "public"."parts"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_stations" ADD CONSTRAINT "work_stations_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_stations" ADD CONSTRAINT "work_stations_org_id_team_id_teams_org_id_id_fk" FOREIGN KEY ("org_id","team_id") REFERENCES "public"."teams"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_work_stations" ADD CONSTRAINT "service_work_stations_org_id_service_id_services_org_id_id_fk" FOREIGN KEY ("org_id","service_id") REFERENCES "public"."services"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_work_stations" ADD CONSTRAINT "service_work_stations_org_id_work_station_id_work_stations_org_id_id_fk" FOREIGN KEY ("org_id","work_station_id") REFERENCES "public"."work_stations"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "asset_categories_org_code_key" ON "asset_categories" USING btree ("org_id",lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "uoms_one_reference_per_category" ON "uoms" USING btree ("org_id","category_id") WHERE "uoms"."type" = 'reference';--> statement-breakpoint
CREATE INDEX "uoms_org_name_idx" ON "uoms" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "customer_vendors_org_type_idx" ON "customer_vendors" USING btree ("org_id","type","id");--> statement-breakpoint
CREATE INDEX "customer_vendors_org_name_idx" ON "customer_vendors" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "assets_org_name_idx" ON "assets" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "assets_org_status_idx" ON "assets" USING btree ("org_id","status","id");--> statement-breakpoint
CREATE INDEX "parts_org_name_idx" ON "parts" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "stock_moves_part_idx" ON "stock_moves" USING btree ("org_id","part_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "work_stations_org_code_key" ON "work_stations" USING btree ("org_id",lower("code"));--> statement-breakpoint
CREATE INDEX "work_stations_org_name_idx" ON "work_stations" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "services_org_title_idx" ON "services" USING btree ("org_id","title");