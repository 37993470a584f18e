ALTER TABLE "portal_requests" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "work_order_shares" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;