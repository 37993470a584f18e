import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ReadTx, Tx } from '../../server/db/client';
import { organizations } from '../../server/db/schema';
import { notFound } from '../../server/http-error';
import type { CompanyDto, companyUpdateSchema } from './organization.schema';
import { param, preparedRead } from '../../server/db/prepared';

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
};

export async function getCompany(tx: ReadTx, orgId: number): Promise<CompanyDto> {
  const [row] = await preparedRead('organization.company', () => tx.select(companyColumns).from(organizations).where(eq(organizations.id, param('orgId'))), { orgId });
  if (!row) throw notFound('Company');
  return row;
}

/** Updates the caller's own company; `id` must be theirs (another organisation's id is a 404). */
export async function updateCompany(tx: Tx, orgId: number, id: number, input: z.output<typeof companyUpdateSchema>) {
  if (id !== orgId) throw notFound('Company');
  await tx
    .update(organizations)
    .set({
      organization: input.organization,
      addressStreet1: input.addressStreet1 ?? null,
      addressStreet2: input.addressStreet2 ?? null,
      city: input.city ?? null,
      zipCode: input.zipCode ?? null,
      country: input.country ?? null,
      website: input.website ?? null,
      phoneNumber: input.phoneNumber ?? null,
      ...(input.currency ? { currency: input.currency } : {}),
    })
    .where(eq(organizations.id, orgId));
  return { company: await getCompany(tx, orgId) };
}

export async function setCompanyLogo(tx: Tx, orgId: number, urls: { full: string; low: string }) {
  await tx.update(organizations).set({ profilePicture: urls.full, profilePictureLow: urls.low }).where(eq(organizations.id, orgId));
  return { company: await getCompany(tx, orgId) };
}
