DROP INDEX "customer_vendors_name_trgm_idx";--> statement-breakpoint
DROP INDEX "customer_vendors_email_trgm_idx";--> statement-breakpoint
CREATE INDEX "customer_vendors_org_name_trgm_idx" ON "customer_vendors" USING gin ("org_id","name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customer_vendors_org_email_trgm_idx" ON "customer_vendors" USING gin ("org_id","email" gin_trgm_ops);