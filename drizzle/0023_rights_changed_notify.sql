-- A change of a caller's rights is announced to every server process (docs/decisions/021, addendum): a process
-- keeps callers' rights in memory only while it hears these, and forgets an organisation's on each.
CREATE OR REPLACE FUNCTION rights_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('cmms_rights', coalesce(NEW.org_id, OLD.org_id)::text);
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER users_rights_changed AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.token_version IS DISTINCT FROM NEW.token_version
    OR OLD.invite_status IS DISTINCT FROM NEW.invite_status OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION rights_changed();--> statement-breakpoint
CREATE TRIGGER users_rights_removed AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION rights_changed();--> statement-breakpoint
CREATE TRIGGER sessions_rights_changed AFTER UPDATE ON sessions FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
    OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION rights_changed();--> statement-breakpoint
CREATE TRIGGER sessions_rights_removed AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION rights_changed();
