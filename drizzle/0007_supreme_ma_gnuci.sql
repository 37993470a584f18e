CREATE TABLE "quotation_lines" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"quotation_id" integer NOT NULL,
	"kind" text NOT NULL,
	"service_id" integer,
	"part_id" integer,
	"name" text NOT NULL,
	"quantity" numeric(14, 3) NOT NULL,
	"unit_price" bigint DEFAULT 0 NOT NULL,
	"tax_id" integer,
	"discount" numeric(7, 4) DEFAULT 0 NOT NULL,
	"tax_amount" bigint DEFAULT 0 NOT NULL,
	"subtotal" bigint DEFAULT 0 NOT NULL,
	"uom_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "quotation_lines_org_id_id_pk" PRIMARY KEY("org_id","id"),
	CONSTRAINT "quotation_lines_kind_ref" CHECK (("quotation_lines"."kind" = 'service' and "quotation_lines"."service_id" is not null) or ("quotation_lines"."kind" = 'part' and "quotation_lines"."part_id" is not null)),
	CONSTRAINT "quotation_lines_discount_range" CHECK ("quotation_lines"."discount" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "quotations" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"customer_id" integer NOT NULL,
	"sales_person_id" integer NOT NULL,
	"quotation_date" timestamp with time zone NOT NULL,
	"expiration_date" timestamp with time zone NOT NULL,
	"note" text,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"raw_subtotal" bigint DEFAULT 0 NOT NULL,
	"total_discount" bigint DEFAULT 0 NOT NULL,
	"untaxed" bigint DEFAULT 0 NOT NULL,
	"total_tax" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotations_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "purchase_order_lines" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"purchase_order_id" integer NOT NULL,
	"kind" text NOT NULL,
	"service_id" integer,
	"part_id" integer,
	"name" text NOT NULL,
	"quantity" numeric(14, 3) NOT NULL,
	"unit_price" bigint DEFAULT 0 NOT NULL,
	"tax_id" integer,
	"discount" numeric(7, 4) DEFAULT 0 NOT NULL,
	"tax_amount" bigint DEFAULT 0 NOT NULL,
	"subtotal" bigint DEFAULT 0 NOT NULL,
	"uom_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "purchase_order_lines_org_id_id_pk" PRIMARY KEY("org_id","id"),
	CONSTRAINT "purchase_order_lines_kind_ref" CHECK (("purchase_order_lines"."kind" = 'service' and "purchase_order_lines"."service_id" is not null) or ("purchase_order_lines"."kind" = 'part' and "purchase_order_lines"."part_id" is not null)),
	CONSTRAINT "purchase_order_lines_discount_range" CHECK ("purchase_order_lines"."discount" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "purchase_orders" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"vendor_id" integer NOT NULL,
	"requester_id" integer NOT NULL,
	"purchase_order_date" timestamp with time zone NOT NULL,
	"expiration_date" timestamp with time zone,
	"note" text,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"raw_subtotal" bigint DEFAULT 0 NOT NULL,
	"total_discount" bigint DEFAULT 0 NOT NULL,
	"untaxed" bigint DEFAULT 0 NOT NULL,
	"total_tax" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchase_orders_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "quotation_lines" ADD CONSTRAINT "quotation_lines_org_id_quotation_id_quotations_org_id_id_fk" FOREIGN KEY ("org_id","quotation_id") REFERENCES "public"."quotations"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotation_lines" ADD CONSTRAINT "quotation_lines_org_id_service_id_services_org_id_id_fk" FOREIGN KEY ("org_id","service_id") REFERENCES "public"."services"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotation_lines" ADD CONSTRAINT "quotation_lines_org_id_part_id_parts_org_id_id_fk" FOREIGN KEY ("org_id","part_id") REFERENCES "public"."parts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotation_lines" ADD CONSTRAINT "quotation_lines_org_id_tax_id_taxes_org_id_id_fk" FOREIGN KEY ("org_id","tax_id") REFERENCES "public"."taxes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotation_lines" ADD CONSTRAINT "quotation_lines_org_id_uom_id_uoms_org_id_id_fk" FOREIGN KEY ("org_id","uom_id") REFERENCES "public"."uoms"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_org_id_customer_id_customer_vendors_org_id_id_fk" FOREIGN KEY ("org_id","customer_id") REFERENCES "public"."customer_vendors"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_org_id_sales_person_id_users_org_id_id_fk" FOREIGN KEY ("org_id","sales_person_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order_lines" ADD CONSTRAINT "purchase_order_lines_org_id_purchase_order_id_purchase_orders_org_id_id_fk" FOREIGN KEY ("org_id","purchase_order_id") REFERENCES "public"."purchase_orders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order_lines" ADD CONSTRAINT "purchase_order_lines_org_id_service_id_services_org_id_id_fk" FOREIGN KEY ("org_id","service_id") REFERENCES "public"."services"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order_lines" ADD CONSTRAINT "purchase_order_lines_org_id_part_id_parts_org_id_id_fk" FOREIGN KEY ("org_id","part_id") REFERENCES "public"."parts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order_lines" ADD CONSTRAINT "purchase_order_lines_org_id_tax_id_taxes_org_id_id_fk" FOREIGN KEY ("org_id","tax_id") REFERENCES "public"."taxes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order_lines" ADD CONSTRAINT "purchase_order_lines_org_id_uom_id_uoms_org_id_id_fk" FOREIGN KEY ("org_id","uom_id") REFERENCES "public"."uoms"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_orders" ADD CONSTRAINT "purchase_orders_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_orders" ADD CONSTRAINT "purchase_orders_org_id_vendor_id_customer_vendors_org_id_id_fk" FOREIGN KEY ("org_id","vendor_id") REFERENCES "public"."customer_vendors"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_orders" ADD CONSTRAINT "purchase_orders_org_id_requester_id_users_org_id_id_fk" FOREIGN KEY ("org_id","requester_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quotation_lines_doc_idx" ON "quotation_lines" USING btree ("org_id","quotation_id","position");--> statement-breakpoint
CREATE INDEX "quotation_lines_service_idx" ON "quotation_lines" USING btree ("org_id","service_id");--> statement-breakpoint
CREATE INDEX "quotation_lines_part_idx" ON "quotation_lines" USING btree ("org_id","part_id");--> statement-breakpoint
CREATE INDEX "quotation_lines_tax_idx" ON "quotation_lines" USING btree ("org_id","tax_id");--> statement-breakpoint
CREATE INDEX "quotations_org_status_idx" ON "quotations" USING btree ("org_id","status","id");--> statement-breakpoint
CREATE INDEX "quotations_org_customer_idx" ON "quotations" USING btree ("org_id","customer_id");--> statement-breakpoint
CREATE INDEX "quotations_org_sales_person_idx" ON "quotations" USING btree ("org_id","sales_person_id");--> statement-breakpoint
CREATE INDEX "purchase_order_lines_doc_idx" ON "purchase_order_lines" USING btree ("org_id","purchase_order_id","position");--> statement-breakpoint
CREATE INDEX "purchase_order_lines_service_idx" ON "purchase_order_lines" USING btree ("org_id","service_id");--> statement-breakpoint
CREATE INDEX "purchase_order_lines_part_idx" ON "purchase_order_lines" USING btree ("org_id","part_id");--> statement-breakpoint
CREATE INDEX "purchase_order_lines_tax_idx" ON "purchase_order_lines" USING btree ("org_id","tax_id");--> statement-breakpoint
CREATE INDEX "purchase_orders_org_status_idx" ON "purchase_orders" USING btree ("org_id","status","id");--> statement-breakpoint
CREATE INDEX "purchase_orders_org_vendor_idx" ON "purchase_orders" USING btree ("org_id","vendor_id");--> statement-breakpoint
CREATE INDEX "purchase_orders_org_requester_idx" ON "purchase_orders" USING btree ("org_id","requester_id");