-- When each work order was closed (completed or cancelled), kept in the same transaction as every change by
-- statement triggers with transition tables (as the status counts, migration 0006): analytics reads completion
-- times from an index instead of the history lines (decision 038). An order inserted closed takes its
-- updated_at; a status change to closed takes the transaction's time; reopening removes the row.
CREATE OR REPLACE FUNCTION work_order_closures_insert() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO work_order_closures (org_id, work_order_id, status, closed_at)
    SELECT org_id, id, status, updated_at FROM new_rows WHERE status IN ('completed', 'cancelled')
  ON CONFLICT (org_id, work_order_id) DO NOTHING;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_closures_update() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM work_order_closures c USING new_rows n
    WHERE c.org_id = n.org_id AND c.work_order_id = n.id AND n.status NOT IN ('completed', 'cancelled');
  INSERT INTO work_order_closures AS c (org_id, work_order_id, status, closed_at)
    SELECT n.org_id, n.id, n.status, now() FROM new_rows n JOIN old_rows o ON o.org_id = n.org_id AND o.id = n.id
    WHERE n.status IN ('completed', 'cancelled') AND o.status IS DISTINCT FROM n.status
  ON CONFLICT (org_id, work_order_id) DO UPDATE SET status = EXCLUDED.status, closed_at = EXCLUDED.closed_at;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER work_order_closures_ins AFTER INSERT ON work_orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_closures_insert();--> statement-breakpoint
CREATE TRIGGER work_order_closures_upd AFTER UPDATE ON work_orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_closures_update();--> statement-breakpoint
-- The orders closed already: the time of the history line that closed them, else their last update.
INSERT INTO work_order_closures (org_id, work_order_id, status, closed_at)
  SELECT w.org_id, w.id, w.status, coalesce(a.closed_at, w.updated_at)
  FROM work_orders w
  LEFT JOIN (SELECT org_id, entity_id, changes -> 'status' ->> 'to' AS status, max(created_at) AS closed_at FROM activities
             WHERE entity_type = 'work-order' AND changes -> 'status' ->> 'to' IN ('completed', 'cancelled') GROUP BY 1, 2, 3) a
    ON a.org_id = w.org_id AND a.entity_id = w.id AND a.status = w.status
  WHERE w.status IN ('completed', 'cancelled');
