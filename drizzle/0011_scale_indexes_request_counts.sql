CREATE TABLE "maintenance_request_counts" (
	"org_id" integer NOT NULL,
	"state" text NOT NULL,
	"requester" text NOT NULL,
	"assigned" boolean NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "maintenance_request_counts_org_id_state_requester_assigned_pk" PRIMARY KEY("org_id","state","requester","assigned")
);
--> statement-breakpoint
DROP INDEX "work_orders_title_trgm_idx";--> statement-breakpoint
ALTER TABLE "maintenance_request_counts" ADD CONSTRAINT "maintenance_request_counts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_org_created_idx" ON "activities" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "work_orders_org_title_trgm_idx" ON "work_orders" USING gin ("org_id","title" gin_trgm_ops);