CREATE TABLE "notification_deliveries" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"user_id" integer NOT NULL,
	"channel" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"digest" boolean DEFAULT false NOT NULL,
	"notification_ids" integer[] NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"skipped" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_deliveries_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "notification_org_settings" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"due_soon_hours" integer DEFAULT 24 NOT NULL,
	"digest_time" text DEFAULT '07:00' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"org_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"preferences" jsonb NOT NULL,
	CONSTRAINT "notification_preferences_org_id_user_id_pk" PRIMARY KEY("org_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"actor_id" integer,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"shown" boolean DEFAULT true NOT NULL,
	"dedupe_key" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "work_order_followers" (
	"org_id" integer NOT NULL,
	"work_order_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_order_followers_org_id_work_order_id_user_id_pk" PRIMARY KEY("org_id","work_order_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_org_id_user_id_users_org_id_id_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_org_settings" ADD CONSTRAINT "notification_org_settings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_org_id_user_id_users_org_id_id_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_org_id_user_id_users_org_id_id_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_followers" ADD CONSTRAINT "work_order_followers_org_id_work_order_id_work_orders_org_id_id_fk" FOREIGN KEY ("org_id","work_order_id") REFERENCES "public"."work_orders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_followers" ADD CONSTRAINT "work_order_followers_org_id_user_id_users_org_id_id_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_deliveries_due_idx" ON "notification_deliveries" USING btree ("org_id","due_at") WHERE sent_at is null;--> statement-breakpoint
CREATE INDEX "notification_deliveries_open_idx" ON "notification_deliveries" USING btree ("org_id","user_id","channel","entity_type","entity_id") WHERE sent_at is null;--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("org_id","user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_dedupe_key" ON "notifications" USING btree ("org_id","user_id","dedupe_key") WHERE dedupe_key is not null;