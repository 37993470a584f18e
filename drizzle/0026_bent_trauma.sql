CREATE TABLE "procedure_steps" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"procedure_id" integer NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"unit" text,
	"min" double precision,
	"max" double precision,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"follow_up_on_failure" boolean DEFAULT false NOT NULL,
	CONSTRAINT "procedure_steps_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "procedures" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "procedures_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "work_order_procedure_steps" (
	"org_id" integer NOT NULL,
	"id" integer DEFAULT NULL NOT NULL,
	"work_order_id" integer NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"unit" text,
	"min" double precision,
	"max" double precision,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"follow_up_on_failure" boolean DEFAULT false NOT NULL,
	"value" jsonb,
	"flagged" boolean DEFAULT false NOT NULL,
	"answered_by_id" integer,
	"answered_at" timestamp with time zone,
	"follow_up_work_order_id" integer,
	CONSTRAINT "work_order_procedure_steps_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "work_order_procedures" (
	"org_id" integer NOT NULL,
	"work_order_id" integer NOT NULL,
	"procedure_id" integer,
	"name" text NOT NULL,
	"description" text,
	"attached_by_id" integer,
	"attached_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_order_procedures_org_id_work_order_id_pk" PRIMARY KEY("org_id","work_order_id")
);
--> statement-breakpoint
ALTER TABLE "procedure_steps" ADD CONSTRAINT "procedure_steps_org_id_procedure_id_procedures_org_id_id_fk" FOREIGN KEY ("org_id","procedure_id") REFERENCES "public"."procedures"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedures" ADD CONSTRAINT "procedures_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_procedure_steps" ADD CONSTRAINT "work_order_procedure_steps_org_id_work_order_id_work_order_procedures_org_id_work_order_id_fk" FOREIGN KEY ("org_id","work_order_id") REFERENCES "public"."work_order_procedures"("org_id","work_order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_procedures" ADD CONSTRAINT "work_order_procedures_org_id_work_order_id_work_orders_org_id_id_fk" FOREIGN KEY ("org_id","work_order_id") REFERENCES "public"."work_orders"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "procedure_steps_procedure_idx" ON "procedure_steps" USING btree ("org_id","procedure_id","position");--> statement-breakpoint
CREATE INDEX "procedures_org_name_idx" ON "procedures" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "work_order_procedure_steps_order_idx" ON "work_order_procedure_steps" USING btree ("org_id","work_order_id","position");