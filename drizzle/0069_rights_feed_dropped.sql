-- The rights feed is gone (decision 021, addendum 2): every request reads its caller's session and role, so no
-- process keeps rights that a notification would have to forget.
DROP TRIGGER IF EXISTS users_rights_changed ON users;--> statement-breakpoint
DROP TRIGGER IF EXISTS users_rights_removed ON users;--> statement-breakpoint
DROP TRIGGER IF EXISTS sessions_rights_changed ON sessions;--> statement-breakpoint
DROP TRIGGER IF EXISTS sessions_rights_removed ON sessions;--> statement-breakpoint
DROP FUNCTION IF EXISTS rights_changed();
