DROP TABLE "work_order_asset_monthly" CASCADE;--> statement-breakpoint
DROP TABLE "work_order_cost_daily" CASCADE;--> statement-breakpoint
DROP TABLE "work_order_daily_counts" CASCADE;--> statement-breakpoint
DROP TABLE "work_order_failures" CASCADE;--> statement-breakpoint
DROP TABLE "work_order_open_daily" CASCADE;--> statement-breakpoint
DROP TABLE "work_order_quoted_actuals" CASCADE;--> statement-breakpoint
DROP TABLE "work_order_reason_daily" CASCADE;--> statement-breakpoint
DROP TABLE "work_order_repair_assignee_monthly" CASCADE;--> statement-breakpoint
DROP TABLE "work_order_repair_monthly" CASCADE;--> statement-breakpoint
DROP TABLE "work_order_station_daily" CASCADE;--> statement-breakpoint
ALTER TABLE "work_order_labors" ADD COLUMN "rate_minor" integer;--> statement-breakpoint
ALTER TABLE "work_order_parts" ADD COLUMN "unit_price_minor" bigint;