import { foreignKey, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAtColumn } from '../../server/db/columns';

/** An organisation (tenant). Global table: the subdomain is unique across all of them. */
export const organizations = pgTable(
  'organizations',
  {
    id: serial().primaryKey(),
    organization: text().notNull(),
    subdomain: text().notNull(),
    numberOfWorkers: integer().notNull(),
    addressStreet1: text(),
    addressStreet2: text(),
    city: text(),
    zipCode: text(),
    country: text(),
    website: text(),
    phoneNumber: text(),
    profilePicture: text(),
    profilePictureLow: text(),
    currency: text().notNull().default('USD'),
    /** Odoo's tax_calculation_rounding_method: each line's taxes rounded, or each tax's sum over a document (decision 036). */
    taxRounding: text({ enum: ['round_per_line', 'round_globally'] })
      .notNull()
      .default('round_per_line'),
    /** The organisation's IANA time zone (decision 064): its days (plans' due days, the calendar) and printed times. */
    timeZone: text().notNull().default('UTC'),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('organizations_subdomain_key').on(sql`lower(${t.subdomain})`)],
);

/** Demo requests from the public landing page. Global: visitors have no organisation yet. */
export const demoRequests = pgTable('demo_requests', {
  id: serial().primaryKey(),
  name: text().notNull(),
  email: text().notNull(),
  company: text().notNull(),
  phone: text(),
  message: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The key of every tenant row (`orgRowColumns`): primary key (orgId, id), and the organisation's foreign key, so
 * that deleting an organisation deletes its rows.
 */
export const orgRowKeys = (t: { orgId: AnyPgColumn; id: AnyPgColumn }) => [primaryKey({ columns: [t.orgId, t.id] }), orgOwned(t)];

/** The organisation's foreign key of a tenant row: deleting the organisation deletes the row. */
export const orgOwned = (t: { orgId: AnyPgColumn }) => foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade');
