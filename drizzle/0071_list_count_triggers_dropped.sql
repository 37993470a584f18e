-- Decision 086: the work-order and request lists count their rows; the statement triggers that kept
-- per-status, per-priority, per-due-day and per-request-state counts go, with their functions (the tables
-- themselves are dropped by the next migration). work_order_closures and org_scoped_id stay.
DROP TRIGGER IF EXISTS work_order_counts_ins ON work_orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS work_order_counts_del ON work_orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS work_order_counts_upd ON work_orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS work_order_priority_counts_ins ON work_orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS work_order_priority_counts_del ON work_orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS work_order_priority_counts_upd ON work_orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS work_order_open_due_day_counts_ins ON work_orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS work_order_open_due_day_counts_del ON work_orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS work_order_open_due_day_counts_upd ON work_orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS maintenance_request_counts_ins ON maintenance_requests;--> statement-breakpoint
DROP TRIGGER IF EXISTS maintenance_request_counts_del ON maintenance_requests;--> statement-breakpoint
DROP TRIGGER IF EXISTS maintenance_request_counts_upd ON maintenance_requests;--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_counts_insert();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_counts_delete();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_counts_update();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_priority_counts_insert();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_priority_counts_delete();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_priority_counts_update();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_open_due_day_counts_insert();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_open_due_day_counts_delete();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_open_due_day_counts_update();--> statement-breakpoint
DROP FUNCTION IF EXISTS maintenance_request_counts_insert();--> statement-breakpoint
DROP FUNCTION IF EXISTS maintenance_request_counts_delete();--> statement-breakpoint
DROP FUNCTION IF EXISTS maintenance_request_counts_update();
