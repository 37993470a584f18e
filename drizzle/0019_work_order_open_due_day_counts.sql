-- Open work orders (assigned, in progress) per organisation and UTC due day, kept in the same transaction as
-- every change (as work_order_priority_counts, migration 0014): "Due in Next 7 Days" adds up the whole days of
-- its window here and counts only its two part days in the open-due index. Statement triggers with transition
-- tables: one upsert per day per statement.
CREATE OR REPLACE FUNCTION work_order_open_due_day_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO work_order_open_due_day_counts AS c (org_id, due_day, n)
    SELECT org_id, (due_date AT TIME ZONE 'UTC')::date, count(*)::int FROM new_rows
    WHERE status IN ('assigned', 'in-progress') AND due_date IS NOT NULL GROUP BY 1, 2
  ON CONFLICT (org_id, due_day) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_open_due_day_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE work_order_open_due_day_counts c SET n = c.n - d.k
    FROM (SELECT org_id, (due_date AT TIME ZONE 'UTC')::date AS due_day, count(*)::int AS k FROM old_rows
          WHERE status IN ('assigned', 'in-progress') AND due_date IS NOT NULL GROUP BY 1, 2) d
    WHERE c.org_id = d.org_id AND c.due_day = d.due_day;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_open_due_day_counts_update() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO work_order_open_due_day_counts AS c (org_id, due_day, n)
    SELECT org_id, due_day, sum(k)::int FROM (
      SELECT org_id, (due_date AT TIME ZONE 'UTC')::date AS due_day, -1 AS k FROM old_rows
        WHERE status IN ('assigned', 'in-progress') AND due_date IS NOT NULL
      UNION ALL
      SELECT org_id, (due_date AT TIME ZONE 'UTC')::date AS due_day, 1 AS k FROM new_rows
        WHERE status IN ('assigned', 'in-progress') AND due_date IS NOT NULL
    ) x GROUP BY 1, 2 HAVING sum(k) <> 0
  ON CONFLICT (org_id, due_day) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER work_order_open_due_day_counts_ins AFTER INSERT ON work_orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_open_due_day_counts_insert();--> statement-breakpoint
CREATE TRIGGER work_order_open_due_day_counts_del AFTER DELETE ON work_orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_open_due_day_counts_delete();--> statement-breakpoint
CREATE TRIGGER work_order_open_due_day_counts_upd AFTER UPDATE ON work_orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_open_due_day_counts_update();--> statement-breakpoint
-- The orders that exist already.
INSERT INTO work_order_open_due_day_counts (org_id, due_day, n)
  SELECT org_id, (due_date AT TIME ZONE 'UTC')::date, count(*)::int FROM work_orders
  WHERE status IN ('assigned', 'in-progress') AND due_date IS NOT NULL GROUP BY 1, 2;
