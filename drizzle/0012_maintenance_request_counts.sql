-- Exact maintenance request counts per organisation, state, requester and assignment, kept in the same transaction
-- as every change (as work_order_status_counts, migration 0006): the list's total and the side panel's counters
-- without counting an organisation's requests. Statement triggers with transition tables: one upsert per group
-- per statement, so bulk writes stay cheap.
CREATE OR REPLACE FUNCTION maintenance_request_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO maintenance_request_counts AS c (org_id, state, requester, assigned, n)
    SELECT org_id, state, requester, assigned_to IS NOT NULL, count(*)::int FROM new_rows GROUP BY 1, 2, 3, 4
  ON CONFLICT (org_id, state, requester, assigned) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION maintenance_request_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE maintenance_request_counts c SET n = c.n - d.k
    FROM (SELECT org_id, state, requester, assigned_to IS NOT NULL AS assigned, count(*)::int AS k FROM old_rows GROUP BY 1, 2, 3, 4) d
    WHERE c.org_id = d.org_id AND c.state = d.state AND c.requester = d.requester AND c.assigned = d.assigned;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION maintenance_request_counts_update() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO maintenance_request_counts AS c (org_id, state, requester, assigned, n)
    SELECT org_id, state, requester, assigned, sum(k)::int FROM (
      SELECT org_id, state, requester, assigned_to IS NOT NULL AS assigned, -1 AS k FROM old_rows
      UNION ALL
      SELECT org_id, state, requester, assigned_to IS NOT NULL AS assigned, 1 AS k FROM new_rows
    ) x GROUP BY 1, 2, 3, 4 HAVING sum(k) <> 0
  ON CONFLICT (org_id, state, requester, assigned) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER maintenance_request_counts_ins AFTER INSERT ON maintenance_requests
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION maintenance_request_counts_insert();--> statement-breakpoint
CREATE TRIGGER maintenance_request_counts_del AFTER DELETE ON maintenance_requests
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION maintenance_request_counts_delete();--> statement-breakpoint
CREATE TRIGGER maintenance_request_counts_upd AFTER UPDATE ON maintenance_requests
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION maintenance_request_counts_update();--> statement-breakpoint
-- The requests that exist already.
INSERT INTO maintenance_request_counts (org_id, state, requester, assigned, n)
  SELECT org_id, state, requester, assigned_to IS NOT NULL, count(*)::int FROM maintenance_requests GROUP BY 1, 2, 3, 4;
