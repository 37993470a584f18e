CREATE TABLE "work_order_assignees" (
	"org_id" integer NOT NULL,
	"work_order_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "work_order_assignees_org_id_work_order_id_user_id_pk" PRIMARY KEY("org_id","work_order_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "work_order_labors" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"work_order_id" integer NOT NULL,
	"worker_id" integer NOT NULL,
	"reason_id" integer NOT NULL,
	"start_date" timestamp with time zone NOT NULL,
	"end_date" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_order_labors_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "work_order_parts" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"work_order_id" integer NOT NULL,
	"part_id" integer NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_order_parts_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "work_order_status_counts" (
	"org_id" integer NOT NULL,
	"status" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "work_order_status_counts_org_id_status_pk" PRIMARY KEY("org_id","status")
);
--> statement-breakpoint
CREATE TABLE "work_orders" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"title" text NOT NULL,
	"duration" text,
	"status" text DEFAULT 'assigned' NOT NULL,
	"priority" text DEFAULT 'medium' NOT NULL,
	"start_date" timestamp with time zone,
	"end_date" timestamp with time zone,
	"due_date" timestamp with time zone,
	"instructions" text,
	"asset_id" integer,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_orders_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "work_order_assignees" ADD CONSTRAINT "work_order_assignees_org_id_work_order_id_work_orders_org_id_id_fk" FOREIGN KEY ("org_id","work_order_id") REFERENCES "public"."work_orders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_assignees" ADD CONSTRAINT "work_order_assignees_org_id_user_id_users_org_id_id_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_labors" ADD CONSTRAINT "work_order_labors_org_id_work_order_id_work_orders_org_id_id_fk" FOREIGN KEY ("org_id","work_order_id") REFERENCES "public"."work_orders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_labors" ADD CONSTRAINT "work_order_labors_org_id_worker_id_users_org_id_id_fk" FOREIGN KEY ("org_id","worker_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_labors" ADD CONSTRAINT "work_order_labors_org_id_reason_id_time_tracking_reasons_org_id_id_fk" FOREIGN KEY ("org_id","reason_id") REFERENCES "public"."time_tracking_reasons"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_parts" ADD CONSTRAINT "work_order_parts_org_id_work_order_id_work_orders_org_id_id_fk" FOREIGN KEY ("org_id","work_order_id") REFERENCES "public"."work_orders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_parts" ADD CONSTRAINT "work_order_parts_org_id_part_id_parts_org_id_id_fk" FOREIGN KEY ("org_id","part_id") REFERENCES "public"."parts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_status_counts" ADD CONSTRAINT "work_order_status_counts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_org_id_asset_id_assets_org_id_id_fk" FOREIGN KEY ("org_id","asset_id") REFERENCES "public"."assets"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_order_assignees_user_idx" ON "work_order_assignees" USING btree ("org_id","user_id","work_order_id");--> statement-breakpoint
CREATE INDEX "work_order_labors_order_idx" ON "work_order_labors" USING btree ("org_id","work_order_id","start_date");--> statement-breakpoint
CREATE INDEX "work_order_labors_worker_idx" ON "work_order_labors" USING btree ("org_id","worker_id");--> statement-breakpoint
CREATE INDEX "work_order_labors_reason_idx" ON "work_order_labors" USING btree ("org_id","reason_id");--> statement-breakpoint
CREATE UNIQUE INDEX "work_order_parts_order_part_key" ON "work_order_parts" USING btree ("org_id","work_order_id","part_id");--> statement-breakpoint
CREATE INDEX "work_order_parts_part_idx" ON "work_order_parts" USING btree ("org_id","part_id");--> statement-breakpoint
CREATE INDEX "work_orders_org_status_id_idx" ON "work_orders" USING btree ("org_id","status","id");--> statement-breakpoint
CREATE INDEX "work_orders_org_due_idx" ON "work_orders" USING btree ("org_id","due_date");--> statement-breakpoint
CREATE INDEX "work_orders_org_priority_status_idx" ON "work_orders" USING btree ("org_id","priority","status");--> statement-breakpoint
CREATE INDEX "work_orders_org_asset_idx" ON "work_orders" USING btree ("org_id","asset_id");--> statement-breakpoint
CREATE INDEX "work_orders_org_title_trgm_idx" ON "work_orders" USING gin ("org_id","title" gin_trgm_ops);