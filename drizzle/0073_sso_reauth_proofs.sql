CREATE TABLE "sso_reauth_proofs" (
	"org_id" integer NOT NULL,
	"proof_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"work_order_id" integer NOT NULL,
	"step_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sso_reauth_proofs_org_id_proof_hash_pk" PRIMARY KEY("org_id","proof_hash")
);
--> statement-breakpoint
ALTER TABLE "sso_reauth_proofs" ADD CONSTRAINT "sso_reauth_proofs_org_id_user_id_users_org_id_id_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;