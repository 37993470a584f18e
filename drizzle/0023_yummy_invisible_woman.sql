ALTER TABLE "parts" ALTER COLUMN "sales_price" SET DATA TYPE numeric(16, 4);--> statement-breakpoint
ALTER TABLE "services" ALTER COLUMN "price" SET DATA TYPE numeric(16, 4);