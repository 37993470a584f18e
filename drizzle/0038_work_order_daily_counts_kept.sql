-- The daily roll-up of work orders created, closed and completed per organisation and UTC day (decision 038),
-- kept in the same transaction as every change by statement triggers with transition tables: on work_orders
-- (created) and on work_order_closures (closed, completed; a deleted order's closure goes by cascade and its
-- trigger). One upsert per day per statement.
CREATE OR REPLACE FUNCTION work_order_daily_created_ins() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO work_order_daily_counts AS c (org_id, day, created)
    SELECT org_id, (created_at AT TIME ZONE 'UTC')::date, count(*)::int FROM new_rows GROUP BY 1, 2
  ON CONFLICT (org_id, day) DO UPDATE SET created = c.created + EXCLUDED.created;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_daily_created_del() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE work_order_daily_counts c SET created = c.created - d.k
    FROM (SELECT org_id, (created_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS k FROM old_rows GROUP BY 1, 2) d
    WHERE c.org_id = d.org_id AND c.day = d.day;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_daily_closed_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO work_order_daily_counts AS c (org_id, day, closed, completed)
    SELECT org_id, day, sum(k)::int, sum(kc)::int FROM (
      SELECT org_id, (closed_at AT TIME ZONE 'UTC')::date AS day, 1 AS k, (status = 'completed')::int AS kc FROM new_rows
      UNION ALL
      SELECT org_id, (closed_at AT TIME ZONE 'UTC')::date, -1, -(status = 'completed')::int FROM old_rows
    ) x GROUP BY 1, 2 HAVING sum(k) <> 0 OR sum(kc) <> 0
  ON CONFLICT (org_id, day) DO UPDATE SET closed = c.closed + EXCLUDED.closed, completed = c.completed + EXCLUDED.completed;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_daily_closed_ins() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO work_order_daily_counts AS c (org_id, day, closed, completed)
    SELECT org_id, (closed_at AT TIME ZONE 'UTC')::date, count(*)::int, count(*) FILTER (WHERE status = 'completed')::int FROM new_rows GROUP BY 1, 2
  ON CONFLICT (org_id, day) DO UPDATE SET closed = c.closed + EXCLUDED.closed, completed = c.completed + EXCLUDED.completed;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_daily_closed_del() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE work_order_daily_counts c SET closed = c.closed - d.k, completed = c.completed - d.kc
    FROM (SELECT org_id, (closed_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS k, count(*) FILTER (WHERE status = 'completed')::int AS kc FROM old_rows GROUP BY 1, 2) d
    WHERE c.org_id = d.org_id AND c.day = d.day;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER work_order_daily_created_ins AFTER INSERT ON work_orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_daily_created_ins();--> statement-breakpoint
CREATE TRIGGER work_order_daily_created_del AFTER DELETE ON work_orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_daily_created_del();--> statement-breakpoint
CREATE TRIGGER work_order_daily_closed_ins AFTER INSERT ON work_order_closures
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_daily_closed_ins();--> statement-breakpoint
CREATE TRIGGER work_order_daily_closed_upd AFTER UPDATE ON work_order_closures
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_daily_closed_change();--> statement-breakpoint
CREATE TRIGGER work_order_daily_closed_del AFTER DELETE ON work_order_closures
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_daily_closed_del();--> statement-breakpoint
-- What exists already.
INSERT INTO work_order_daily_counts (org_id, day, created, closed, completed)
  SELECT org_id, day, sum(created)::int, sum(closed)::int, sum(completed)::int FROM (
    SELECT org_id, (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS created, 0 AS closed, 0 AS completed FROM work_orders GROUP BY 1, 2
    UNION ALL
    SELECT org_id, (closed_at AT TIME ZONE 'UTC')::date, 0, count(*), count(*) FILTER (WHERE status = 'completed') FROM work_order_closures GROUP BY 1, 2
  ) x GROUP BY 1, 2;
