import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { rowsOf } from './rows';

/** The role request transactions switch to: neither owner nor superuser, so RLS always applies. */
export const RUNTIME_ROLE = 'cmms_app';

/** Global tables (no org_id) the runtime role may use; everything with an org_id is walled by RLS. */
const GLOBAL_TABLES = ['organizations', 'rate_limits', 'mail_outbox', 'demo_requests'];

/**
 * Applied after every migration run and idempotent. It discovers tenant tables by their `org_id`
 * column, so a table added by a later feature is walled in without anyone remembering to do it:
 * RLS enabled and forced, one policy on `app.org_id`, and per-organisation ids from a trigger.
 */
export async function applyTenancy(db: Db, role: string = RUNTIME_ROLE) {
  const RUNTIME_ROLE = role;
  const script = `
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${RUNTIME_ROLE}') THEN
    BEGIN
      CREATE ROLE ${RUNTIME_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END IF;
END $$;

CREATE TABLE IF NOT EXISTS org_counters (
  org_id integer NOT NULL,
  table_name text NOT NULL,
  last_id integer NOT NULL,
  PRIMARY KEY (org_id, table_name)
);

CREATE OR REPLACE FUNCTION assign_org_scoped_id() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
BEGIN
  IF NEW.id IS NULL OR NEW.id = 0 THEN
    INSERT INTO org_counters AS c (org_id, table_name, last_id) VALUES (NEW.org_id, TG_TABLE_NAME, 1)
    ON CONFLICT (org_id, table_name) DO UPDATE SET last_id = c.last_id + 1
    RETURNING c.last_id INTO NEW.id;
  ELSIF NEW.id > coalesce((SELECT c.last_id FROM org_counters c WHERE c.org_id = NEW.org_id AND c.table_name = TG_TABLE_NAME), 0) THEN
    INSERT INTO org_counters AS c (org_id, table_name, last_id) VALUES (NEW.org_id, TG_TABLE_NAME, NEW.id)
    ON CONFLICT (org_id, table_name) DO UPDATE SET last_id = greatest(c.last_id, EXCLUDED.last_id);
  END IF;
  -- An id at or below the counter was handed out already (reserve_org_ids, or an earlier row): the counter
  -- stays as it is and the row's lock is not taken again; the primary key refuses a second row of one id.
  RETURN NEW;
END $fn$;

CREATE OR REPLACE FUNCTION reserve_org_ids(p_org integer, p_table text, p_count integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE last integer;
BEGIN
  IF p_org IS DISTINCT FROM nullif(current_setting('app.org_id', true), '')::int THEN
    RAISE EXCEPTION 'reserve_org_ids: organisation % is not the scope''s', p_org USING ERRCODE = '42501';
  END IF;
  IF p_count IS NULL OR p_count < 1 THEN
    RAISE EXCEPTION 'reserve_org_ids: count must be positive' USING ERRCODE = '22023';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = to_regclass(format('public.%I', p_table)) AND g.tgname = 'org_scoped_id') THEN
    RAISE EXCEPTION 'reserve_org_ids: % has no per-organisation ids', p_table USING ERRCODE = '22023';
  END IF;
  INSERT INTO org_counters AS c (org_id, table_name, last_id) VALUES (p_org, p_table, p_count)
  ON CONFLICT (org_id, table_name) DO UPDATE SET last_id = c.last_id + p_count
  RETURNING c.last_id INTO last;
  RETURN last - p_count + 1;
END $fn$;

CREATE OR REPLACE FUNCTION prune_audit_log(p_org integer, p_before timestamptz) RETURNS TABLE (last_seq integer, last_hash text, removed integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE upto integer;
BEGIN
  -- The audit log's retention (decision 078): the one way its rows leave, oldest first, within the scope's organisation.
  IF p_org IS DISTINCT FROM nullif(current_setting('app.org_id', true), '')::int THEN
    RAISE EXCEPTION 'prune_audit_log: organisation % is not the scope''s', p_org USING ERRCODE = '42501';
  END IF;
  SELECT max(a.seq) INTO upto FROM audit_log a WHERE a.org_id = p_org AND a.created_at < p_before;
  IF upto IS NULL THEN RETURN; END IF;
  RETURN QUERY WITH gone AS (DELETE FROM audit_log a WHERE a.org_id = p_org AND a.seq <= upto RETURNING a.seq, a.hash)
    SELECT upto, (SELECT g.hash FROM gone g WHERE g.seq = upto), (SELECT count(*)::int FROM gone);
END $fn$;

CREATE OR REPLACE FUNCTION organisations_with_due_work(p_at timestamptz, p_last timestamptz, p_changed timestamptz, p_since timestamptz, p_horizon timestamptz)
RETURNS SETOF integer LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $fn$
  -- The notifications job's organisations with work (decision 074, addendum): ids only, no tenant's rows.
  -- Messages due; open work whose overdue or due-soon moment fell in (p_last, p_at]; open work changed since p_changed.
  WITH leads AS (SELECT DISTINCT due_soon_hours AS h FROM notification_org_settings UNION SELECT 24)
  SELECT org_id FROM notification_deliveries WHERE sent_at IS NULL AND due_at <= p_at
  UNION
  SELECT w.org_id FROM work_orders w WHERE w.status IN ('assigned', 'in-progress') AND w.due_date > p_last AND w.due_date <= p_at
  UNION
  SELECT w.org_id FROM leads l
    JOIN LATERAL (
      SELECT w.org_id FROM work_orders w WHERE w.status IN ('assigned', 'in-progress')
        AND w.due_date > p_last + make_interval(hours => l.h) AND w.due_date <= p_at + make_interval(hours => l.h)
      OFFSET 0 -- a fence: one index range per lead time, never a join over every open order
    ) w ON true
    WHERE coalesce((SELECT s.due_soon_hours FROM notification_org_settings s WHERE s.org_id = w.org_id), 24) = l.h
  UNION
  SELECT w.org_id FROM work_orders w WHERE w.status IN ('assigned', 'in-progress') AND w.updated_at > p_changed
    AND w.due_date > p_since AND w.due_date <= p_horizon
$fn$;

DO $$
DECLARE t record;
BEGIN
  EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', '${RUNTIME_ROLE}');
  FOR t IN
    SELECT c.table_name,
           EXISTS (SELECT 1 FROM information_schema.columns i
                   WHERE i.table_schema = 'public' AND i.table_name = c.table_name AND i.column_name = 'id') AS has_id
    FROM information_schema.columns c
    JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
    WHERE c.table_schema = 'public' AND c.column_name = 'org_id' AND tb.table_type = 'BASE TABLE'
      AND c.table_name <> 'org_counters'
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.table_name);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t.table_name);
    EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %I', t.table_name);
    EXECUTE format($p$CREATE POLICY tenant_isolation ON %I
      USING (org_id = nullif(current_setting('app.org_id', true), '')::int)
      WITH CHECK (org_id = nullif(current_setting('app.org_id', true), '')::int)$p$, t.table_name);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO %I', t.table_name, '${RUNTIME_ROLE}');
    IF t.has_id THEN
      EXECUTE format('DROP TRIGGER IF EXISTS org_scoped_id ON %I', t.table_name);
      EXECUTE format('CREATE TRIGGER org_scoped_id BEFORE INSERT ON %I FOR EACH ROW EXECUTE FUNCTION assign_org_scoped_id()', t.table_name);
    END IF;
  END LOOP;
END $$;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY[${GLOBAL_TABLES.map((t) => `'${t}'`).join(',')}] LOOP
    IF to_regclass(t) IS NOT NULL THEN
      EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO %I', t, '${RUNTIME_ROLE}');
    END IF;
  END LOOP;
  EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO %I', '${RUNTIME_ROLE}');
  -- The audit log is append-only for the app (decision 078): rows leave only through prune_audit_log.
  IF to_regclass('audit_log') IS NOT NULL THEN
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM %I', '${RUNTIME_ROLE}');
  END IF;
END $$;
`;
  // One statement per call: PGlite's extended protocol refuses several in one.
  // Re-applying takes ACCESS EXCLUSIVE locks on every tenant table: on a busy database a second instance
  // starting (rolling restart, scale-out) would stall all requests. Skip it when this very script was
  // applied and the catalog shows every tenant table walled in (a new table makes the check fail).
  const fingerprint = createHash('sha256').update(script).digest('hex');
  if (await inPlace(db, fingerprint, role)) return;
  for (const statement of script.split(/\n\n(?=DO |CREATE )/)) await db.execute(sql.raw(statement));
  await db.execute(sql.raw(`CREATE TABLE IF NOT EXISTS tenancy_state (fingerprint text NOT NULL)`));
  await db.execute(sql`DELETE FROM tenancy_state`);
  await db.execute(sql`INSERT INTO tenancy_state (fingerprint) VALUES (${fingerprint})`);
}

async function inPlace(db: Db, fingerprint: string, role: string): Promise<boolean> {
  // Roles are the cluster's, not the database's: a restored dump has the tables, the policies and the state
  // row, but not the role nor (its GRANTs failed) its rights. Then the whole script runs: it creates both.
  const roleResult = await db.execute(sql`SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${role}) THEN false
    WHEN to_regclass('organizations') IS NULL THEN true ELSE has_table_privilege(${role}, 'organizations', 'SELECT') END AS ready`);
  if (!rowsOf<{ ready: boolean }>(roleResult)[0].ready) return false;
  // pg_catalog, not information_schema: its views cost hundreds of milliseconds on PGlite at every start.
  const result = await db.execute(sql`
    SELECT to_regclass('tenancy_state') IS NOT NULL AS has_state,
      (SELECT count(*)::int FROM pg_class r
         JOIN pg_attribute a ON a.attrelid = r.oid AND a.attname = 'org_id' AND NOT a.attisdropped
        WHERE r.relnamespace = 'public'::regnamespace AND r.relkind = 'r' AND r.relname <> 'org_counters'
          AND NOT (r.relrowsecurity AND r.relforcerowsecurity
                   AND EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = r.oid AND p.polname = 'tenant_isolation')
                   AND (NOT EXISTS (SELECT 1 FROM pg_attribute i WHERE i.attrelid = r.oid AND i.attname = 'id' AND NOT i.attisdropped)
                        OR EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = r.oid AND g.tgname = 'org_scoped_id')))) AS missing`);
  const [row] = rowsOf<{ has_state: boolean; missing: number }>(result);
  if (!row.has_state || row.missing > 0) return false;
  const state = await db.execute(sql.raw('SELECT fingerprint FROM tenancy_state'));
  const [applied] = rowsOf<{ fingerprint: string }>(state);
  return applied?.fingerprint === fingerprint;
}
