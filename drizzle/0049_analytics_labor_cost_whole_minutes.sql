-- The labour and parts roll-ups cost a labour row with laborCostMinor's formula (work-orders.service.ts: whole
-- minutes, rounded, x the hourly rate / 60, rounded per row), as laborRows does with a filter: 0039 and 0042 took
-- the exact hours, so a row not on a whole minute cost differently with and without a filter. Only that line
-- changes; every organisation's days are computed again.
CREATE OR REPLACE FUNCTION analytics_daily_refresh(p_org int, p_days date[]) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  lo timestamptz := '-infinity'; hi timestamptz := 'infinity';
  v_months date[]; v_assets int[]; v_null boolean; mlo date := '-infinity'; mhi date := 'infinity';
BEGIN
  -- An organisation being deleted (its rows going by cascade) keeps nothing.
  IF NOT EXISTS (SELECT 1 FROM organizations WHERE id = p_org) THEN RETURN; END IF;
  IF p_days IS NOT NULL THEN
    IF cardinality(p_days) = 0 THEN RETURN; END IF;
    SELECT min(d)::timestamp AT TIME ZONE 'UTC', (max(d) + 1)::timestamp AT TIME ZONE 'UTC', array_agg(DISTINCT date_trunc('month', d)::date),
        min(date_trunc('month', d))::date, (max(date_trunc('month', d)) + interval '1 month')::date
      INTO lo, hi, v_months, mlo, mhi FROM unnest(p_days) d;
    -- The assets the days counted for before this refresh.
    SELECT array_agg(DISTINCT asset_id) FILTER (WHERE asset_id IS NOT NULL), coalesce(bool_or(asset_id IS NULL), false)
      INTO v_assets, v_null FROM work_order_cost_daily WHERE org_id = p_org AND day = ANY(p_days);
  END IF;
  DELETE FROM work_order_cost_daily WHERE org_id = p_org AND (p_days IS NULL OR day = ANY(p_days));
  DELETE FROM work_order_station_daily WHERE org_id = p_org AND (p_days IS NULL OR day = ANY(p_days));
  DELETE FROM work_order_reason_daily WHERE org_id = p_org AND (p_days IS NULL OR day = ANY(p_days));
  WITH items AS MATERIALIZED (
    SELECT (l.start_date AT TIME ZONE 'UTC')::date AS day, l.work_order_id, w.asset_id, l.reason_id,
      EXISTS (SELECT 1 FROM pm_occurrences o WHERE o.org_id = w.org_id AND o.work_order_id = w.id) AS planned,
      extract(epoch FROM (l.end_date - l.start_date)) / 3600.0 AS hours,
      round(round(extract(epoch FROM (l.end_date - l.start_date)) / 60) * coalesce(l.external_rate_minor, u.hourly_rate) / 60.0) AS cost,
      0::numeric AS parts_major, 0::numeric AS parts_minor
    FROM work_order_labors l JOIN work_orders w ON w.org_id = l.org_id AND w.id = l.work_order_id
      LEFT JOIN users u ON u.org_id = l.org_id AND u.id = l.worker_id
    WHERE l.org_id = p_org AND l.start_date >= lo AND l.start_date < hi AND (p_days IS NULL OR (l.start_date AT TIME ZONE 'UTC')::date = ANY(p_days))
    UNION ALL
    SELECT (wp.created_at AT TIME ZONE 'UTC')::date, wp.work_order_id, w.asset_id, NULL,
      EXISTS (SELECT 1 FROM pm_occurrences o WHERE o.org_id = w.org_id AND o.work_order_id = w.id),
      0, 0,
      CASE WHEN wp.external_unit_price_minor IS NULL THEN wp.quantity * p.sales_price ELSE 0 END,
      coalesce(wp.quantity::numeric * wp.external_unit_price_minor, 0)
    FROM work_order_parts wp JOIN work_orders w ON w.org_id = wp.org_id AND w.id = wp.work_order_id
      LEFT JOIN parts p ON p.org_id = wp.org_id AND p.id = wp.part_id
    WHERE wp.org_id = p_org AND wp.created_at >= lo AND wp.created_at < hi AND (p_days IS NULL OR (wp.created_at AT TIME ZONE 'UTC')::date = ANY(p_days))
  ), by_asset AS (
    INSERT INTO work_order_cost_daily (org_id, day, asset_id, reason_id, planned, hours, labor_cost, unrated_hours, parts_major, parts_minor)
    SELECT p_org, day, asset_id, reason_id, planned, sum(hours), sum(coalesce(cost, 0)), sum(CASE WHEN cost IS NULL THEN hours ELSE 0 END), sum(parts_major), sum(parts_minor)
    FROM items GROUP BY day, asset_id, reason_id, planned
  ), by_reason AS (
    INSERT INTO work_order_reason_daily (org_id, day, reason_id, planned, hours, labor_cost, unrated_hours, parts_major, parts_minor)
    SELECT p_org, day, reason_id, planned, sum(hours), sum(coalesce(cost, 0)), sum(CASE WHEN cost IS NULL THEN hours ELSE 0 END), sum(parts_major), sum(parts_minor)
    FROM items GROUP BY day, reason_id, planned
  )
  INSERT INTO work_order_station_daily (org_id, day, work_station_id, reason_id, hours, labor_cost, unrated_hours, parts_major, parts_minor)
  SELECT p_org, i.day, st.ws, i.reason_id, sum(i.hours), sum(coalesce(i.cost, 0)), sum(CASE WHEN i.cost IS NULL THEN i.hours ELSE 0 END), sum(i.parts_major), sum(i.parts_minor)
  FROM items i LEFT JOIN LATERAL (
      SELECT p.work_station_id AS ws FROM pm_occurrences o JOIN pm_plans p ON p.org_id = o.org_id AND p.id = o.plan_id
        WHERE o.org_id = p_org AND o.work_order_id = i.work_order_id AND p.work_station_id IS NOT NULL
      UNION SELECT s.work_station_id FROM work_order_assignees wa JOIN user_work_stations s ON s.org_id = wa.org_id AND s.user_id = wa.user_id
        WHERE wa.org_id = p_org AND wa.work_order_id = i.work_order_id) st ON true
  GROUP BY i.day, st.ws, i.reason_id;
  -- The asset-months: every one (full refresh), else those of the days' months and of the assets the days
  -- counted for before or after, summed again from the daily rows.
  IF p_days IS NULL THEN
    DELETE FROM work_order_asset_monthly WHERE org_id = p_org;
  ELSE
    SELECT array(SELECT unnest(v_assets) UNION SELECT asset_id FROM work_order_cost_daily WHERE org_id = p_org AND day = ANY(p_days) AND asset_id IS NOT NULL),
        v_null OR EXISTS (SELECT 1 FROM work_order_cost_daily WHERE org_id = p_org AND day = ANY(p_days) AND asset_id IS NULL)
      INTO v_assets, v_null;
    -- IN (SELECT unnest(…)): a hashed lookup; `= ANY(array)` compared every row with each of a busy day's ~1,000 assets.
    DELETE FROM work_order_asset_monthly WHERE org_id = p_org AND month = ANY(v_months)
      AND (asset_id IN (SELECT unnest(v_assets)) OR (v_null AND asset_id IS NULL));
  END IF;
  INSERT INTO work_order_asset_monthly (org_id, month, asset_id, reason_id, hours, labor_cost, unrated_hours, parts_major, parts_minor)
  SELECT p_org, date_trunc('month', d.day)::date, d.asset_id, d.reason_id, sum(d.hours), sum(d.labor_cost), sum(d.unrated_hours), sum(d.parts_major), sum(d.parts_minor)
  FROM work_order_cost_daily d
  WHERE d.org_id = p_org AND d.day >= mlo AND d.day < mhi AND (p_days IS NULL OR (date_trunc('month', d.day)::date = ANY(v_months)
    AND (d.asset_id IN (SELECT unnest(v_assets)) OR (v_null AND d.asset_id IS NULL))))
  GROUP BY 2, 3, 4;
END $fn$;--> statement-breakpoint
-- What exists already.
SELECT analytics_daily_refresh(id, NULL) FROM organizations;
