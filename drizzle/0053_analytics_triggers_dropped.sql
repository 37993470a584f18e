-- Analytics from the rows (issue 39, decision 063): every figure is plain SQL over work orders, closures, labour
-- and parts, so the triggers that kept its roll-ups (migrations 0038, 0039, 0044, 0046, 0048, 0049, 0050, 0051)
-- and their functions go; the next migration drops the roll-up tables. Kept: org_scoped_id (numbering), the
-- rights NOTIFY (cmms_rights), the work-order and request counts of the lists' cards, and work_order_closures'
-- two triggers (the instant an order closed, a fact no column holds).
DROP TRIGGER IF EXISTS "work_order_failures_assets_upd" ON "assets";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_parts_catalogue_upd" ON "parts";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_quoted_parts_catalogue_upd" ON "parts";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_occurrences_del" ON "pm_occurrences";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_occurrences_ins" ON "pm_occurrences";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_occurrences_upd_new" ON "pm_occurrences";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_occurrences_upd_old" ON "pm_occurrences";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_occurrences_del" ON "pm_occurrences";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_occurrences_ins" ON "pm_occurrences";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_occurrences_upd_new" ON "pm_occurrences";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_occurrences_upd_old" ON "pm_occurrences";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_plans_upd" ON "pm_plans";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_user_stations_del" ON "user_work_stations";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_user_stations_ins" ON "user_work_stations";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_users_upd" ON "users";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_quoted_users_upd" ON "users";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_assignees_del" ON "work_order_assignees";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_assignees_ins" ON "work_order_assignees";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_assignees_del" ON "work_order_assignees";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_assignees_ins" ON "work_order_assignees";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_assignees_upd_new" ON "work_order_assignees";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_assignees_upd_old" ON "work_order_assignees";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_daily_closed_del" ON "work_order_closures";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_daily_closed_ins" ON "work_order_closures";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_daily_closed_upd" ON "work_order_closures";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_closures_del" ON "work_order_closures";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_closures_ins" ON "work_order_closures";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_closures_upd" ON "work_order_closures";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_labor_del" ON "work_order_labors";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_labor_ins" ON "work_order_labors";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_labor_upd_new" ON "work_order_labors";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_labor_upd_old" ON "work_order_labors";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_quoted_labor_del" ON "work_order_labors";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_quoted_labor_ins" ON "work_order_labors";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_quoted_labor_upd_new" ON "work_order_labors";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_quoted_labor_upd_old" ON "work_order_labors";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_parts_del" ON "work_order_parts";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_parts_ins" ON "work_order_parts";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_parts_upd_new" ON "work_order_parts";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_parts_upd_old" ON "work_order_parts";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_quoted_parts_del" ON "work_order_parts";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_quoted_parts_ins" ON "work_order_parts";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_quoted_parts_upd_new" ON "work_order_parts";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_quoted_parts_upd_old" ON "work_order_parts";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_work_orders_del" ON "work_orders";--> statement-breakpoint
DROP TRIGGER IF EXISTS "analytics_work_orders_upd" ON "work_orders";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_daily_created_del" ON "work_orders";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_daily_created_ins" ON "work_orders";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_wo_del" ON "work_orders";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_wo_ins" ON "work_orders";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_failures_wo_upd" ON "work_orders";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_open_del" ON "work_orders";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_open_ins" ON "work_orders";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_open_upd" ON "work_orders";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_quoted_wo_ins" ON "work_orders";--> statement-breakpoint
DROP TRIGGER IF EXISTS "work_order_quoted_wo_upd" ON "work_orders";--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_assignees_changed();--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_daily_refresh(integer, date[]);--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_days_of_orders(integer, integer[]);--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_labor_changed();--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_occurrences_changed();--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_parts_changed();--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_parts_updated();--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_plans_updated();--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_user_stations_changed();--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_users_updated();--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_work_orders_deleted();--> statement-breakpoint
DROP FUNCTION IF EXISTS analytics_work_orders_updated();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_daily_closed_change();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_daily_closed_del();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_daily_closed_ins();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_daily_created_del();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_daily_created_ins();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_daily_planned_refresh(integer, date[]);--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_failures_assets_updated();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_failures_of_orders();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_failures_of_rows();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_failures_orders_updated();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_failures_refresh(integer, integer[]);--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_open_changed();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_open_daily_refresh();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_quoted_labor(integer, integer);--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_quoted_of_rows();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_quoted_orders_inserted();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_quoted_orders_updated();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_quoted_parts(integer, integer);--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_quoted_parts_updated();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_quoted_refresh(integer, integer[]);--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_quoted_users_updated();--> statement-breakpoint
DROP FUNCTION IF EXISTS work_order_repair_monthly_add(integer, integer[], integer);
