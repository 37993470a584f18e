-- Stock by location without loss (issue 41, decision 071). Each organisation gets its default location,
-- "Main store" (id 1: the table is new, so no organisation has another yet); today's quantity on hand of each part
-- becomes an `initial` move into it and its level there; today's minimum becomes that level's reorder point.
INSERT INTO stock_locations (org_id, id, name, kind, is_default) SELECT id, 1, 'Main store', 'storeroom', true FROM organizations;--> statement-breakpoint
-- The per-organisation id counter (applyTenancy's) starts after the row given id 1 here; on a fresh database the
-- counters table comes later, with no organisation to count.
DO $$ BEGIN
  IF to_regclass('public.org_counters') IS NOT NULL THEN
    INSERT INTO org_counters (org_id, table_name, last_id) SELECT id, 'stock_locations', 1 FROM organizations
    ON CONFLICT (org_id, table_name) DO UPDATE SET last_id = greatest(org_counters.last_id, 1);
  END IF;
END $$;--> statement-breakpoint
-- The moves written before: history without a location (they count toward no level); their text kept as the note.
UPDATE stock_moves SET note = reason, reason = CASE WHEN reason = 'Opening stock' THEN 'initial' ELSE 'count' END;--> statement-breakpoint
INSERT INTO stock_moves (org_id, part_id, to_location_id, quantity, reason, note)
  SELECT org_id, id, 1, quantity_on_hand, 'initial', 'Quantity on hand before stock locations' FROM parts
  WHERE type = 'stockable' AND quantity_on_hand > 0 ORDER BY org_id, id;--> statement-breakpoint
INSERT INTO stock_levels (org_id, part_id, location_id, quantity, reorder_point)
  SELECT org_id, id, 1, quantity_on_hand, minimum_quantity FROM parts
  WHERE type = 'stockable' AND (quantity_on_hand > 0 OR minimum_quantity > 0);--> statement-breakpoint
-- Inventory lines of work orders come from the default location.
UPDATE work_order_parts SET location_id = 1 WHERE part_id IS NOT NULL AND share_id IS NULL;
--> statement-breakpoint
-- The checks of the ledger, once the moves written before read as history (above).
ALTER TABLE "stock_moves" ADD CONSTRAINT "stock_moves_reason_check" CHECK ("stock_moves"."reason" in ('count', 'consumption', 'return', 'receipt', 'transfer', 'initial'));--> statement-breakpoint
ALTER TABLE "stock_moves" ADD CONSTRAINT "stock_moves_direction_check" CHECK (("stock_moves"."from_location_id" is null and "stock_moves"."to_location_id" is null) or ("stock_moves"."quantity" > 0 and "stock_moves"."from_location_id" is distinct from "stock_moves"."to_location_id"));