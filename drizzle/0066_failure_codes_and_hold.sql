CREATE TABLE "failure_code_settings" (
	"org_id" integer NOT NULL,
	"require_codes" boolean DEFAULT false NOT NULL,
	"repeat_days" integer DEFAULT 30 NOT NULL,
	CONSTRAINT "failure_code_settings_org_id_pk" PRIMARY KEY("org_id")
);
--> statement-breakpoint
CREATE TABLE "failure_codes" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"kind" text NOT NULL,
	"parent_id" integer,
	"asset_category_id" integer,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "failure_codes_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "problem_code_id" integer;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "cause_code_id" integer;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "remedy_code_id" integer;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "on_hold" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "hold_reason" text;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "hold_note" text;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "held_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "failure_code_settings" ADD CONSTRAINT "failure_code_settings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "failure_codes" ADD CONSTRAINT "failure_codes_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "failure_codes" ADD CONSTRAINT "failure_codes_org_id_parent_id_failure_codes_org_id_id_fk" FOREIGN KEY ("org_id","parent_id") REFERENCES "public"."failure_codes"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "failure_codes" ADD CONSTRAINT "failure_codes_org_id_asset_category_id_asset_categories_org_id_id_fk" FOREIGN KEY ("org_id","asset_category_id") REFERENCES "public"."asset_categories"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "failure_codes_org_parent_idx" ON "failure_codes" USING btree ("org_id","parent_id");--> statement-breakpoint
CREATE INDEX "failure_codes_org_category_idx" ON "failure_codes" USING btree ("org_id","asset_category_id");--> statement-breakpoint
CREATE UNIQUE INDEX "failure_codes_org_place_name_key" ON "failure_codes" USING btree ("org_id","kind",coalesce("parent_id", 0),coalesce("asset_category_id", 0),lower("name"));--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_org_id_problem_code_id_failure_codes_org_id_id_fk" FOREIGN KEY ("org_id","problem_code_id") REFERENCES "public"."failure_codes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_org_id_cause_code_id_failure_codes_org_id_id_fk" FOREIGN KEY ("org_id","cause_code_id") REFERENCES "public"."failure_codes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_org_id_remedy_code_id_failure_codes_org_id_id_fk" FOREIGN KEY ("org_id","remedy_code_id") REFERENCES "public"."failure_codes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_orders_org_asset_problem_idx" ON "work_orders" USING btree ("org_id","asset_id","problem_code_id") WHERE problem_code_id is not null;