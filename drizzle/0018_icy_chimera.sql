CREATE TABLE "work_order_open_due_day_counts" (
	"org_id" integer NOT NULL,
	"due_day" date NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "work_order_open_due_day_counts_org_id_due_day_pk" PRIMARY KEY("org_id","due_day")
);
--> statement-breakpoint
ALTER TABLE "work_order_open_due_day_counts" ADD CONSTRAINT "work_order_open_due_day_counts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;