CREATE TABLE "api_keys" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"key_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_by_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_keys_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"endpoint_id" integer NOT NULL,
	"event" text NOT NULL,
	"message_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"job_seq" integer DEFAULT 1 NOT NULL,
	"response_code" integer,
	"response_body" text,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"window_start" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"events" jsonb NOT NULL,
	"secret" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text,
	"failing_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_org_id_created_by_id_users_org_id_id_fk" FOREIGN KEY ("org_id","created_by_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_org_id_endpoint_id_webhook_endpoints_org_id_id_fk" FOREIGN KEY ("org_id","endpoint_id") REFERENCES "public"."webhook_endpoints"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_org_hash_idx" ON "api_keys" USING btree ("org_id","key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_org_created_by_idx" ON "api_keys" USING btree ("org_id","created_by_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_org_endpoint_idx" ON "webhook_deliveries" USING btree ("org_id","endpoint_id","id");