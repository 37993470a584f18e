CREATE TABLE "portal_codes" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"kind" text NOT NULL,
	"target_id" integer NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "portal_codes_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "portal_replies" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"request_id" integer NOT NULL,
	"author" text NOT NULL,
	"user_id" integer,
	"body" text NOT NULL,
	"photos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "portal_replies_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "portal_requests" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"description" text NOT NULL,
	"urgency" text NOT NULL,
	"target_kind" text,
	"target_id" integer,
	"target_name" text,
	"photos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"name" text,
	"email" text,
	"phone" text,
	"status" text DEFAULT 'received' NOT NULL,
	"decline_reason" text,
	"status_token_hash" text NOT NULL,
	"work_order_id" integer,
	"maintenance_request_id" integer,
	"merged_into_id" integer,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "portal_requests_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "portal_settings" (
	"org_id" integer NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"name_field" text DEFAULT 'optional' NOT NULL,
	"email_field" text DEFAULT 'optional' NOT NULL,
	"phone_field" text DEFAULT 'hidden' NOT NULL,
	"notify_requester" boolean DEFAULT true NOT NULL,
	"welcome" text,
	"published" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "portal_settings_org_id_pk" PRIMARY KEY("org_id")
);
--> statement-breakpoint
ALTER TABLE "portal_codes" ADD CONSTRAINT "portal_codes_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_replies" ADD CONSTRAINT "portal_replies_org_id_request_id_portal_requests_org_id_id_fk" FOREIGN KEY ("org_id","request_id") REFERENCES "public"."portal_requests"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_requests" ADD CONSTRAINT "portal_requests_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_settings" ADD CONSTRAINT "portal_settings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "portal_codes_org_target_key" ON "portal_codes" USING btree ("org_id","kind","target_id");--> statement-breakpoint
CREATE UNIQUE INDEX "portal_codes_org_token_key" ON "portal_codes" USING btree ("org_id","token");--> statement-breakpoint
CREATE INDEX "portal_replies_org_request_idx" ON "portal_replies" USING btree ("org_id","request_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "portal_requests_org_token_key" ON "portal_requests" USING btree ("org_id","status_token_hash");--> statement-breakpoint
CREATE INDEX "portal_requests_org_status_idx" ON "portal_requests" USING btree ("org_id","status","id");--> statement-breakpoint
CREATE INDEX "portal_requests_org_work_order_idx" ON "portal_requests" USING btree ("org_id","work_order_id");