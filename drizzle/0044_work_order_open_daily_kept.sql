-- Open work orders per organisation and UTC day of creation and of due date (decision 038, addendum), kept by
-- statement triggers on work_orders with transition tables: each changed row counts +1 where it is open now and
-- -1 where it was open before (an update that moves nothing nets to zero and writes nothing). One function for
-- the three events: the rows are read from whichever of new_rows and old_rows the event has.
CREATE OR REPLACE FUNCTION work_order_open_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE src text; sign int;
BEGIN
  FOR src, sign IN SELECT t, s FROM (VALUES ('new_rows', 1), ('old_rows', -1)) v(t, s)
      WHERE (t = 'new_rows' AND TG_OP <> 'DELETE') OR (t = 'old_rows' AND TG_OP <> 'INSERT') LOOP
    EXECUTE format($q$
      INSERT INTO work_order_open_daily AS c (org_id, day, created_open, due_open)
      SELECT org_id, day, sum(kc)::int * %1$s, sum(kd)::int * %1$s FROM (
          SELECT org_id, (created_at AT TIME ZONE 'UTC')::date AS day, 1 AS kc, 0 AS kd FROM %2$I WHERE status IN ('assigned', 'in-progress')
          UNION ALL
          SELECT org_id, (due_date AT TIME ZONE 'UTC')::date, 0, 1 FROM %2$I WHERE status IN ('assigned', 'in-progress') AND due_date IS NOT NULL) x
        -- An organisation being deleted (its orders going by cascade) keeps nothing.
        WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = x.org_id)
        GROUP BY org_id, day
      ON CONFLICT (org_id, day) DO UPDATE SET created_open = c.created_open + EXCLUDED.created_open, due_open = c.due_open + EXCLUDED.due_open$q$, sign, src);
  END LOOP;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER work_order_open_ins AFTER INSERT ON work_orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_open_changed();--> statement-breakpoint
CREATE TRIGGER work_order_open_upd AFTER UPDATE ON work_orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_open_changed();--> statement-breakpoint
CREATE TRIGGER work_order_open_del AFTER DELETE ON work_orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_open_changed();--> statement-breakpoint
-- Every organisation's counts from its rows (the migration and the benchmark generator, which loads with triggers off).
CREATE OR REPLACE FUNCTION work_order_open_daily_refresh() RETURNS void LANGUAGE sql AS $fn$
  DELETE FROM work_order_open_daily;
  INSERT INTO work_order_open_daily (org_id, day, created_open, due_open)
    SELECT org_id, day, sum(kc)::int, sum(kd)::int FROM (
      SELECT org_id, (created_at AT TIME ZONE 'UTC')::date AS day, 1 AS kc, 0 AS kd FROM work_orders WHERE status IN ('assigned', 'in-progress')
      UNION ALL
      SELECT org_id, (due_date AT TIME ZONE 'UTC')::date, 0, 1 FROM work_orders WHERE status IN ('assigned', 'in-progress') AND due_date IS NOT NULL) x
    GROUP BY org_id, day;
$fn$;--> statement-breakpoint
SELECT work_order_open_daily_refresh();
