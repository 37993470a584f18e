CREATE TABLE "work_order_quoted_actuals" (
	"org_id" integer NOT NULL,
	"work_order_id" integer NOT NULL,
	"quotation_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"title" text NOT NULL,
	"status" text NOT NULL,
	"labor_cost" numeric DEFAULT '0' NOT NULL,
	"unrated_hours" numeric DEFAULT '0' NOT NULL,
	"parts_major" numeric DEFAULT '0' NOT NULL,
	"parts_minor" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "work_order_quoted_actuals_org_id_work_order_id_pk" PRIMARY KEY("org_id","work_order_id")
);
--> statement-breakpoint
ALTER TABLE "work_order_quoted_actuals" ADD CONSTRAINT "work_order_quoted_actuals_org_id_work_order_id_work_orders_org_id_id_fk" FOREIGN KEY ("org_id","work_order_id") REFERENCES "public"."work_orders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_order_quoted_actuals_org_created_idx" ON "work_order_quoted_actuals" USING btree ("org_id","created_at");