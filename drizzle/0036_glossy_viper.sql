CREATE TABLE "work_order_share_messages" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"share_id" integer NOT NULL,
	"user_id" integer,
	"author_name" text NOT NULL,
	"body" text,
	"file_url" text,
	"file_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_order_share_messages_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "work_order_shares" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"work_order_id" integer NOT NULL,
	"vendor_id" integer,
	"contractor_name" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"can_comment" boolean DEFAULT false NOT NULL,
	"can_log" boolean DEFAULT false NOT NULL,
	"can_complete" boolean DEFAULT false NOT NULL,
	"require_code" boolean DEFAULT false NOT NULL,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"code_attempts" integer DEFAULT 0 NOT NULL,
	"access_hash" text,
	"state" text DEFAULT 'waiting' NOT NULL,
	"review_comment" text,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_activity_at" timestamp with time zone,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_order_shares_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "work_order_labors" ALTER COLUMN "worker_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "work_order_labors" ALTER COLUMN "reason_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "work_order_parts" ALTER COLUMN "part_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "actor_name" text;--> statement-breakpoint
ALTER TABLE "work_order_labors" ADD COLUMN "share_id" integer;--> statement-breakpoint
ALTER TABLE "work_order_labors" ADD COLUMN "external_name" text;--> statement-breakpoint
ALTER TABLE "work_order_labors" ADD COLUMN "external_rate_minor" integer;--> statement-breakpoint
ALTER TABLE "work_order_parts" ADD COLUMN "share_id" integer;--> statement-breakpoint
ALTER TABLE "work_order_parts" ADD COLUMN "external_name" text;--> statement-breakpoint
ALTER TABLE "work_order_parts" ADD COLUMN "external_unit_price_minor" integer;--> statement-breakpoint
ALTER TABLE "work_order_share_messages" ADD CONSTRAINT "work_order_share_messages_org_id_share_id_work_order_shares_org_id_id_fk" FOREIGN KEY ("org_id","share_id") REFERENCES "public"."work_order_shares"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_shares" ADD CONSTRAINT "work_order_shares_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_shares" ADD CONSTRAINT "work_order_shares_org_id_work_order_id_work_orders_org_id_id_fk" FOREIGN KEY ("org_id","work_order_id") REFERENCES "public"."work_orders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_order_share_messages_share_idx" ON "work_order_share_messages" USING btree ("org_id","share_id","created_at");--> statement-breakpoint
CREATE INDEX "work_order_shares_token_idx" ON "work_order_shares" USING btree ("org_id","token_hash");--> statement-breakpoint
CREATE INDEX "work_order_shares_order_idx" ON "work_order_shares" USING btree ("org_id","work_order_id");--> statement-breakpoint
CREATE INDEX "work_order_shares_org_created_idx" ON "work_order_shares" USING btree ("org_id","created_at");--> statement-breakpoint
ALTER TABLE "work_order_labors" ADD CONSTRAINT "work_order_labors_who_check" CHECK (("work_order_labors"."worker_id" is not null and "work_order_labors"."reason_id" is not null) or ("work_order_labors"."share_id" is not null and "work_order_labors"."external_name" is not null and "work_order_labors"."external_rate_minor" >= 0));--> statement-breakpoint
ALTER TABLE "work_order_parts" ADD CONSTRAINT "work_order_parts_what_check" CHECK ("work_order_parts"."part_id" is not null or ("work_order_parts"."share_id" is not null and "work_order_parts"."external_name" is not null and "work_order_parts"."external_unit_price_minor" >= 0));