DROP TABLE "maintenance_request_counts" CASCADE;--> statement-breakpoint
DROP TABLE "work_order_open_due_day_counts" CASCADE;--> statement-breakpoint
DROP TABLE "work_order_priority_counts" CASCADE;--> statement-breakpoint
DROP TABLE "work_order_status_counts" CASCADE;