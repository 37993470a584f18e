import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { customerVendors, organizations, taxes, uoms, users } from '../../server/db/schema';
import { notFound } from '../../server/http-error';
import { pagination } from '../../shared/pagination';
import { currencyDigits } from '../../shared/money';
import type { DocumentLineDto } from './document-lines.schema';
import { escapeLike } from '../../server/db/like';
import { major, type BaseRow, type DocumentKind, type ListQuery } from './document-kind.service';
import { pick } from '../../shared/pick';

/** A kind's reads: the columns, the list, one document with its lines (decision 036). */
export function documentQueries(k: DocumentKind) {
  const T = k.table;
  const L = k.lines;

  const baseColumns = {
    id: T.id,
    status: T.status,
    partyId: T[k.partyColumn],
    partyName: customerVendors.name,
    partyEmail: customerVendors.email,
    personId: T[k.personColumn],
    personFirstName: users.firstName,
    personLastName: users.lastName,
    date: T[k.dateColumn],
    ...pick(T, 'expirationDate', 'note', 'attachments', 'rawSubtotal', 'totalDiscount', 'untaxed', 'totalTax', 'total'),
    currency: organizations.currency,
    createdAt: T.createdAt,
    updatedAt: T.updatedAt,
  };

  const select = (tx: ReadTx) =>
    tx
      .select(baseColumns)
      .from(T)
      .innerJoin(organizations, eq(organizations.id, T.orgId))
      .leftJoin(customerVendors, and(eq(customerVendors.orgId, T.orgId), eq(customerVendors.id, T[k.partyColumn])))
      .leftJoin(users, and(eq(users.orgId, T.orgId), eq(users.id, T[k.personColumn])));

  const shape = (r: BaseRow) => k.shapeRow({ ...r, attachments: r.attachments ?? [] });

  async function list(tx: ReadTx, orgId: number, query: ListQuery) {
    const filters: (SQL | undefined)[] = [eq(T.orgId, orgId)];
    if (query.status?.length) filters.push(inArray(T.status, query.status));
    const text = query.title || query.name;
    if (text) {
      const like = `%${escapeLike(text)}%`;
      const prefix = k.numberOf(0).split('-')[0];
      filters.push(
        or(
          ilike(customerVendors.name, like),
          ilike(sql`${prefix} || '-' || lpad(${T.id}::text, 4, '0')`, like),
          ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, like),
        ),
      );
    }
    const where = and(...filters);
    const [{ total }] = await tx
      .select({ total: count() })
      .from(T)
      .leftJoin(customerVendors, and(eq(customerVendors.orgId, T.orgId), eq(customerVendors.id, T[k.partyColumn])))
      .leftJoin(users, and(eq(users.orgId, T.orgId), eq(users.id, T[k.personColumn])))
      .where(where);
    const rows = (await select(tx)
      .where(where)
      .orderBy(desc(T.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)) as BaseRow[];
    return { [k.listKey]: rows.map(shape), pagination: pagination(total, query.page, query.pageSize) };
  }

  async function getRow(tx: ReadTx, orgId: number, id: number) {
    const [row] = (await select(tx).where(and(eq(T.orgId, orgId), eq(T.id, id)))) as BaseRow[];
    if (!row) throw notFound(k.label);
    return row;
  }

  async function getLines(tx: ReadTx, orgId: number, id: number, digits: number): Promise<DocumentLineDto[]> {
    const rows = await tx
      .select({
        ...pick(L, 'id', 'kind', 'serviceId', 'partId', 'name', 'quantity', 'unitPrice', 'taxId'),
        taxName: taxes.name,
        ...pick(L, 'discount', 'taxAmount', 'subtotal', 'uomId'),
        uomName: uoms.name,
        position: L.position,
      })
      .from(L)
      .leftJoin(taxes, and(eq(taxes.orgId, L.orgId), eq(taxes.id, L.taxId)))
      .leftJoin(uoms, and(eq(uoms.orgId, L.orgId), eq(uoms.id, L.uomId)))
      .where(and(eq(L.orgId, orgId), eq(L[k.lineDocColumn], id)))
      .orderBy(asc(L.position), asc(L.id));
    return rows.map((r: any) => {
      const price = major(r.unitPrice, digits);
      const line: DocumentLineDto = {
        ...pick(r, 'id', 'kind', 'serviceId', 'partId', 'name'),
        quantity: Number(r.quantity),
        unitPrice: price,
        price,
        taxId: r.taxId,
        Tax: r.taxId && r.taxName !== null ? { id: r.taxId, name: r.taxName } : null,
        discount: Number(r.discount),
        taxAmount: major(r.taxAmount, digits),
        subtotal: major(r.subtotal, digits),
        uomId: r.uomId,
        uom: r.uomId,
        Uom: r.uomId && r.uomName !== null ? { id: r.uomId, name: r.uomName } : null,
        position: r.position,
      };
      if (r.kind === 'service') line.serviceName = r.name;
      else {
        line.partName = r.name;
        line.salesPrice = price;
      }
      return line;
    });
  }

  async function get(tx: ReadTx, orgId: number, id: number) {
    const row = await getRow(tx, orgId, id);
    const lines = await getLines(tx, orgId, id, currencyDigits(row.currency));
    const serviceDetails = lines.filter((l) => l.kind === 'service');
    const partDetails = lines.filter((l) => l.kind === 'part');
    return { ...shape(row), serviceDetails, partDetails, services: serviceDetails, parts: partDetails };
  }

  return { select, shape, list, getRow, getLines, get };
}
