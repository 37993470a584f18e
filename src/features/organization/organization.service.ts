import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { writeOrganisation } from '../auth/identity-writes';
import type { ReadTx, Tx } from '../../server/db/client';
import { organizations } from '../../server/db/schema';
import { badRequest, notFound } from '../../server/http-error';
import { currencyDecimalsMessage, currencyDigits, fitsCurrency } from '../../shared/money';
import type { TaxRounding } from '../../shared/tax';
import type { CompanyDto, companyUpdateSchema } from './organization.schema';
import { param, preparedRead } from '../../server/db/prepared';
import { rowsOf } from '../../server/db/rows';
import { orNull } from '../../server/db/or-null';

const companyColumns = {
  id: organizations.id,
  organization: organizations.organization,
  subdomain: organizations.subdomain,
  addressStreet1: organizations.addressStreet1,
  addressStreet2: organizations.addressStreet2,
  city: organizations.city,
  zipCode: organizations.zipCode,
  country: organizations.country,
  website: organizations.website,
  phoneNumber: organizations.phoneNumber,
  profilePicture: organizations.profilePicture,
  profilePictureLow: organizations.profilePictureLow,
  numberOfWorkers: organizations.numberOfWorkers,
  currency: organizations.currency,
  taxRounding: organizations.taxRounding,
  timeZone: organizations.timeZone,
};

export async function getCompany(tx: ReadTx, orgId: number): Promise<CompanyDto> {
  const [row] = await preparedRead(
    tx,
    'organization.company',
    () =>
      tx
        .select(companyColumns)
        .from(organizations)
        .where(eq(organizations.id, param('orgId'))),
    { orgId },
  );
  if (!row) throw notFound('Company');
  return row;
}

/**
 * The organisation's IANA time zone (decision 064): the zone of its days (plans' due days, the calendar) and of
 * the times it prints. 'UTC' when the organisation is unknown. One indexed read; call it once per operation.
 */
export async function orgTimeZone(tx: ReadTx, orgId: number): Promise<string> {
  const [row] = await tx.select({ timeZone: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  return row?.timeZone ?? 'UTC';
}

/** The organisation's currency, its decimals (decision 035) and its tax rounding (decision 036). */
export async function moneySettings(tx: ReadTx, orgId: number): Promise<{ currency: string; digits: number; taxRounding: TaxRounding }> {
  const [row] = await tx
    .select({ currency: organizations.currency, taxRounding: organizations.taxRounding })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  const currency = row?.currency ?? 'USD';
  return { currency, digits: currencyDigits(currency), taxRounding: row?.taxRounding ?? 'round_per_line' };
}

/** A 400 on `path` when `value` has more decimals than the currency (a JPY price of 12.5, a KWD one of 1.2345). */
export function checkCurrencyDecimals(value: number | null | undefined, money: { currency: string; digits: number }, path: string) {
  if (value !== null && value !== undefined && !fitsCurrency(value, money.digits)) throw badRequest(currencyDecimalsMessage(money.currency), path);
}

export const CURRENCY_CHANGE_MESSAGE =
  'The currency can only change to one with the same number of decimals once quotations, purchase orders, parts, services or fixed taxes exist';

/**
 * Stored money is in the currency's minor units and master-data prices carry its decimals: a change to a
 * currency with other decimals (USD to JPY) is refused while any money is on file; the same decimals (USD
 * to EUR) keep every amount as it is (decision 035).
 */
async function checkCurrencyChange(tx: Tx, orgId: number, next: string | undefined) {
  if (!next) return;
  const { currency } = await moneySettings(tx, orgId);
  if (currencyDigits(next) === currencyDigits(currency)) return;
  // One statement: RLS walls each table to this organisation; the org_id filters keep the index use.
  const result = await tx.execute(sql`select
      exists (select 1 from quotations where org_id = ${orgId})
      or exists (select 1 from purchase_orders where org_id = ${orgId})
      or exists (select 1 from parts where org_id = ${orgId})
      or exists (select 1 from services where org_id = ${orgId})
      or exists (select 1 from taxes where org_id = ${orgId} and tax_computation = 'fixed') as used`);
  const [row] = rowsOf<{ used: boolean }>(result);
  if (row?.used) throw badRequest(CURRENCY_CHANGE_MESSAGE, 'currency');
}

/** Updates the caller's own company; `id` must be theirs (another organisation's id is a 404). */
export async function updateCompany(tx: Tx, orgId: number, id: number, input: z.output<typeof companyUpdateSchema>) {
  if (id !== orgId) throw notFound('Company');
  await checkCurrencyChange(tx, orgId, input.currency);
  await writeOrganisation(tx, orgId, {
    organization: input.organization,
    ...orNull(input, 'addressStreet1', 'addressStreet2', 'city', 'zipCode', 'country', 'website', 'phoneNumber'),
    ...(input.currency ? { currency: input.currency } : {}),
    // Documents keep their stored totals; the next save of each computes with the new rounding.
    ...(input.taxRounding ? { taxRounding: input.taxRounding } : {}),
    // Past records keep their instants; days and printed times read from now on in the new zone.
    ...(input.timeZone ? { timeZone: input.timeZone } : {}),
  });
  return { company: await getCompany(tx, orgId) };
}

export async function setCompanyLogo(tx: Tx, orgId: number, urls: { full: string; low: string }) {
  await writeOrganisation(tx, orgId, { profilePicture: urls.full, profilePictureLow: urls.low });
  return { company: await getCompany(tx, orgId) };
}
