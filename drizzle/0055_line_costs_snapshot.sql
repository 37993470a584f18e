-- Costs as they were (issue 39, decision 063): each labour line keeps the hourly rate in force when it was
-- logged, each part line the unit price when it was used. The lines logged before this migration take today's
-- rate and price (the only ones known); from now on the work orders' service writes them with the line.
UPDATE work_order_labors l SET rate_minor = u.hourly_rate
  FROM users u WHERE u.org_id = l.org_id AND u.id = l.worker_id AND l.share_id IS NULL AND l.rate_minor IS NULL;--> statement-breakpoint
-- The price in the organisation currency's minor units, as src/shared/money.ts (currencyDigits, toMinor).
UPDATE work_order_parts wp SET unit_price_minor = round(p.sales_price * power(10, CASE
    WHEN upper(o.currency) IN ('BIF','CLP','DJF','GNF','ISK','JPY','KMF','KRW','PYG','RWF','UGX','UYI','VND','VUV','XAF','XOF','XPF') THEN 0
    WHEN upper(o.currency) IN ('BHD','IQD','JOD','KWD','LYD','OMR','TND') THEN 3
    WHEN upper(o.currency) IN ('CLF','UYW') THEN 4
    ELSE 2 END))
  FROM parts p, organizations o
  WHERE p.org_id = wp.org_id AND p.id = wp.part_id AND o.id = wp.org_id AND wp.share_id IS NULL AND wp.unit_price_minor IS NULL;
