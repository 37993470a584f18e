-- Analytics (decision 038): work orders' optional quotation link, the labour and parts daily roll-ups with their
-- triggers, the planned count per day, and indexes for the insights screen.
CREATE TABLE "work_order_cost_daily" (
	"org_id" integer NOT NULL,
	"day" date NOT NULL,
	"asset_id" integer,
	"reason_id" integer,
	"planned" boolean NOT NULL,
	"hours" numeric DEFAULT '0' NOT NULL,
	"labor_cost" numeric DEFAULT '0' NOT NULL,
	"unrated_hours" numeric DEFAULT '0' NOT NULL,
	"parts_major" numeric DEFAULT '0' NOT NULL,
	"parts_minor" numeric DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "work_order_station_daily" (
	"org_id" integer NOT NULL,
	"day" date NOT NULL,
	"work_station_id" integer,
	"reason_id" integer,
	"hours" numeric DEFAULT '0' NOT NULL,
	"labor_cost" numeric DEFAULT '0' NOT NULL,
	"unrated_hours" numeric DEFAULT '0' NOT NULL,
	"parts_major" numeric DEFAULT '0' NOT NULL,
	"parts_minor" numeric DEFAULT '0' NOT NULL
);
--> statement-breakpoint
DROP INDEX "work_order_labors_worker_idx";--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "quotation_id" integer;--> statement-breakpoint
ALTER TABLE "work_order_daily_counts" ADD COLUMN "planned" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "work_order_cost_daily" ADD CONSTRAINT "work_order_cost_daily_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_station_daily" ADD CONSTRAINT "work_order_station_daily_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_order_cost_daily_org_day_idx" ON "work_order_cost_daily" USING btree ("org_id","day");--> statement-breakpoint
CREATE INDEX "work_order_station_daily_org_day_idx" ON "work_order_station_daily" USING btree ("org_id","day");--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_org_id_quotation_id_quotations_org_id_id_fk" FOREIGN KEY ("org_id","quotation_id") REFERENCES "public"."quotations"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_order_parts_org_created_idx" ON "work_order_parts" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "work_orders_org_open_created_idx" ON "work_orders" USING btree ("org_id","created_at","due_date") WHERE status in ('assigned', 'in-progress');--> statement-breakpoint
CREATE INDEX "work_orders_org_quotation_idx" ON "work_orders" USING btree ("org_id","quotation_id") WHERE quotation_id is not null;--> statement-breakpoint
CREATE INDEX "work_order_labors_worker_idx" ON "work_order_labors" USING btree ("org_id","worker_id","start_date");--> statement-breakpoint
-- Analytics' daily roll-ups of labour and parts (decision 038), kept in the same transaction as every change by
-- statement triggers: work_order_cost_daily (per UTC day, asset, time tracking reason, planned or not: hours,
-- labour cost, unrated hours, parts) and work_order_station_daily (per day, work station, reason), and the
-- planned share of the orders created each day (work_order_daily_counts.planned). A change never adjusts them
-- by a delta: the days it touches are computed again from the rows (analytics_daily_refresh), so a rate, an
-- asset, a plan, an assignment or a price that changes later moves exactly what it must.
CREATE OR REPLACE FUNCTION analytics_daily_refresh(p_org int, p_days date[]) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE lo timestamptz := '-infinity'; hi timestamptz := 'infinity';
BEGIN
  -- An organisation being deleted (its rows going by cascade) keeps nothing.
  IF NOT EXISTS (SELECT 1 FROM organizations WHERE id = p_org) THEN RETURN; END IF;
  IF p_days IS NOT NULL THEN
    IF cardinality(p_days) = 0 THEN RETURN; END IF;
    SELECT min(d)::timestamp AT TIME ZONE 'UTC', (max(d) + 1)::timestamp AT TIME ZONE 'UTC' INTO lo, hi FROM unnest(p_days) d;
  END IF;
  DELETE FROM work_order_cost_daily WHERE org_id = p_org AND (p_days IS NULL OR day = ANY(p_days));
  DELETE FROM work_order_station_daily WHERE org_id = p_org AND (p_days IS NULL OR day = ANY(p_days));
  WITH items AS MATERIALIZED (
    SELECT (l.start_date AT TIME ZONE 'UTC')::date AS day, l.work_order_id, w.asset_id, l.reason_id,
      EXISTS (SELECT 1 FROM pm_occurrences o WHERE o.org_id = w.org_id AND o.work_order_id = w.id) AS planned,
      extract(epoch FROM (l.end_date - l.start_date)) / 3600.0 AS hours,
      round(extract(epoch FROM (l.end_date - l.start_date)) / 3600.0 * coalesce(l.external_rate_minor, u.hourly_rate)) AS cost,
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
  )
  INSERT INTO work_order_station_daily (org_id, day, work_station_id, reason_id, hours, labor_cost, unrated_hours, parts_major, parts_minor)
  SELECT p_org, i.day, st.ws, i.reason_id, sum(i.hours), sum(coalesce(i.cost, 0)), sum(CASE WHEN i.cost IS NULL THEN i.hours ELSE 0 END), sum(i.parts_major), sum(i.parts_minor)
  FROM items i LEFT JOIN LATERAL (
      SELECT p.work_station_id AS ws FROM pm_occurrences o JOIN pm_plans p ON p.org_id = o.org_id AND p.id = o.plan_id
        WHERE o.org_id = p_org AND o.work_order_id = i.work_order_id AND p.work_station_id IS NOT NULL
      UNION SELECT s.work_station_id FROM work_order_assignees wa JOIN user_work_stations s ON s.org_id = wa.org_id AND s.user_id = wa.user_id
        WHERE wa.org_id = p_org AND wa.work_order_id = i.work_order_id) st ON true
  GROUP BY i.day, st.ws, i.reason_id;
END $fn$;--> statement-breakpoint
-- Work orders created on each day that a PM plan created (null days: every day of the organisation).
CREATE OR REPLACE FUNCTION work_order_daily_planned_refresh(p_org int, p_days date[]) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE work_order_daily_counts c SET planned = coalesce(x.n, 0)
    FROM (SELECT c2.day, (SELECT count(*) FROM work_orders w
            WHERE w.org_id = p_org AND w.created_at >= c2.day::timestamp AT TIME ZONE 'UTC' AND w.created_at < (c2.day + 1)::timestamp AT TIME ZONE 'UTC'
              AND EXISTS (SELECT 1 FROM pm_occurrences o WHERE o.org_id = w.org_id AND o.work_order_id = w.id))::int AS n
          FROM work_order_daily_counts c2 WHERE c2.org_id = p_org AND (p_days IS NULL OR c2.day = ANY(p_days))) x
    WHERE c.org_id = p_org AND c.day = x.day AND c.planned IS DISTINCT FROM x.n;
END $fn$;--> statement-breakpoint
-- The days of some work orders' labour and parts.
CREATE OR REPLACE FUNCTION analytics_days_of_orders(p_org int, p_ids int[]) RETURNS date[] LANGUAGE sql STABLE AS $fn$
  SELECT coalesce(array_agg(DISTINCT d), '{}') FROM (
    SELECT (start_date AT TIME ZONE 'UTC')::date AS d FROM work_order_labors WHERE org_id = p_org AND work_order_id = ANY(p_ids)
    UNION ALL
    SELECT (created_at AT TIME ZONE 'UTC')::date FROM work_order_parts WHERE org_id = p_org AND work_order_id = ANY(p_ids)) x
$fn$;--> statement-breakpoint
-- Labour and parts rows: their own days (an update runs twice, once with the old rows and once with the new).
CREATE OR REPLACE FUNCTION analytics_labor_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM analytics_daily_refresh(org_id, array_agg(DISTINCT (start_date AT TIME ZONE 'UTC')::date)) FROM changed GROUP BY org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_parts_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM analytics_daily_refresh(org_id, array_agg(DISTINCT (created_at AT TIME ZONE 'UTC')::date)) FROM changed GROUP BY org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
-- Things that make a work order planned, or give it work stations: the days of those orders' labour and parts.
CREATE OR REPLACE FUNCTION analytics_occurrences_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM analytics_daily_refresh(org_id, analytics_days_of_orders(org_id, array_agg(DISTINCT work_order_id)))
    FROM changed WHERE work_order_id IS NOT NULL GROUP BY org_id;
  PERFORM work_order_daily_planned_refresh(c.org_id, array_agg(DISTINCT (w.created_at AT TIME ZONE 'UTC')::date))
    FROM changed c JOIN work_orders w ON w.org_id = c.org_id AND w.id = c.work_order_id GROUP BY c.org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_assignees_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM analytics_daily_refresh(org_id, analytics_days_of_orders(org_id, array_agg(DISTINCT work_order_id))) FROM changed GROUP BY org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_user_stations_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM analytics_daily_refresh(c.org_id, analytics_days_of_orders(c.org_id, array_agg(DISTINCT wa.work_order_id)))
    FROM changed c JOIN work_order_assignees wa ON wa.org_id = c.org_id AND wa.user_id = c.user_id GROUP BY c.org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
-- Updates that change what a row is worth or where it counts: an order's asset, a person's rate, a part's
-- price, a plan's work station.
CREATE OR REPLACE FUNCTION analytics_work_orders_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM analytics_daily_refresh(n.org_id, analytics_days_of_orders(n.org_id, array_agg(n.id)))
    FROM new_rows n JOIN old_rows o ON o.org_id = n.org_id AND o.id = n.id WHERE o.asset_id IS DISTINCT FROM n.asset_id GROUP BY n.org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_work_orders_deleted() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM work_order_daily_planned_refresh(org_id, array_agg(DISTINCT (created_at AT TIME ZONE 'UTC')::date)) FROM old_rows GROUP BY org_id;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_users_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE r record;
BEGIN
  FOR r IN SELECT n.org_id, array_agg(n.id) AS ids FROM new_rows n JOIN old_rows o ON o.org_id = n.org_id AND o.id = n.id
      WHERE o.hourly_rate IS DISTINCT FROM n.hourly_rate GROUP BY n.org_id LOOP
    PERFORM analytics_daily_refresh(r.org_id, (SELECT coalesce(array_agg(DISTINCT (l.start_date AT TIME ZONE 'UTC')::date), '{}') FROM work_order_labors l
      WHERE l.org_id = r.org_id AND l.worker_id = ANY(r.ids)));
  END LOOP;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_parts_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE r record;
BEGIN
  FOR r IN SELECT n.org_id, array_agg(n.id) AS ids FROM new_rows n JOIN old_rows o ON o.org_id = n.org_id AND o.id = n.id
      WHERE o.sales_price IS DISTINCT FROM n.sales_price GROUP BY n.org_id LOOP
    PERFORM analytics_daily_refresh(r.org_id, (SELECT coalesce(array_agg(DISTINCT (wp.created_at AT TIME ZONE 'UTC')::date), '{}') FROM work_order_parts wp
      WHERE wp.org_id = r.org_id AND wp.part_id = ANY(r.ids)));
  END LOOP;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_plans_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE r record;
BEGIN
  FOR r IN SELECT n.org_id, array_agg(n.id) AS ids FROM new_rows n JOIN old_rows o ON o.org_id = n.org_id AND o.id = n.id
      WHERE o.work_station_id IS DISTINCT FROM n.work_station_id GROUP BY n.org_id LOOP
    PERFORM analytics_daily_refresh(r.org_id, analytics_days_of_orders(r.org_id, (SELECT coalesce(array_agg(o2.work_order_id), '{}') FROM pm_occurrences o2
      WHERE o2.org_id = r.org_id AND o2.plan_id = ANY(r.ids) AND o2.work_order_id IS NOT NULL)));
  END LOOP;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER analytics_labor_ins AFTER INSERT ON work_order_labors REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_labor_changed();--> statement-breakpoint
CREATE TRIGGER analytics_labor_upd_old AFTER UPDATE ON work_order_labors REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_labor_changed();--> statement-breakpoint
CREATE TRIGGER analytics_labor_upd_new AFTER UPDATE ON work_order_labors REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_labor_changed();--> statement-breakpoint
CREATE TRIGGER analytics_labor_del AFTER DELETE ON work_order_labors REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_labor_changed();--> statement-breakpoint
CREATE TRIGGER analytics_parts_ins AFTER INSERT ON work_order_parts REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_parts_changed();--> statement-breakpoint
CREATE TRIGGER analytics_parts_upd_old AFTER UPDATE ON work_order_parts REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_parts_changed();--> statement-breakpoint
CREATE TRIGGER analytics_parts_upd_new AFTER UPDATE ON work_order_parts REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_parts_changed();--> statement-breakpoint
CREATE TRIGGER analytics_parts_del AFTER DELETE ON work_order_parts REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_parts_changed();--> statement-breakpoint
CREATE TRIGGER analytics_occurrences_ins AFTER INSERT ON pm_occurrences REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_occurrences_changed();--> statement-breakpoint
CREATE TRIGGER analytics_occurrences_upd_old AFTER UPDATE ON pm_occurrences REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_occurrences_changed();--> statement-breakpoint
CREATE TRIGGER analytics_occurrences_upd_new AFTER UPDATE ON pm_occurrences REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_occurrences_changed();--> statement-breakpoint
CREATE TRIGGER analytics_occurrences_del AFTER DELETE ON pm_occurrences REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_occurrences_changed();--> statement-breakpoint
CREATE TRIGGER analytics_assignees_ins AFTER INSERT ON work_order_assignees REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_assignees_changed();--> statement-breakpoint
CREATE TRIGGER analytics_assignees_del AFTER DELETE ON work_order_assignees REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_assignees_changed();--> statement-breakpoint
CREATE TRIGGER analytics_user_stations_ins AFTER INSERT ON user_work_stations REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_user_stations_changed();--> statement-breakpoint
CREATE TRIGGER analytics_user_stations_del AFTER DELETE ON user_work_stations REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_user_stations_changed();--> statement-breakpoint
CREATE TRIGGER analytics_work_orders_upd AFTER UPDATE ON work_orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_work_orders_updated();--> statement-breakpoint
CREATE TRIGGER analytics_work_orders_del AFTER DELETE ON work_orders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_work_orders_deleted();--> statement-breakpoint
CREATE TRIGGER analytics_users_upd AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_users_updated();--> statement-breakpoint
CREATE TRIGGER analytics_parts_catalogue_upd AFTER UPDATE ON parts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_parts_updated();--> statement-breakpoint
CREATE TRIGGER analytics_plans_upd AFTER UPDATE ON pm_plans REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_plans_updated();--> statement-breakpoint
-- What exists already.
SELECT analytics_daily_refresh(id, NULL) FROM organizations;--> statement-breakpoint
SELECT work_order_daily_planned_refresh(id, NULL) FROM organizations;
