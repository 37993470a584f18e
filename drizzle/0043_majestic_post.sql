CREATE TABLE "work_order_open_daily" (
	"org_id" integer NOT NULL,
	"day" date NOT NULL,
	"created_open" integer DEFAULT 0 NOT NULL,
	"due_open" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "work_order_open_daily_org_id_day_pk" PRIMARY KEY("org_id","day")
);
--> statement-breakpoint
ALTER TABLE "work_order_open_daily" ADD CONSTRAINT "work_order_open_daily_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;