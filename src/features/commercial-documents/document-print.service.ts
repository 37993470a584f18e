import { and, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { customerVendors, organizations } from '../../server/db/schema';
import { currencyDigits } from '../../shared/money';
import { getCompany } from '../organization/organization.service';
import type { PrintableDocument } from './document-pdf.service';
import { escapeLike } from '../../server/db/like';
import { major, totalsDto, type DocumentKind } from './document-kind.service';
import type { documentQueries } from './document-queries.service';

/** A kind's picker options and the printed document. */
export function documentPrint(k: DocumentKind, queries: ReturnType<typeof documentQueries>) {
  const T = k.table;
  const { getRow, getLines } = queries;

  async function options(tx: ReadTx, orgId: number, query: { pageSize: number; name?: string; title?: string }) {
    const text = query.name || query.title;
    const prefix = k.numberOf(0).split('-')[0];
    const like = text ? `%${escapeLike(text)}%` : undefined;
    const rows = await tx
      .select({ id: T.id, partyName: customerVendors.name, total: T.total, status: T.status, currency: organizations.currency })
      .from(T)
      .innerJoin(organizations, eq(organizations.id, T.orgId))
      .leftJoin(customerVendors, and(eq(customerVendors.orgId, T.orgId), eq(customerVendors.id, T[k.partyColumn])))
      .where(
        and(eq(T.orgId, orgId), like ? or(ilike(customerVendors.name, like), ilike(sql`${prefix} || '-' || lpad(${T.id}::text, 4, '0')`, like)) : undefined),
      )
      .orderBy(desc(T.id))
      .limit(query.pageSize);
    return rows.map((r: { id: number; partyName: string | null; total: number; status: string; currency: string }) => ({
      value: r.id,
      label: r.partyName ? `${k.numberOf(r.id)} - ${r.partyName}` : k.numberOf(r.id),
      total: major(r.total, currencyDigits(r.currency)),
      status: r.status,
    }));
  }

  /** A document as printed, from the stored lines and the same engine (the route renders it to PDF outside the transaction). */
  async function print(tx: ReadTx, orgId: number, id: number): Promise<Omit<PrintableDocument, 'logo'> & { logoUrl: string | null }> {
    const row = await getRow(tx, orgId, id);
    const digits = currencyDigits(row.currency);
    const lines = await getLines(tx, orgId, id, digits);
    const [party] = await tx
      .select()
      .from(customerVendors)
      .where(and(eq(customerVendors.orgId, orgId), eq(customerVendors.id, row.partyId)));
    const totals = totalsDto(row, digits);
    const words = k.print;
    const company = await getCompany(tx, orgId);
    return {
      title: words.title,
      number: k.numberOf(id),
      statusLabel: words.statusLabel(row.status),
      currency: company.currency || 'USD',
      company,
      logoUrl: company.profilePicture ?? null,
      party: {
        label: words.partyLabel,
        name: party?.name ?? '-',
        email: party?.email ?? null,
        address: party
          ? [
              party.street,
              party.street2,
              [party.zipCode, party.city, party.state].filter(Boolean).join(' '),
              party.country,
              party.tinVat ? `TIN/VAT: ${party.tinVat}` : null,
            ].filter((l): l is string => !!l && l.trim() !== '')
          : [],
      },
      person: { label: words.personLabel, name: [row.personFirstName, row.personLastName].filter(Boolean).join(' ') },
      dates: [
        { label: words.dateLabel, value: row.date },
        { label: words.expirationLabel, value: row.expirationDate },
      ],
      serviceLines: lines.filter((l) => l.kind === 'service'),
      partLines: lines.filter((l) => l.kind === 'part'),
      totals,
      note: row.note,
    };
  }

  return { options, print };
}
