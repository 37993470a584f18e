-- Exact work order counts per organisation, status and priority, kept in the same transaction as every change
-- (as work_order_status_counts, migration 0006): the "Total Pending" and "High Priority Pending" cards without
-- counting an organisation's orders. Statement triggers with transition tables: one upsert per group per statement.
CREATE OR REPLACE FUNCTION work_order_priority_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO work_order_priority_counts AS c (org_id, status, priority, n)
    SELECT org_id, status, priority, count(*)::int FROM new_rows GROUP BY 1, 2, 3
  ON CONFLICT (org_id, status, priority) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_priority_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE work_order_priority_counts c SET n = c.n - d.k
    FROM (SELECT org_id, status, priority, count(*)::int AS k FROM old_rows GROUP BY 1, 2, 3) d
    WHERE c.org_id = d.org_id AND c.status = d.status AND c.priority = d.priority;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_priority_counts_update() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO work_order_priority_counts AS c (org_id, status, priority, n)
    SELECT org_id, status, priority, sum(k)::int FROM (
      SELECT org_id, status, priority, -1 AS k FROM old_rows
      UNION ALL
      SELECT org_id, status, priority, 1 AS k FROM new_rows
    ) x GROUP BY 1, 2, 3 HAVING sum(k) <> 0
  ON CONFLICT (org_id, status, priority) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER work_order_priority_counts_ins AFTER INSERT ON work_orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_priority_counts_insert();--> statement-breakpoint
CREATE TRIGGER work_order_priority_counts_del AFTER DELETE ON work_orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_priority_counts_delete();--> statement-breakpoint
CREATE TRIGGER work_order_priority_counts_upd AFTER UPDATE ON work_orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_priority_counts_update();--> statement-breakpoint
-- The orders that exist already.
INSERT INTO work_order_priority_counts (org_id, status, priority, n)
  SELECT org_id, status, priority, count(*)::int FROM work_orders GROUP BY 1, 2, 3;
