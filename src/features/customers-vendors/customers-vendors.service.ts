import { countedPage } from '../../server/db/paging';
import { and, asc, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ReadTx, Tx } from '../../server/db/client';
import { customerVendors } from '../../server/db/schema';
import { badRequest, conflict, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import type { CustomerVendorDto, CustomerVendorOption, CustomerVendorsQuery, CustomerVendorValues, PartyType, StoredFile } from './customers-vendors.schema';
import { escapeLike } from '../../server/db/like';
import { discardFiles } from '../../server/uploads/storage';
import { pick } from '../../shared/pick';
import { orNull } from '../../server/db/or-null';

const history = registerActivityEntity('customer-vendor', customerVendors, 'Customer/Vendor');

const parent = alias(customerVendors, 'parent');

const columns = {
  ...pick(customerVendors, 'id', 'name', 'email', 'type', 'category', 'parentId'),
  parentName: parent.name,
  ...pick(customerVendors, 'street', 'street2', 'city', 'state', 'zipCode', 'country', 'tinVat', 'phone', 'mobile', 'website', 'customerDocuments'),
  ...pick(customerVendors, 'profilePicture', 'profilePictureLow', 'createdAt'),
};

type Row = { [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] | (K extends 'parentName' ? null : never) };

function toDto(r: Row): CustomerVendorDto {
  return {
    ...pick(r, 'id', 'name', 'email', 'type', 'category', 'parentId'),
    Parent: r.parentId && r.parentName !== null ? { id: r.parentId, name: r.parentName } : null,
    ...pick(r, 'street', 'street2', 'city', 'state', 'zipCode', 'country', 'tinVat', 'phone', 'mobile', 'website'),
    customerDocuments: r.customerDocuments ?? [],
    profilePicture: r.profilePictureLow ?? r.profilePicture,
    profilePictureFull: r.profilePicture,
    createdAt: r.createdAt.toISOString(),
  };
}

const baseSelect = (tx: ReadTx) =>
  tx
    .select(columns)
    .from(customerVendors)
    .leftJoin(parent, and(eq(parent.orgId, customerVendors.orgId), eq(parent.id, customerVendors.parentId)));

/** One customer or vendor of the organisation; 404 when it is not theirs. */
export async function getCustomerVendor(tx: ReadTx, orgId: number, id: number): Promise<CustomerVendorDto> {
  const [row] = await baseSelect(tx).where(and(eq(customerVendors.orgId, orgId), eq(customerVendors.id, id)));
  if (!row) throw notFound('Customer/Vendor');
  return toDto(row as Row);
}

/** The list screen: newest first, filtered by type(s) and a name/e-mail contains. */
export async function listCustomerVendors(tx: ReadTx, orgId: number, query: CustomerVendorsQuery) {
  const filters: (SQL | undefined)[] = [eq(customerVendors.orgId, orgId)];
  if (query.type?.length) filters.push(inArray(customerVendors.type, query.type));
  if (query.name) {
    const like = `%${escapeLike(query.name)}%`;
    filters.push(or(ilike(customerVendors.name, like), ilike(customerVendors.email, like)));
  }
  const where = and(...filters);
  const { rows, pagination } = await countedPage(tx, customerVendors, where, baseSelect(tx).where(where).orderBy(desc(customerVendors.id)).$dynamic(), query);
  return { customerVendors: rows.map((r) => toDto(r as Row)), pagination };
}

/** Options for selects: `{ value, label, email, type }`, by name, optionally one type. */
export async function listCustomerVendorOptions(
  tx: ReadTx,
  orgId: number,
  query: { pageSize: number; name?: string; type?: PartyType[] },
): Promise<CustomerVendorOption[]> {
  const like = query.name ? `%${escapeLike(query.name)}%` : undefined;
  const rows = await tx
    .select({ value: customerVendors.id, label: customerVendors.name, email: customerVendors.email, type: customerVendors.type })
    .from(customerVendors)
    .where(
      and(
        eq(customerVendors.orgId, orgId),
        query.type?.length ? inArray(customerVendors.type, query.type) : undefined,
        like ? or(ilike(customerVendors.name, like), ilike(customerVendors.email, like)) : undefined,
      ),
    )
    .orderBy(asc(customerVendors.name), asc(customerVendors.id))
    .limit(query.pageSize);
  return rows;
}

/** Only files this organisation uploaded may be referenced. */
export function checkOwnFiles(orgId: number, files: StoredFile[] | undefined, path: string) {
  for (const f of files ?? []) {
    if (!f.url.startsWith(`/uploads/org-${orgId}/`)) throw badRequest('Attachments must be files uploaded to this application', path);
  }
}

/** The parent must be another record of the organisation, and not one of its own descendants. */
async function checkParent(tx: Tx, orgId: number, parentId: number | undefined, selfId?: number) {
  if (!parentId) return;
  if (parentId === selfId) throw badRequest('A record cannot be its own parent', 'parentId');
  let current: number | null = parentId;
  for (let depth = 0; current && depth < 50; depth++) {
    const [row] = await tx
      .select({ parentId: customerVendors.parentId })
      .from(customerVendors)
      .where(and(eq(customerVendors.orgId, orgId), eq(customerVendors.id, current)));
    if (!row) throw badRequest(depth === 0 ? 'Parent not found' : 'Parent chain is broken', 'parentId');
    if (selfId && row.parentId === selfId) throw badRequest('A record cannot be the parent of its own parent', 'parentId');
    current = row.parentId;
  }
}

function values(input: CustomerVendorValues) {
  return {
    ...pick(input, 'name', 'email', 'type', 'category'),
    ...orNull(input, 'parentId', 'street', 'street2', 'city', 'state', 'zipCode', 'country', 'tinVat', 'phone', 'mobile', 'website'),
  };
}

/** Creates one customer or vendor, as add-customer-vendor does; the import calls it (decision 042). */
export async function createCustomerVendor(tx: Tx, orgId: number, userId: number, input: CustomerVendorValues): Promise<number> {
  await checkParent(tx, orgId, input.parentId);
  checkOwnFiles(orgId, input.customerDocuments, 'customerDocuments');
  const [created] = await tx
    .insert(customerVendors)
    .values({ orgId, ...values(input), customerDocuments: input.customerDocuments ?? [] })
    .returning({ id: customerVendors.id });
  await history(tx, orgId, created.id, userId, 'created');
  return created.id;
}

/** Adds a customer or vendor; returns it and the refreshed list. */
export async function addCustomerVendor(tx: Tx, orgId: number, userId: number, input: CustomerVendorValues, query: CustomerVendorsQuery) {
  const id = await createCustomerVendor(tx, orgId, userId, input);
  const customerVendor = await getCustomerVendor(tx, orgId, id);
  const label = customerVendor.type === 'vendor' ? 'Vendor' : 'Customer';
  return { message: `${label} added successfully`, customerVendor, ...(await listCustomerVendors(tx, orgId, query)) };
}

/** Updates a customer or vendor (documents kept when the body leaves them out); response `updatedData`. */
export async function updateCustomerVendor(tx: Tx, orgId: number, userId: number, id: number, input: CustomerVendorValues) {
  const before = await getCustomerVendor(tx, orgId, id);
  await checkParent(tx, orgId, input.parentId, id);
  checkOwnFiles(orgId, input.customerDocuments, 'customerDocuments');
  const next = { ...values(input), customerDocuments: input.customerDocuments ?? before.customerDocuments };
  await tx
    .update(customerVendors)
    .set(next)
    .where(and(eq(customerVendors.orgId, orgId), eq(customerVendors.id, id)));
  const changes = diffChanges(before as unknown as Record<string, unknown>, next, Object.keys(next));
  if (Object.keys(changes).length) await history(tx, orgId, id, userId, 'updated', changes);
  const updatedData = await getCustomerVendor(tx, orgId, id);
  const label = updatedData.type === 'vendor' ? 'Vendor' : 'Customer';
  return { message: `${label} updated successfully`, updatedData };
}

/** Deletes one; 409 when assets, quotations, purchase orders or child records still use it. */
export async function deleteCustomerVendor(tx: Tx, orgId: number, userId: number, id: number, query: CustomerVendorsQuery) {
  const before = await getCustomerVendor(tx, orgId, id);
  try {
    // a savepoint, so a refused delete leaves the transaction usable
    const [files] = await tx.transaction((sp) =>
      sp
        .delete(customerVendors)
        .where(and(eq(customerVendors.orgId, orgId), eq(customerVendors.id, id)))
        .returning({ full: customerVendors.profilePicture, low: customerVendors.profilePictureLow, documents: customerVendors.customerDocuments }),
    );
    discardFiles(tx, [files?.full, files?.low, ...(files?.documents ?? []).map((d) => d.url)]);
  } catch (err) {
    if (pgCode(err) === '23503') throw conflict('This customer/vendor is used by other records and cannot be deleted');
    throw err;
  }
  await history(tx, orgId, id, userId, 'deleted', { name: { from: before.name, to: null } });
  const label = before.type === 'vendor' ? 'Vendor' : 'Customer';
  return { message: `${label} deleted successfully`, ...(await listCustomerVendors(tx, orgId, query)) };
}

/** Stores a new profile picture (full and low-resolution URLs) on a record of the organisation. */
export async function setCustomerVendorPicture(tx: Tx, orgId: number, userId: number, id: number, urls: { full: string; low: string }) {
  await getCustomerVendor(tx, orgId, id);
  await tx
    .update(customerVendors)
    .set({ profilePicture: urls.full, profilePictureLow: urls.low })
    .where(and(eq(customerVendors.orgId, orgId), eq(customerVendors.id, id)));
  await history(tx, orgId, id, userId, 'updated', { profilePicture: { from: null, to: urls.low } });
  const customerVendor = await getCustomerVendor(tx, orgId, id);
  return { message: 'Profile picture updated successfully', customerVendor, profilePicture: customerVendor.profilePicture };
}
