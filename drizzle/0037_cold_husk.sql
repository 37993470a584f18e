CREATE TABLE "work_order_daily_counts" (
	"org_id" integer NOT NULL,
	"day" date NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"closed" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "work_order_daily_counts_org_id_day_pk" PRIMARY KEY("org_id","day")
);
--> statement-breakpoint
ALTER TABLE "work_order_daily_counts" ADD CONSTRAINT "work_order_daily_counts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;