DROP INDEX "work_orders_org_title_trgm_idx";--> statement-breakpoint
CREATE INDEX "work_orders_title_trgm_idx" ON "work_orders" USING gin ("title" gin_trgm_ops);