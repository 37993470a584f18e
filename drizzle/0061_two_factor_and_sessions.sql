CREATE TABLE "two_factor_enrolments" (
	"org_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"secret_cipher" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_step" integer,
	"recovery_hashes" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "two_factor_enrolments_org_id_user_id_pk" PRIMARY KEY("org_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "two_factor_policies" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"required" text DEFAULT 'off' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "ip_address" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "two_factor_enrolments" ADD CONSTRAINT "two_factor_enrolments_org_id_user_id_users_org_id_id_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("org_id","user_id");