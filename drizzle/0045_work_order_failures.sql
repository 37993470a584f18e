CREATE TABLE "work_order_failures" (
	"org_id" integer NOT NULL,
	"work_order_id" integer NOT NULL,
	"asset_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"assignees" integer[] DEFAULT '{}' NOT NULL,
	"prev_created_at" timestamp with time zone,
	"prev_closed_at" timestamp with time zone,
	"run_failures" integer,
	"run_intervals" integer,
	"run_interval_hours" double precision,
	CONSTRAINT "work_order_failures_org_id_work_order_id_pk" PRIMARY KEY("org_id","work_order_id")
);
--> statement-breakpoint
ALTER TABLE "work_order_failures" ADD CONSTRAINT "work_order_failures_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_order_failures_org_closed_idx" ON "work_order_failures" USING btree ("org_id","closed_at") WHERE closed_at is not null;--> statement-breakpoint
CREATE INDEX "work_order_failures_org_created_idx" ON "work_order_failures" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "work_order_failures_org_asset_idx" ON "work_order_failures" USING btree ("org_id","asset_id","created_at","work_order_id");