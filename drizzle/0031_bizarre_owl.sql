CREATE TABLE "work_order_closures" (
	"org_id" integer NOT NULL,
	"work_order_id" integer NOT NULL,
	"status" text NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "work_order_closures_org_id_work_order_id_pk" PRIMARY KEY("org_id","work_order_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "hourly_rate" integer;--> statement-breakpoint
ALTER TABLE "work_order_closures" ADD CONSTRAINT "work_order_closures_org_id_work_order_id_work_orders_org_id_id_fk" FOREIGN KEY ("org_id","work_order_id") REFERENCES "public"."work_orders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_order_closures_org_closed_idx" ON "work_order_closures" USING btree ("org_id","closed_at");--> statement-breakpoint
CREATE INDEX "work_order_labors_org_start_idx" ON "work_order_labors" USING btree ("org_id","start_date");--> statement-breakpoint
CREATE INDEX "work_orders_org_created_idx" ON "work_orders" USING btree ("org_id","created_at");