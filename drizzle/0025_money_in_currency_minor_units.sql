-- Decision 035: quotations and purchase orders stored hundredths for every currency; they now store the
-- organisation currency's own minor units (ISO 4217: JPY 0 decimals, KWD 3, CLF 4). USD, EUR and every
-- other two-decimal currency keep their numbers. Each affected organisation is rescaled under its own
-- app.org_id, so row-level security (forced on these tables) lets the owner's migration see its rows.
-- Down to no decimals each figure rounds half away from zero; a document's tax and total are then the sums
-- of its lines, and its untaxed price what the tax leaves, so the pieces still add up.
DO $$
DECLARE
  o record;
  f numeric;
BEGIN
  FOR o IN
    SELECT id, CASE
        WHEN upper(currency) IN ('BIF','CLP','DJF','GNF','ISK','JPY','KMF','KRW','PYG','RWF','UGX','UYI','VND','VUV','XAF','XOF','XPF') THEN 0.01
        WHEN upper(currency) IN ('BHD','IQD','JOD','KWD','LYD','OMR','TND') THEN 10
        WHEN upper(currency) IN ('CLF','UYW') THEN 100
      END AS factor
    FROM organizations
  LOOP
    CONTINUE WHEN o.factor IS NULL;
    f := o.factor;
    PERFORM set_config('app.org_id', o.id::text, true);
    UPDATE quotation_lines SET unit_price = round(unit_price * f), tax_amount = round(tax_amount * f), subtotal = round(subtotal * f) WHERE org_id = o.id;
    UPDATE purchase_order_lines SET unit_price = round(unit_price * f), tax_amount = round(tax_amount * f), subtotal = round(subtotal * f) WHERE org_id = o.id;
    UPDATE quotations q SET
      raw_subtotal = round(q.raw_subtotal * f), total_discount = round(q.total_discount * f),
      total_tax = coalesce(l.tax, 0), total = coalesce(l.total, 0), untaxed = coalesce(l.total, 0) - coalesce(l.tax, 0)
    FROM (SELECT q2.id, sum(x.tax_amount) AS tax, sum(x.subtotal) AS total
          FROM quotations q2 LEFT JOIN quotation_lines x ON x.org_id = q2.org_id AND x.quotation_id = q2.id
          WHERE q2.org_id = o.id GROUP BY q2.id) l
    WHERE q.org_id = o.id AND q.id = l.id;
    UPDATE purchase_orders p SET
      raw_subtotal = round(p.raw_subtotal * f), total_discount = round(p.total_discount * f),
      total_tax = coalesce(l.tax, 0), total = coalesce(l.total, 0), untaxed = coalesce(l.total, 0) - coalesce(l.tax, 0)
    FROM (SELECT p2.id, sum(x.tax_amount) AS tax, sum(x.subtotal) AS total
          FROM purchase_orders p2 LEFT JOIN purchase_order_lines x ON x.org_id = p2.org_id AND x.purchase_order_id = p2.id
          WHERE p2.org_id = o.id GROUP BY p2.id) l
    WHERE p.org_id = o.id AND p.id = l.id;
  END LOOP;
  PERFORM set_config('app.org_id', '', true);
END $$;
