CREATE TABLE "maintenance_requests" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"title" text NOT NULL,
	"problem_description" text NOT NULL,
	"maintenance_type" text NOT NULL,
	"requester" text NOT NULL,
	"customer_id" integer,
	"priority" text NOT NULL,
	"state" text DEFAULT 'new' NOT NULL,
	"assigned_to" integer,
	"date_of_request" timestamp with time zone NOT NULL,
	"asset_id" integer,
	"failure_reason" text,
	"urgency_level" text,
	"risk_level" text NOT NULL,
	"schedule_date" timestamp with time zone,
	"frequency" text,
	"sensor_data" text,
	"condition" text,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"documents" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "maintenance_requests_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "maintenance_order_parts" (
	"org_id" integer NOT NULL,
	"maintenance_order_id" integer NOT NULL,
	"part_id" integer NOT NULL,
	CONSTRAINT "maintenance_order_parts_org_id_maintenance_order_id_part_id_pk" PRIMARY KEY("org_id","maintenance_order_id","part_id")
);
--> statement-breakpoint
CREATE TABLE "maintenance_order_services" (
	"org_id" integer NOT NULL,
	"maintenance_order_id" integer NOT NULL,
	"service_id" integer NOT NULL,
	CONSTRAINT "maintenance_order_services_org_id_maintenance_order_id_service_id_pk" PRIMARY KEY("org_id","maintenance_order_id","service_id")
);
--> statement-breakpoint
CREATE TABLE "maintenance_orders" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"maintenance_request_id" integer NOT NULL,
	"maintenance_type" text NOT NULL,
	"asset_id" integer,
	"schedule_date" timestamp with time zone,
	"due_date" timestamp with time zone,
	"completion_date" timestamp with time zone,
	"root_cause_analysis" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "maintenance_orders_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "maintenance_requests" ADD CONSTRAINT "maintenance_requests_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_requests" ADD CONSTRAINT "maintenance_requests_org_id_customer_id_customer_vendors_org_id_id_fk" FOREIGN KEY ("org_id","customer_id") REFERENCES "public"."customer_vendors"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_requests" ADD CONSTRAINT "maintenance_requests_org_id_assigned_to_users_org_id_id_fk" FOREIGN KEY ("org_id","assigned_to") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_requests" ADD CONSTRAINT "maintenance_requests_org_id_asset_id_assets_org_id_id_fk" FOREIGN KEY ("org_id","asset_id") REFERENCES "public"."assets"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_order_parts" ADD CONSTRAINT "maintenance_order_parts_org_id_maintenance_order_id_maintenance_orders_org_id_id_fk" FOREIGN KEY ("org_id","maintenance_order_id") REFERENCES "public"."maintenance_orders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_order_parts" ADD CONSTRAINT "maintenance_order_parts_org_id_part_id_parts_org_id_id_fk" FOREIGN KEY ("org_id","part_id") REFERENCES "public"."parts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_order_services" ADD CONSTRAINT "maintenance_order_services_org_id_maintenance_order_id_maintenance_orders_org_id_id_fk" FOREIGN KEY ("org_id","maintenance_order_id") REFERENCES "public"."maintenance_orders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_order_services" ADD CONSTRAINT "maintenance_order_services_org_id_service_id_services_org_id_id_fk" FOREIGN KEY ("org_id","service_id") REFERENCES "public"."services"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_orders" ADD CONSTRAINT "maintenance_orders_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_orders" ADD CONSTRAINT "maintenance_orders_org_id_maintenance_request_id_maintenance_requests_org_id_id_fk" FOREIGN KEY ("org_id","maintenance_request_id") REFERENCES "public"."maintenance_requests"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_orders" ADD CONSTRAINT "maintenance_orders_org_id_asset_id_assets_org_id_id_fk" FOREIGN KEY ("org_id","asset_id") REFERENCES "public"."assets"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "maintenance_requests_org_state_idx" ON "maintenance_requests" USING btree ("org_id","state","id");--> statement-breakpoint
CREATE INDEX "maintenance_requests_org_title_idx" ON "maintenance_requests" USING btree ("org_id","title");--> statement-breakpoint
CREATE INDEX "maintenance_requests_org_assigned_idx" ON "maintenance_requests" USING btree ("org_id","assigned_to");--> statement-breakpoint
CREATE INDEX "maintenance_requests_org_asset_idx" ON "maintenance_requests" USING btree ("org_id","asset_id");--> statement-breakpoint
CREATE INDEX "maintenance_requests_org_customer_idx" ON "maintenance_requests" USING btree ("org_id","customer_id");--> statement-breakpoint
CREATE INDEX "maintenance_order_parts_part_idx" ON "maintenance_order_parts" USING btree ("org_id","part_id");--> statement-breakpoint
CREATE INDEX "maintenance_order_services_service_idx" ON "maintenance_order_services" USING btree ("org_id","service_id");--> statement-breakpoint
CREATE INDEX "maintenance_orders_org_status_idx" ON "maintenance_orders" USING btree ("org_id","status","id");--> statement-breakpoint
CREATE INDEX "maintenance_orders_org_request_idx" ON "maintenance_orders" USING btree ("org_id","maintenance_request_id");--> statement-breakpoint
CREATE INDEX "maintenance_orders_org_asset_idx" ON "maintenance_orders" USING btree ("org_id","asset_id");