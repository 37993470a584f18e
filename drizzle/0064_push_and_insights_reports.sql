CREATE TABLE "push_subscriptions" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"user_id" integer NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_success_at" timestamp with time zone,
	CONSTRAINT "push_subscriptions_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "insights_reports" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"owner_id" integer NOT NULL,
	"frequency" text NOT NULL,
	"format" text NOT NULL,
	"filters" jsonb NOT NULL,
	"recipient_ids" jsonb NOT NULL,
	"next_send_at" timestamp with time zone NOT NULL,
	"last_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "insights_reports_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_org_id_user_id_users_org_id_id_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_reports" ADD CONSTRAINT "insights_reports_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_reports" ADD CONSTRAINT "insights_reports_org_id_owner_id_users_org_id_id_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_org_endpoint_idx" ON "push_subscriptions" USING btree ("org_id","endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_org_user_idx" ON "push_subscriptions" USING btree ("org_id","user_id");--> statement-breakpoint
CREATE INDEX "insights_reports_org_owner_idx" ON "insights_reports" USING btree ("org_id","owner_id");--> statement-breakpoint
CREATE INDEX "insights_reports_org_next_send_idx" ON "insights_reports" USING btree ("org_id","next_send_at");