import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { sameUpdatedAt, StaleEdit } from '../../server/stale-edit';
import { customerVendors, organizations, parts, services, taxChildren, taxes, uoms, users } from '../../server/db/schema';
import { badRequest, notFound } from '../../server/http-error';
import { pagination } from '../../shared/pagination';
import { computeTotals, type LineInput, type TaxRule } from '../../shared/tax';
import { currencyDigits, toMajor, toMinor } from '../../shared/money';
import { diffChanges, recordActivity, registerActivityEntity } from '../activity/activity.service';
import { checkOwnFiles } from '../customers-vendors/customers-vendors.service';
import type { DocumentLineDto, DocumentTotalsDto, LineKind, LineValues, StoredAttachment } from './document-lines.schema';
import { checkCurrencyDecimals, getCompany, moneySettings } from '../organization/organization.service';
import type { PrintableDocument } from './document-pdf.service';
import { escapeLike } from '../../server/db/like';
import { discardFiles } from '../../server/uploads/storage';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import type { WebhookEvent } from '../webhooks/webhooks.schema';
import { managersOf, notify } from '../notifications/notifications.service';
import type { NotificationKind } from '../notifications/notifications.schema';

/**
 * The business rules quotations and purchase orders share: lines resolved against the catalogue, taxes of
 * the right scope, totals from the shared tax engine (the client's figures are never trusted), lists,
 * options, status changes and history. Each feature gives its tables and words in a `DocumentKind`.
 */
export interface DocumentKind {
  entityType: string;
  /** The webhook announced when a document reaches a status (a quotation accepted, an order confirmed; decision 043). */
  webhook?: { status: string; event: WebhookEvent };
  /** The status at which a document waits for a manager's approval, and the notification it sends (decision 074). */
  approval?: { status: string; kind: NotificationKind };
  /** 'Quotation', 'Purchase order' */
  label: string;
  listKey: string;
  singularKey: string;
  /** The document table and its lines table (Drizzle tables; typed loosely because the two differ in names). */
  table: any;
  lines: any;
  /** Column names of the document table. */
  partyColumn: string;
  personColumn: string;
  dateColumn: string;
  /** The line table's reference to its document. */
  lineDocColumn: string;
  /** e.g. 'Customer', 'Sales Person' (messages). */
  partyLabel: string;
  personLabel: string;
  partyPath: string;
  personPath: string;
  /** The party's type: a quotation's customer is a customer, a purchase order's vendor a vendor. */
  partyType: 'customer' | 'vendor';
  /** The field message when the chosen party is of the other type. */
  partyTypeMessage: string;
  taxScope: 'sales' | 'purchase';
  taxScopeMessage: string;
  numberOf(id: number): string;
  /** The id field name shown with the number (quotationId: 'Q-0001'). */
  displayIdKey: string;
  /** Shapes a list row from the shared columns (keys of the feature's DTO). */
  shapeRow(row: BaseRow): Record<string, unknown>;
  /** The part's default unit of measure for a line. */
  partUom: 'unitOfMeasureId' | 'purchaseUnitOfMeasureId';
  /** The printed document's words. */
  print: { title: string; statusLabel(s: string): string; partyLabel: string; personLabel: string; dateLabel: string; expirationLabel: string };
}

export interface BaseRow {
  id: number;
  status: string;
  partyId: number;
  partyName: string | null;
  partyEmail: string | null;
  personId: number;
  personFirstName: string | null;
  personLastName: string | null;
  date: Date;
  expirationDate: Date | null;
  note: string | null;
  attachments: StoredAttachment[];
  rawSubtotal: number;
  totalDiscount: number;
  untaxed: number;
  totalTax: number;
  total: number;
  /** The organisation's currency: the stored figures are in its minor units (decision 035). */
  currency: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface DocumentValues {
  status?: string;
  expirationDate?: Date | null;
  note?: string;
  attachments?: StoredAttachment[];
  serviceDetails: LineValues[];
  partDetails: LineValues[];
  [key: string]: unknown;
}

export interface ListQuery {
  page: number;
  pageSize: number;
  status?: string[];
  title?: string;
  name?: string;
}

const major = (minor: number | string, digits: number) => toMajor(Number(minor), digits);

/** The stored figures (minor units of the currency) in major units, as the API speaks. */
export function totalsDto(
  r: { rawSubtotal: number; totalDiscount: number; untaxed: number; totalTax: number; total: number },
  digits: number,
): DocumentTotalsDto {
  return {
    rawSubtotal: major(r.rawSubtotal, digits),
    totalDiscount: major(r.totalDiscount, digits),
    untaxed: major(r.untaxed, digits),
    totalTax: major(r.totalTax, digits),
    total: major(r.total, digits),
  };
}

/** What the tax engine reads of a tax (decision 036). */
const engineColumns = {
  id: taxes.id,
  name: taxes.name,
  taxComputation: taxes.taxComputation,
  amount: taxes.amount,
  isPriceIncluded: taxes.isPriceIncluded,
  sequence: taxes.sequence,
  includeBaseAmount: taxes.includeBaseAmount,
};

/** The document-level service: one instance per kind (its history entries are registered under `entityType`). */
export function documentService(k: DocumentKind) {
  registerActivityEntity(k.entityType, k.table, k.label);
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
    expirationDate: T.expirationDate,
    note: T.note,
    attachments: T.attachments,
    rawSubtotal: T.rawSubtotal,
    totalDiscount: T.totalDiscount,
    untaxed: T.untaxed,
    totalTax: T.totalTax,
    total: T.total,
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
        id: L.id,
        kind: L.kind,
        serviceId: L.serviceId,
        partId: L.partId,
        name: L.name,
        quantity: L.quantity,
        unitPrice: L.unitPrice,
        taxId: L.taxId,
        taxName: taxes.name,
        discount: L.discount,
        taxAmount: L.taxAmount,
        subtotal: L.subtotal,
        uomId: L.uomId,
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
        id: r.id,
        kind: r.kind,
        serviceId: r.serviceId,
        partId: r.partId,
        name: r.name,
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

  /** Taxes by id with their children, as the engine needs them; foreign or wrong-scope taxes are a 400. */
  async function loadTaxes(tx: ReadTx, orgId: number, refs: { id: number; path: string }[]) {
    const ids = [...new Set(refs.map((r) => r.id))];
    const rules = new Map<number, TaxRule & { scope: string }>();
    if (!ids.length) return rules;
    const rows = await tx
      .select({ ...engineColumns, scope: taxes.scope })
      .from(taxes)
      .where(and(eq(taxes.orgId, orgId), inArray(taxes.id, ids)));
    const children = await tx
      .select({ groupId: taxChildren.groupId, ...engineColumns })
      .from(taxChildren)
      .innerJoin(taxes, and(eq(taxes.orgId, taxChildren.orgId), eq(taxes.id, taxChildren.childId)))
      .where(and(eq(taxChildren.orgId, orgId), inArray(taxChildren.groupId, ids)));
    for (const r of rows) {
      rules.set(r.id, {
        ...r,
        amount: r.amount === null ? null : Number(r.amount),
        children: children.filter((c) => c.groupId === r.id).map(({ groupId: _g, ...c }) => ({ ...c, amount: c.amount === null ? null : Number(c.amount) })),
      });
    }
    for (const ref of refs) {
      const rule = rules.get(ref.id);
      if (!rule) throw badRequest('Tax not found', ref.path);
      if (rule.scope !== k.taxScope) throw badRequest(k.taxScopeMessage, ref.path);
    }
    return rules;
  }

  /**
   * Resolves the lines against the organisation's catalogue (names and prices default to the service's or
   * part's), checks every reference, and computes every figure with the shared engine.
   */
  async function resolveLines(tx: Tx, orgId: number, input: DocumentValues) {
    const money = await moneySettings(tx, orgId);
    const { digits } = money;
    const all: { kind: LineKind; path: string; line: LineValues }[] = [
      ...input.serviceDetails.map((line, i) => ({ kind: 'service' as const, path: `serviceDetails.${i}`, line })),
      ...input.partDetails.map((line, i) => ({ kind: 'part' as const, path: `partDetails.${i}`, line })),
    ];
    const serviceIds = [...new Set(all.filter((l) => l.kind === 'service').map((l) => l.line.serviceId!))];
    const partIds = [...new Set(all.filter((l) => l.kind === 'part').map((l) => l.line.partId!))];
    const uomIds = [...new Set(all.map((l) => l.line.uomId).filter((v): v is number => !!v))];
    const serviceRows = serviceIds.length
      ? await tx
          .select({ id: services.id, name: services.title, price: services.price })
          .from(services)
          .where(and(eq(services.orgId, orgId), inArray(services.id, serviceIds)))
      : [];
    const partRows = partIds.length
      ? await tx
          .select({ id: parts.id, name: parts.name, price: parts.salesPrice, uomId: parts[k.partUom] })
          .from(parts)
          .where(and(eq(parts.orgId, orgId), inArray(parts.id, partIds)))
      : [];
    const uomRows = uomIds.length
      ? await tx
          .select({ id: uoms.id })
          .from(uoms)
          .where(and(eq(uoms.orgId, orgId), inArray(uoms.id, uomIds)))
      : [];
    const taxRules = await loadTaxes(
      tx,
      orgId,
      all.filter((l) => l.line.taxId).map((l) => ({ id: l.line.taxId!, path: `${l.path}.taxId` })),
    );

    const resolved = all.map(({ kind, path, line }, position) => {
      const item = kind === 'service' ? serviceRows.find((s) => s.id === line.serviceId) : partRows.find((p) => p.id === line.partId);
      if (!item) throw badRequest(kind === 'service' ? 'Service not found' : 'Part not found', `${path}.${kind === 'service' ? 'serviceId' : 'partId'}`);
      if (line.uomId && !uomRows.some((u) => u.id === line.uomId)) throw badRequest('Unit of measure not found', `${path}.uomId`);
      // A price with more decimals than the currency has (a JPY price of 12.5) is refused, not rounded.
      checkCurrencyDecimals(line.unitPrice, money, `${path}.unitPrice`);
      const unitPrice = toMinor(line.unitPrice ?? Number(item.price), digits);
      const tax = line.taxId ? taxRules.get(line.taxId)! : null;
      const engineLine: LineInput = { quantity: line.quantity, unitPrice, discount: line.discount, tax };
      return {
        engineLine,
        row: {
          kind,
          serviceId: kind === 'service' ? item.id : null,
          partId: kind === 'part' ? item.id : null,
          name: line.name ?? item.name,
          quantity: line.quantity,
          unitPrice,
          taxId: line.taxId ?? null,
          discount: line.discount,
          uomId: kind === 'part' ? (line.uomId ?? (item as { uomId?: number }).uomId ?? null) : null,
          position,
        },
      };
    });
    const totals = computeTotals(
      resolved.map((r) => r.engineLine),
      { digits, rounding: money.taxRounding },
    );
    const rows = resolved.map((r, i) => ({ ...r.row, taxAmount: totals.lines[i].taxAmount, subtotal: totals.lines[i].subtotal }));
    const { lines: _lines, ...sums } = totals;
    return { rows, totals: sums, digits };
  }

  async function checkOverview(tx: Tx, orgId: number, input: DocumentValues) {
    const partyId = input[k.partyColumn] as number;
    const personId = input[k.personColumn] as number;
    const [party] = await tx
      .select({ id: customerVendors.id, type: customerVendors.type })
      .from(customerVendors)
      .where(and(eq(customerVendors.orgId, orgId), eq(customerVendors.id, partyId)));
    if (!party) throw badRequest(`${k.partyLabel} not found`, k.partyPath);
    if (party.type !== k.partyType) throw badRequest(k.partyTypeMessage, k.partyPath);
    const [person] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.orgId, orgId), eq(users.id, personId)));
    if (!person) throw badRequest(`${k.personLabel} not found`, k.personPath);
    checkOwnFiles(orgId, input.attachments, 'attachments');
  }

  const overviewValues = (input: DocumentValues, before?: BaseRow) => ({
    [k.partyColumn]: input[k.partyColumn] as number,
    [k.personColumn]: input[k.personColumn] as number,
    [k.dateColumn]: input[k.dateColumn] as Date,
    expirationDate: (input.expirationDate ?? null) as Date | null,
    note: input.note ?? null,
    attachments: input.attachments ?? before?.attachments ?? [],
    ...(input.status ? { status: input.status } : {}),
  });

  async function writeLines(tx: Tx, orgId: number, id: number, rows: Record<string, unknown>[]) {
    await tx.delete(L).where(and(eq(L.orgId, orgId), eq(L[k.lineDocColumn], id)));
    if (rows.length) await tx.insert(L).values(rows.map((r) => ({ orgId, [k.lineDocColumn]: id, ...r })));
  }

  async function add(tx: Tx, orgId: number, userId: number, input: DocumentValues, query: ListQuery) {
    await checkOverview(tx, orgId, input);
    const { rows, totals } = await resolveLines(tx, orgId, input);
    const [created] = await tx
      .insert(T)
      .values({ orgId, ...overviewValues(input), ...totals })
      .returning({ id: T.id });
    await writeLines(tx, orgId, created.id, rows);
    await recordActivity(tx, orgId, { entityType: k.entityType, entityId: created.id, userId, action: 'created' });
    if (input.status) await announce(tx, orgId, created.id, undefined, input.status, userId);
    return {
      message: `${k.label} added successfully`,
      [k.singularKey]: await get(tx, orgId, created.id),
      ...(await list(tx, orgId, query)),
    };
  }

  async function update(tx: Tx, orgId: number, userId: number, id: number, input: DocumentValues, query: ListQuery) {
    // Refuses an edit made from an older copy and locks the document until this edit commits (decision 025).
    const [claimed] = await tx
      .update(T)
      .set({ updatedAt: new Date() })
      .where(and(eq(T.orgId, orgId), eq(T.id, id), sameUpdatedAt(T.updatedAt, input.updatedAt as string | undefined)))
      .returning({ id: T.id });
    if (!claimed) throw new StaleEdit(await get(tx, orgId, id));
    const before = await getRow(tx, orgId, id);
    await checkOverview(tx, orgId, input);
    const { rows, totals, digits } = await resolveLines(tx, orgId, input);
    const next = overviewValues(input, before);
    await tx
      .update(T)
      .set({ ...next, ...totals, updatedAt: new Date() })
      .where(and(eq(T.orgId, orgId), eq(T.id, id)));
    await writeLines(tx, orgId, id, rows);
    const beforeFlat: Record<string, unknown> = {
      [k.partyColumn]: before.partyId,
      [k.personColumn]: before.personId,
      [k.dateColumn]: before.date,
      expirationDate: before.expirationDate,
      note: before.note,
      attachments: before.attachments,
      status: before.status,
      total: major(before.total, digits),
    };
    const changes = diffChanges(beforeFlat, { ...next, total: major(totals.total, digits) }, Object.keys(beforeFlat));
    await recordActivity(tx, orgId, {
      entityType: k.entityType,
      entityId: id,
      userId,
      action: 'updated',
      changes: Object.keys(changes).length ? changes : null,
    });
    if (input.status) await announce(tx, orgId, id, before.status, input.status, userId);
    return {
      message: `${k.label} updated successfully`,
      [k.singularKey]: await get(tx, orgId, id),
      ...(await list(tx, orgId, query)),
    };
  }

  async function remove(tx: Tx, orgId: number, userId: number, id: number, query: ListQuery) {
    const before = await getRow(tx, orgId, id);
    await tx.delete(T).where(and(eq(T.orgId, orgId), eq(T.id, id)));
    discardFiles(
      tx,
      before.attachments.map((a) => a.url),
    );
    await recordActivity(tx, orgId, {
      entityType: k.entityType,
      entityId: id,
      userId,
      action: 'deleted',
      changes: { number: { from: k.numberOf(id), to: null } },
    });
    return { message: `${k.label} deleted successfully`, ...(await list(tx, orgId, query)) };
  }

  /** The kind's webhook when a document arrives at its status; the managers when it waits for their approval (decision 074). */
  async function announce(tx: Tx, orgId: number, id: number, from: string | undefined, to: string, actorId?: number) {
    if (k.approval && to === k.approval.status && from !== to)
      await notify(tx, orgId, {
        kind: k.approval.kind,
        entityType: k.entityType,
        entityId: id,
        recipients: await managersOf(tx, orgId),
        actorId,
        data: { number: k.numberOf(id), title: (await getRow(tx, orgId, id)).partyName ?? undefined },
      });
    if (!k.webhook || to !== k.webhook.status || from === to) return;
    const row = await getRow(tx, orgId, id);
    await emitWebhookEvent(tx, orgId, k.webhook.event, {
      id,
      number: k.numberOf(id),
      [k.partyColumn]: row.partyId,
      partyName: row.partyName,
      totalMinorUnits: row.total,
      currency: row.currency,
      status: to,
    });
  }

  async function setStatus(tx: Tx, orgId: number, userId: number, id: number, status: string) {
    const before = await getRow(tx, orgId, id);
    if (before.status !== status) {
      await tx
        .update(T)
        .set({ status, updatedAt: new Date() })
        .where(and(eq(T.orgId, orgId), eq(T.id, id)));
      await recordActivity(tx, orgId, {
        entityType: k.entityType,
        entityId: id,
        userId,
        action: 'status',
        changes: { status: { from: before.status, to: status } },
      });
      await announce(tx, orgId, id, before.status, status, userId);
    }
    const doc = shape(await getRow(tx, orgId, id));
    return { message: `${k.label} status updated successfully`, status, [k.singularKey]: doc };
  }

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

  /** The taxes a line may take (this kind's scope), with their children, in the engine's form. */
  async function taxOptions(tx: ReadTx, orgId: number) {
    const rows = await tx
      .select({ id: taxes.id })
      .from(taxes)
      .where(and(eq(taxes.orgId, orgId), eq(taxes.scope, k.taxScope)))
      .orderBy(asc(taxes.name));
    const rules = await loadTaxes(
      tx,
      orgId,
      rows.map((r) => ({ id: r.id, path: 'taxId' })),
    );
    return rows.map((r) => {
      const rule = rules.get(r.id)!;
      return {
        value: r.id,
        label: rule.name ?? '',
        taxComputation: rule.taxComputation,
        amount: rule.amount,
        isPriceIncluded: rule.isPriceIncluded,
        sequence: rule.sequence,
        includeBaseAmount: rule.includeBaseAmount,
        children: (rule.children ?? []).map((c) => ({
          id: c.id,
          name: c.name,
          taxComputation: c.taxComputation,
          amount: c.amount,
          isPriceIncluded: c.isPriceIncluded,
          sequence: c.sequence,
          includeBaseAmount: c.includeBaseAmount,
        })),
      };
    });
  }

  return { list, get, add, update, remove, setStatus, options, print, resolveLines, taxOptions };
}

/** The shared columns as the list rows show them, plus the feature's names. */
export function baseDto(k: Pick<DocumentKind, 'numberOf' | 'displayIdKey'>, r: BaseRow) {
  const digits = currencyDigits(r.currency);
  return {
    id: r.id,
    number: k.numberOf(r.id),
    [k.displayIdKey]: k.numberOf(r.id),
    status: r.status,
    CustomerVendor: r.partyName !== null ? { id: r.partyId, name: r.partyName, email: r.partyEmail ?? '' } : null,
    expirationDate: r.expirationDate ? r.expirationDate.toISOString() : null,
    note: r.note,
    attachments: r.attachments ?? [],
    total: major(r.total, digits),
    totals: totalsDto(r, digits),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export const personDto = (r: BaseRow) =>
  r.personFirstName !== null ? { id: r.personId, firstName: r.personFirstName, lastName: r.personLastName ?? '' } : null;
