-- Exact counts per organisation and status, kept in the same transaction as the change (docs/decisions/004).
-- Statement triggers with transition tables: one upsert per (org, status) per statement, so bulk loads stay cheap.
CREATE OR REPLACE FUNCTION work_order_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO work_order_status_counts AS c (org_id, status, n)
    SELECT org_id, status, count(*)::int FROM new_rows GROUP BY org_id, status
  ON CONFLICT (org_id, status) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE work_order_status_counts c SET n = c.n - d.k
    FROM (SELECT org_id, status, count(*)::int AS k FROM old_rows GROUP BY org_id, status) d
    WHERE c.org_id = d.org_id AND c.status = d.status;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_counts_update() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  WITH moved AS (
    SELECT o.org_id, o.status AS old_status, n.status AS new_status
    FROM old_rows o JOIN new_rows n ON n.org_id = o.org_id AND n.id = o.id
    WHERE o.status IS DISTINCT FROM n.status
  ), delta AS (
    SELECT org_id, status, sum(k)::int AS k FROM (
      SELECT org_id, old_status AS status, -1 AS k FROM moved
      UNION ALL
      SELECT org_id, new_status AS status, 1 AS k FROM moved
    ) x GROUP BY org_id, status
  )
  INSERT INTO work_order_status_counts AS c (org_id, status, n)
    SELECT org_id, status, k FROM delta
  ON CONFLICT (org_id, status) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER work_order_counts_ins AFTER INSERT ON work_orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_counts_insert();--> statement-breakpoint
CREATE TRIGGER work_order_counts_del AFTER DELETE ON work_orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_counts_delete();--> statement-breakpoint
CREATE TRIGGER work_order_counts_upd AFTER UPDATE ON work_orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_counts_update();
