ALTER TABLE "parts" ALTER COLUMN "sales_price" SET DATA TYPE numeric(16, 4);--> statement-breakpoint
ALTER TABLE "services" ALTER COLUMN "price" SET DATA TYPE numeric(16, 4);--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "tax_rounding" text DEFAULT 'round_per_line' NOT NULL;--> statement-breakpoint
ALTER TABLE "taxes" ADD COLUMN "sequence" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "taxes" ADD COLUMN "include_base_amount" boolean DEFAULT false NOT NULL;