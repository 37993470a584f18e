-- Trigram search for work order titles ("contains" without a scan), with org_id first in the same GIN index (btree_gin).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;
