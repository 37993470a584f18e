-- Reactive, not cancelled work orders, one row each (work_order_failures, decision 038, second addendum): MTTR's
-- repairs (those completed) and MTBF's failures with the asset's previous failure, so neither reads a year of
-- orders nor sorts them per asset. Kept by statement triggers: every change that can move a row calls
-- work_order_failures_refresh(org, ids), which builds those orders' rows again from the rows (an order that is
-- no longer a reactive, not cancelled one loses its row), then the previous-failure columns of every asset
-- those orders counted for before or after. p_ids null: the whole organisation (migration, benchmark generator).
CREATE OR REPLACE FUNCTION work_order_failures_refresh(p_org int, p_ids int[]) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE v_assets int[];
BEGIN
  -- An organisation being deleted (its rows going by cascade) keeps nothing.
  IF NOT EXISTS (SELECT 1 FROM organizations WHERE id = p_org) THEN RETURN; END IF;
  -- Two branches, each with plain conditions: a shared "p_ids IS NULL OR …" let the planner scan the
  -- organisation's whole table for one order (4 s per work-order write at 1M orders).
  IF p_ids IS NULL THEN
    DELETE FROM work_order_failures WHERE org_id = p_org;
    INSERT INTO work_order_failures (org_id, work_order_id, asset_id, created_at, closed_at, assignees)
    SELECT w.org_id, w.id, w.asset_id, w.created_at, c.closed_at,
      coalesce((SELECT array_agg(wa.user_id ORDER BY wa.user_id) FROM work_order_assignees wa WHERE wa.org_id = w.org_id AND wa.work_order_id = w.id), '{}')
    FROM work_orders w
      LEFT JOIN work_order_closures c ON c.org_id = w.org_id AND c.work_order_id = w.id AND c.status = 'completed'
    WHERE w.org_id = p_org AND w.status <> 'cancelled'
      AND NOT EXISTS (SELECT 1 FROM pm_occurrences o WHERE o.org_id = w.org_id AND o.work_order_id = w.id);
  ELSE
    IF cardinality(p_ids) = 0 THEN RETURN; END IF;
    SELECT coalesce(array_agg(DISTINCT asset_id) FILTER (WHERE asset_id IS NOT NULL), '{}') INTO v_assets
      FROM work_order_failures WHERE org_id = p_org AND work_order_id = ANY(p_ids);
    DELETE FROM work_order_failures WHERE org_id = p_org AND work_order_id = ANY(p_ids);
    INSERT INTO work_order_failures (org_id, work_order_id, asset_id, created_at, closed_at, assignees)
    SELECT w.org_id, w.id, w.asset_id, w.created_at, c.closed_at,
      coalesce((SELECT array_agg(wa.user_id ORDER BY wa.user_id) FROM work_order_assignees wa WHERE wa.org_id = w.org_id AND wa.work_order_id = w.id), '{}')
    FROM work_orders w
      LEFT JOIN work_order_closures c ON c.org_id = w.org_id AND c.work_order_id = w.id AND c.status = 'completed'
    WHERE w.org_id = p_org AND w.id = ANY(p_ids) AND w.status <> 'cancelled'
      AND NOT EXISTS (SELECT 1 FROM pm_occurrences o WHERE o.org_id = w.org_id AND o.work_order_id = w.id);
    SELECT array(SELECT unnest(v_assets) UNION SELECT asset_id FROM work_order_failures
        WHERE org_id = p_org AND work_order_id = ANY(p_ids) AND asset_id IS NOT NULL) INTO v_assets;
  END IF;
  IF p_ids IS NOT NULL AND cardinality(v_assets) = 0 THEN RETURN; END IF;
  -- Each failure's previous one on the same asset (by creation, then id) and the running sums along the chain:
  -- failures, intervals (a previous one that is completed) and their hours, for the assets' whole chains. Only
  -- rows that change are written.
  EXECUTE format($q$
  UPDATE work_order_failures f SET prev_created_at = y.pc, prev_closed_at = y.pcl,
      run_failures = y.rf, run_intervals = y.ri, run_interval_hours = y.rh
  FROM (SELECT work_order_id, pc, pcl, row_number() OVER w AS rf, count(gap) OVER w AS ri, coalesce(sum(gap) OVER w, 0) AS rh
      FROM (SELECT work_order_id, asset_id, created_at, pc, pcl,
            -- greatest() skips a null: an interval only where the previous failure is completed.
            CASE WHEN pcl IS NOT NULL THEN greatest(0, date_part('epoch', created_at - pcl) / 3600.0::float8) END AS gap
          FROM (SELECT work_order_id, asset_id, created_at, lag(created_at) OVER c AS pc, lag(closed_at) OVER c AS pcl FROM work_order_failures
              WHERE org_id = $1 AND asset_id IS NOT NULL %s
              WINDOW c AS (PARTITION BY asset_id ORDER BY created_at, work_order_id)) x) g
      WINDOW w AS (PARTITION BY asset_id ORDER BY created_at, work_order_id ROWS UNBOUNDED PRECEDING)) y
  WHERE f.org_id = $1 AND f.work_order_id = y.work_order_id
    AND (f.prev_created_at IS DISTINCT FROM y.pc OR f.prev_closed_at IS DISTINCT FROM y.pcl OR f.run_failures IS DISTINCT FROM y.rf
      OR f.run_intervals IS DISTINCT FROM y.ri OR f.run_interval_hours IS DISTINCT FROM y.rh)$q$,
    -- The touched assets by a hashed lookup (every asset on a full refresh).
    CASE WHEN p_ids IS NULL THEN '' ELSE 'AND asset_id IN (SELECT unnest($2))' END) USING p_org, v_assets;
END $fn$;--> statement-breakpoint
-- Rows naming a work order: orders inserted or deleted, closures, occurrences, assignments.
CREATE OR REPLACE FUNCTION work_order_failures_of_orders() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM work_order_failures_refresh(org_id, array_agg(DISTINCT id)) FROM changed GROUP BY org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_failures_of_rows() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM work_order_failures_refresh(org_id, array_agg(DISTINCT work_order_id)) FROM changed WHERE work_order_id IS NOT NULL GROUP BY org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
-- An order's update moves its row when its asset or creation time changes. A status change that matters (to or
-- from cancelled, to or from completed) changes the order's closure, whose triggers refresh it; between open
-- states nothing here moves.
CREATE OR REPLACE FUNCTION work_order_failures_orders_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM work_order_failures_refresh(n.org_id, array_agg(n.id))
    FROM new_rows n JOIN old_rows o ON o.org_id = n.org_id AND o.id = n.id
    WHERE o.asset_id IS DISTINCT FROM n.asset_id OR o.created_at IS DISTINCT FROM n.created_at
    GROUP BY n.org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER work_order_failures_wo_ins AFTER INSERT ON work_orders REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_orders();--> statement-breakpoint
CREATE TRIGGER work_order_failures_wo_upd AFTER UPDATE ON work_orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_orders_updated();--> statement-breakpoint
CREATE TRIGGER work_order_failures_wo_del AFTER DELETE ON work_orders REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_orders();--> statement-breakpoint
CREATE TRIGGER work_order_failures_closures_ins AFTER INSERT ON work_order_closures REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_failures_closures_upd AFTER UPDATE ON work_order_closures REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_failures_closures_del AFTER DELETE ON work_order_closures REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_failures_occurrences_ins AFTER INSERT ON pm_occurrences REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_failures_occurrences_upd_old AFTER UPDATE ON pm_occurrences REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_failures_occurrences_upd_new AFTER UPDATE ON pm_occurrences REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_failures_occurrences_del AFTER DELETE ON pm_occurrences REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_failures_assignees_ins AFTER INSERT ON work_order_assignees REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_failures_assignees_upd_old AFTER UPDATE ON work_order_assignees REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_failures_assignees_upd_new AFTER UPDATE ON work_order_assignees REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_failures_assignees_del AFTER DELETE ON work_order_assignees REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_of_rows();--> statement-breakpoint
-- What exists already.
SELECT work_order_failures_refresh(id, NULL) FROM organizations;
