ALTER TABLE "organizations" ADD COLUMN "tax_rounding" text DEFAULT 'round_per_line' NOT NULL;--> statement-breakpoint
ALTER TABLE "taxes" ADD COLUMN "sequence" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "taxes" ADD COLUMN "include_base_amount" boolean DEFAULT false NOT NULL;