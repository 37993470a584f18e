-- Work orders linked to a quotation with their actual cost so far (work_order_quoted_actuals, decision 038, third
-- addendum): quoted vs actual reads the range's linked orders from one index instead of probing each order's
-- labour and parts. Kept by statement triggers: every change that can move an order's sums calls
-- work_order_quoted_refresh(org, ids), which builds those orders' rows again from the rows (an order no longer
-- linked loses its row). The formulas are laborRows' and partRows' (analytics.service.ts, laborCostMinor).
-- p_ids null: the whole organisation (migration, benchmark generator).
CREATE OR REPLACE FUNCTION work_order_quoted_refresh(p_org int, p_ids int[]) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  -- An organisation being deleted (its rows going by cascade) keeps nothing.
  IF NOT EXISTS (SELECT 1 FROM organizations WHERE id = p_org) THEN RETURN; END IF;
  -- Two branches with plain conditions (a shared "p_ids IS NULL OR …" can make the planner scan the organisation).
  IF p_ids IS NULL THEN
    DELETE FROM work_order_quoted_actuals WHERE org_id = p_org;
    INSERT INTO work_order_quoted_actuals (org_id, work_order_id, quotation_id, created_at, title, status, labor_cost, unrated_hours, parts_major, parts_minor)
    SELECT w.org_id, w.id, w.quotation_id, w.created_at, w.title, w.status, coalesce(lab.cost, 0), coalesce(lab.unrated, 0), coalesce(par.major, 0), coalesce(par.minor, 0)
    FROM work_orders w
      LEFT JOIN LATERAL work_order_quoted_labor(w.org_id, w.id) lab ON true
      LEFT JOIN LATERAL work_order_quoted_parts(w.org_id, w.id) par ON true
    WHERE w.org_id = p_org AND w.quotation_id IS NOT NULL;
  ELSE
    IF cardinality(p_ids) = 0 THEN RETURN; END IF;
    DELETE FROM work_order_quoted_actuals WHERE org_id = p_org AND work_order_id = ANY(p_ids);
    INSERT INTO work_order_quoted_actuals (org_id, work_order_id, quotation_id, created_at, title, status, labor_cost, unrated_hours, parts_major, parts_minor)
    SELECT w.org_id, w.id, w.quotation_id, w.created_at, w.title, w.status, coalesce(lab.cost, 0), coalesce(lab.unrated, 0), coalesce(par.major, 0), coalesce(par.minor, 0)
    FROM work_orders w
      LEFT JOIN LATERAL work_order_quoted_labor(w.org_id, w.id) lab ON true
      LEFT JOIN LATERAL work_order_quoted_parts(w.org_id, w.id) par ON true
    WHERE w.org_id = p_org AND w.id = ANY(p_ids) AND w.quotation_id IS NOT NULL;
  END IF;
END $fn$;--> statement-breakpoint
-- One order's labour: laborRows' cost (laborCostMinor at the contractor's or the worker's rate, null without one)
-- summed, and the hours without a rate.
CREATE OR REPLACE FUNCTION work_order_quoted_labor(p_org int, p_id int) RETURNS TABLE (cost numeric, unrated numeric) LANGUAGE sql STABLE AS $fn$
  SELECT sum(coalesce(c, 0)), sum(CASE WHEN c IS NULL THEN h ELSE 0 END)
  FROM (SELECT extract(epoch FROM (l.end_date - l.start_date)) / 3600.0 AS h,
      round(round(extract(epoch FROM (l.end_date - l.start_date)) / 60) * coalesce(l.external_rate_minor, u.hourly_rate) / 60.0) AS c
    FROM work_order_labors l LEFT JOIN users u ON u.org_id = l.org_id AND u.id = l.worker_id
    WHERE l.org_id = p_org AND l.work_order_id = p_id) x
$fn$;--> statement-breakpoint
-- One order's parts: catalogue parts as quantity x price in major units (x 10^digits at read time, exact as prices
-- fit the currency's decimals), a contractor's at their unit price in minor units.
CREATE OR REPLACE FUNCTION work_order_quoted_parts(p_org int, p_id int) RETURNS TABLE (major numeric, minor numeric) LANGUAGE sql STABLE AS $fn$
  SELECT sum(CASE WHEN wp.external_unit_price_minor IS NULL THEN wp.quantity * p.sales_price END),
    sum(wp.quantity::numeric * wp.external_unit_price_minor)
  FROM work_order_parts wp LEFT JOIN parts p ON p.org_id = wp.org_id AND p.id = wp.part_id
  WHERE wp.org_id = p_org AND wp.work_order_id = p_id
$fn$;--> statement-breakpoint
-- Labour and parts rows: their orders (an update runs twice, once with the old rows and once with the new).
CREATE OR REPLACE FUNCTION work_order_quoted_of_rows() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM work_order_quoted_refresh(org_id, array_agg(DISTINCT work_order_id)) FROM changed GROUP BY org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_quoted_orders_inserted() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM work_order_quoted_refresh(org_id, array_agg(id)) FROM changed WHERE quotation_id IS NOT NULL GROUP BY org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
-- An order's update moves its row when its link, creation time, title or status changes (a deleted order's row
-- goes by cascade).
CREATE OR REPLACE FUNCTION work_order_quoted_orders_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM work_order_quoted_refresh(n.org_id, array_agg(n.id))
    FROM new_rows n JOIN old_rows o ON o.org_id = n.org_id AND o.id = n.id
    WHERE o.quotation_id IS DISTINCT FROM n.quotation_id OR (n.quotation_id IS NOT NULL AND (o.created_at IS DISTINCT FROM n.created_at
      OR o.title IS DISTINCT FROM n.title OR o.status IS DISTINCT FROM n.status))
    GROUP BY n.org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
-- A person's rate, a part's price: the linked orders with their labour or parts.
CREATE OR REPLACE FUNCTION work_order_quoted_users_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE r record;
BEGIN
  FOR r IN SELECT n.org_id, array_agg(n.id) AS ids FROM new_rows n JOIN old_rows o ON o.org_id = n.org_id AND o.id = n.id
      WHERE o.hourly_rate IS DISTINCT FROM n.hourly_rate GROUP BY n.org_id LOOP
    PERFORM work_order_quoted_refresh(r.org_id, (SELECT coalesce(array_agg(DISTINCT k.work_order_id), '{}') FROM work_order_quoted_actuals k
      WHERE k.org_id = r.org_id AND EXISTS (SELECT 1 FROM work_order_labors l WHERE l.org_id = k.org_id AND l.work_order_id = k.work_order_id AND l.worker_id = ANY(r.ids))));
  END LOOP;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION work_order_quoted_parts_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE r record;
BEGIN
  FOR r IN SELECT n.org_id, array_agg(n.id) AS ids FROM new_rows n JOIN old_rows o ON o.org_id = n.org_id AND o.id = n.id
      WHERE o.sales_price IS DISTINCT FROM n.sales_price GROUP BY n.org_id LOOP
    PERFORM work_order_quoted_refresh(r.org_id, (SELECT coalesce(array_agg(DISTINCT k.work_order_id), '{}') FROM work_order_quoted_actuals k
      WHERE k.org_id = r.org_id AND EXISTS (SELECT 1 FROM work_order_parts wp WHERE wp.org_id = k.org_id AND wp.work_order_id = k.work_order_id AND wp.part_id = ANY(r.ids))));
  END LOOP;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER work_order_quoted_labor_ins AFTER INSERT ON work_order_labors REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_quoted_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_quoted_labor_upd_old AFTER UPDATE ON work_order_labors REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_quoted_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_quoted_labor_upd_new AFTER UPDATE ON work_order_labors REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_quoted_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_quoted_labor_del AFTER DELETE ON work_order_labors REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_quoted_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_quoted_parts_ins AFTER INSERT ON work_order_parts REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_quoted_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_quoted_parts_upd_old AFTER UPDATE ON work_order_parts REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_quoted_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_quoted_parts_upd_new AFTER UPDATE ON work_order_parts REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_quoted_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_quoted_parts_del AFTER DELETE ON work_order_parts REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_quoted_of_rows();--> statement-breakpoint
CREATE TRIGGER work_order_quoted_wo_ins AFTER INSERT ON work_orders REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION work_order_quoted_orders_inserted();--> statement-breakpoint
CREATE TRIGGER work_order_quoted_wo_upd AFTER UPDATE ON work_orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_quoted_orders_updated();--> statement-breakpoint
CREATE TRIGGER work_order_quoted_users_upd AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_quoted_users_updated();--> statement-breakpoint
CREATE TRIGGER work_order_quoted_parts_catalogue_upd AFTER UPDATE ON parts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_quoted_parts_updated();--> statement-breakpoint
-- What exists already.
SELECT work_order_quoted_refresh(id, NULL) FROM organizations;
