-- MTTR's kept histograms (work_order_repair_monthly per asset category, work_order_repair_assignee_monthly per
-- assignee set; decision 038, fifth addendum). work_order_failures_refresh, the one writer of
-- work_order_failures, now also copies each failure's asset category and keeps the histograms:
-- the repairs it is about to delete count -1, those it inserted +1 (an order refreshed without a change nets to
-- zero). An asset moved to another category refreshes its failures. MTBF's per-asset probes become index-only.
CREATE OR REPLACE FUNCTION work_order_repair_monthly_add(p_org int, p_ids int[], p_sign int) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE v_which text := CASE WHEN p_ids IS NULL THEN '' ELSE 'AND work_order_id = ANY($2)' END;
BEGIN
  -- The given orders by their keys (p_ids null: the whole organisation, whose histograms are empty then).
  EXECUTE format($q$
  INSERT INTO work_order_repair_monthly AS m (org_id, month, asset_category_id, bucket, repairs, micros)
  SELECT org_id, date_trunc('month', closed_at AT TIME ZONE 'UTC')::date, asset_category_id, repair_bucket,
    count(*)::int * $3, sum(repair_us)::bigint * $3
  FROM work_order_failures WHERE org_id = $1 AND closed_at IS NOT NULL %s
  GROUP BY 1, 2, 3, 4
  ON CONFLICT ON CONSTRAINT work_order_repair_monthly_key
    DO UPDATE SET repairs = m.repairs + EXCLUDED.repairs, micros = m.micros + EXCLUDED.micros$q$, v_which) USING p_org, p_ids, p_sign;
  EXECUTE format($q$
  INSERT INTO work_order_repair_assignee_monthly AS m (org_id, month, assignees, bucket, repairs, micros)
  SELECT org_id, date_trunc('month', closed_at AT TIME ZONE 'UTC')::date, assignees, repair_bucket,
    count(*)::int * $3, sum(repair_us)::bigint * $3
  FROM work_order_failures WHERE org_id = $1 AND closed_at IS NOT NULL AND cardinality(assignees) > 0 %s
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (org_id, month, assignees, bucket)
    DO UPDATE SET repairs = m.repairs + EXCLUDED.repairs, micros = m.micros + EXCLUDED.micros$q$, v_which) USING p_org, p_ids, p_sign;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_failures_refresh(p_org int, p_ids int[]) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE v_assets int[];
BEGIN
  -- An organisation being deleted (its rows going by cascade) keeps nothing.
  IF NOT EXISTS (SELECT 1 FROM organizations WHERE id = p_org) THEN RETURN; END IF;
  IF p_ids IS NULL THEN
    DELETE FROM work_order_failures WHERE org_id = p_org;
    DELETE FROM work_order_repair_monthly WHERE org_id = p_org;
    DELETE FROM work_order_repair_assignee_monthly WHERE org_id = p_org;
  ELSE
    IF cardinality(p_ids) = 0 THEN RETURN; END IF;
    SELECT coalesce(array_agg(DISTINCT asset_id) FILTER (WHERE asset_id IS NOT NULL), '{}') INTO v_assets
      FROM work_order_failures WHERE org_id = p_org AND work_order_id = ANY(p_ids);
    PERFORM work_order_repair_monthly_add(p_org, p_ids, -1);
    DELETE FROM work_order_failures WHERE org_id = p_org AND work_order_id = ANY(p_ids);
  END IF;
  -- The orders' rows again from the rows (an order no longer reactive and not cancelled gets none). Planned with
  -- its own condition: a shared "p_ids IS NULL OR …" let the planner scan the organisation's whole table for one
  -- order (4 s per work-order write at 1M orders).
  EXECUTE format($q$
  INSERT INTO work_order_failures (org_id, work_order_id, asset_id, created_at, closed_at, assignees, asset_category_id)
  SELECT w.org_id, w.id, w.asset_id, w.created_at, c.closed_at,
    coalesce((SELECT array_agg(wa.user_id ORDER BY wa.user_id) FROM work_order_assignees wa WHERE wa.org_id = w.org_id AND wa.work_order_id = w.id), '{}'),
    a.asset_category_id
  FROM work_orders w
    LEFT JOIN work_order_closures c ON c.org_id = w.org_id AND c.work_order_id = w.id AND c.status = 'completed'
    LEFT JOIN assets a ON a.org_id = w.org_id AND a.id = w.asset_id
  WHERE w.org_id = $1 %s AND w.status <> 'cancelled'
    AND NOT EXISTS (SELECT 1 FROM pm_occurrences o WHERE o.org_id = w.org_id AND o.work_order_id = w.id)$q$,
    CASE WHEN p_ids IS NULL THEN '' ELSE 'AND w.id = ANY($2)' END) USING p_org, p_ids;
  PERFORM work_order_repair_monthly_add(p_org, p_ids, 1);
  IF p_ids IS NOT NULL THEN
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
-- An asset's new category is its failures' (asset_category_id is copied into them).
CREATE OR REPLACE FUNCTION work_order_failures_assets_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM work_order_failures_refresh(x.org_id, x.ids) FROM (
    SELECT n.org_id, array_agg(f.work_order_id) AS ids
    FROM new_rows n JOIN old_rows o ON o.org_id = n.org_id AND o.id = n.id
      JOIN work_order_failures f ON f.org_id = n.org_id AND f.asset_id = n.id
    WHERE o.asset_category_id IS DISTINCT FROM n.asset_category_id
    GROUP BY n.org_id) x;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER work_order_failures_assets_upd AFTER UPDATE ON assets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_failures_assets_updated();--> statement-breakpoint
-- MTBF reads each asset's first and last failure of a range with their running sums: from the index alone.
DROP INDEX work_order_failures_org_asset_idx;--> statement-breakpoint
CREATE INDEX work_order_failures_org_asset_idx ON work_order_failures USING btree (org_id, asset_id, created_at, work_order_id)
  INCLUDE (run_failures, run_intervals, run_interval_hours);--> statement-breakpoint
-- MTTR reads a range's partial months of repairs from the index alone.
DROP INDEX work_order_failures_org_closed_idx;--> statement-breakpoint
CREATE INDEX work_order_failures_org_closed_idx ON work_order_failures USING btree (org_id, closed_at)
  INCLUDE (asset_category_id, assignees, repair_bucket, repair_us) WHERE closed_at IS NOT NULL;--> statement-breakpoint
-- What exists already: the categories and the histograms.
SELECT work_order_failures_refresh(id, NULL) FROM organizations;
