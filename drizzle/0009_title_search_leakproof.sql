-- Under row-level security PostgreSQL uses an index (and column statistics) for a condition only when its
-- operator is LEAKPROOF. ILIKE (texticlike) is not marked so, which forces title/name "contains" searches
-- to scan the organisation's rows. Its only data-dependent error needs the column on the pattern side,
-- which the application never writes, so we mark it leakproof where we may (superuser); elsewhere the
-- searches stay correct and only slower. See docs/decisions/004-work-order-list-at-scale.md.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION pg_catalog.texticlike(text, text) LEAKPROOF;
  ELSE
    RAISE NOTICE 'not a superuser: ILIKE stays non-leakproof, title searches scan within the organisation';
  END IF;
END $$;
