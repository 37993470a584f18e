CREATE TABLE "audit_heads" (
	"org_id" integer NOT NULL,
	"last_seq" integer DEFAULT 0 NOT NULL,
	"last_hash" text DEFAULT '' NOT NULL,
	"retention_months" integer,
	"anchor_seq" integer DEFAULT 0 NOT NULL,
	"anchor_hash" text DEFAULT '' NOT NULL,
	"anchor_signature" text,
	"anchor_at" timestamp with time zone,
	CONSTRAINT "audit_heads_org_id_pk" PRIMARY KEY("org_id")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"org_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"actor_kind" text NOT NULL,
	"user_id" integer,
	"api_key_id" integer,
	"actor_label" text,
	"ip" text,
	"user_agent" text,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text,
	"entity_id" integer,
	"records" jsonb NOT NULL,
	"input" jsonb,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_log_org_id_seq_pk" PRIMARY KEY("org_id","seq")
);
--> statement-breakpoint
ALTER TABLE "audit_heads" ADD CONSTRAINT "audit_heads_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_org_created_idx" ON "audit_log" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_org_entity_idx" ON "audit_log" USING btree ("org_id","entity_type","entity_id");