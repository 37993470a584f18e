CREATE TABLE "work_order_priority_counts" (
	"org_id" integer NOT NULL,
	"status" text NOT NULL,
	"priority" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "work_order_priority_counts_org_id_status_priority_pk" PRIMARY KEY("org_id","status","priority")
);
--> statement-breakpoint
DROP INDEX "work_orders_org_due_idx";--> statement-breakpoint
ALTER TABLE "work_order_priority_counts" ADD CONSTRAINT "work_order_priority_counts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_orders_org_due_status_idx" ON "work_orders" USING btree ("org_id","due_date","status");