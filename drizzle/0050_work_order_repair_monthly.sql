CREATE TABLE "work_order_repair_assignee_monthly" (
	"org_id" integer NOT NULL,
	"month" date NOT NULL,
	"assignees" integer[] NOT NULL,
	"bucket" smallint NOT NULL,
	"repairs" integer NOT NULL,
	"micros" bigint NOT NULL,
	CONSTRAINT "work_order_repair_assignee_monthly_org_id_month_assignees_bucket_pk" PRIMARY KEY("org_id","month","assignees","bucket")
);
--> statement-breakpoint
CREATE TABLE "work_order_repair_monthly" (
	"org_id" integer NOT NULL,
	"month" date NOT NULL,
	"asset_category_id" integer,
	"bucket" smallint NOT NULL,
	"repairs" integer NOT NULL,
	"micros" bigint NOT NULL,
	CONSTRAINT "work_order_repair_monthly_key" UNIQUE NULLS NOT DISTINCT("org_id","month","asset_category_id","bucket")
);
--> statement-breakpoint
ALTER TABLE "work_order_failures" ADD COLUMN "asset_category_id" integer;--> statement-breakpoint
ALTER TABLE "work_order_failures" ADD COLUMN "repair_us" bigint GENERATED ALWAYS AS ((extract(epoch from closed_at - created_at) * 1000000)::bigint) STORED;--> statement-breakpoint
ALTER TABLE "work_order_failures" ADD COLUMN "repair_bucket" smallint GENERATED ALWAYS AS ((case when (extract(epoch from closed_at - created_at) * 1000000)::bigint < 0 then -1 when (extract(epoch from closed_at - created_at) * 1000000)::bigint < 172800000000 then (extract(epoch from closed_at - created_at) * 1000000)::bigint / 3600000000
  when (extract(epoch from closed_at - created_at) * 1000000)::bigint < 2764800000000 then 48 + ((extract(epoch from closed_at - created_at) * 1000000)::bigint - 172800000000) / 86400000000
  else 78 + least(floor(log((extract(epoch from closed_at - created_at) * 1000000)::bigint::float8 / 2764800000000) / log(2)), 40) end)::smallint) STORED;--> statement-breakpoint
ALTER TABLE "work_order_repair_assignee_monthly" ADD CONSTRAINT "work_order_repair_assignee_monthly_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_repair_monthly" ADD CONSTRAINT "work_order_repair_monthly_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_order_failures_org_bucket_idx" ON "work_order_failures" USING btree ("org_id","repair_bucket","closed_at") INCLUDE ("repair_us","asset_category_id","assignees") WHERE closed_at is not null;