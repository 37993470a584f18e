import { and, asc, eq, inArray } from 'drizzle-orm';
import { readOrgRows } from '../../server/db/org-rows';
import type { ReadTx, Tx } from '../../server/db/client';
import { parts, services, taxChildren, taxes, uoms } from '../../server/db/schema';
import { badRequest } from '../../server/http-error';
import { computeTotals, type LineInput, type TaxRule } from '../../shared/tax';
import { toMinor } from '../../shared/money';
import type { LineKind, LineValues } from './document-lines.schema';
import { checkCurrencyDecimals, moneySettings } from '../organization/organization.service';
import { engineColumns, type DocumentKind, type DocumentValues } from './document-kind.service';

/** A kind's taxes and the pricing of its lines with the shared engine (decision 036). */
export function documentPricing(k: DocumentKind) {
  /** Taxes by id with their children, as the engine needs them; foreign or wrong-scope taxes are a 400. */
  async function loadTaxes(tx: ReadTx, orgId: number, refs: { id: number; path: string }[]) {
    const ids = [...new Set(refs.map((r) => r.id))];
    const rules = new Map<number, TaxRule & { scope: string }>();
    if (!ids.length) return rules;
    const rows = await readOrgRows(tx, taxes, { ...engineColumns, scope: taxes.scope }, orgId, ids);
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
      ? await readOrgRows(tx, services, { id: services.id, name: services.title, price: services.price }, orgId, serviceIds)
      : [];
    const partRows = partIds.length
      ? await readOrgRows(tx, parts, { id: parts.id, name: parts.name, price: parts.salesPrice, uomId: parts[k.partUom] }, orgId, partIds)
      : [];
    const uomRows = uomIds.length ? await readOrgRows(tx, uoms, { id: uoms.id }, orgId, uomIds) : [];
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

  return { loadTaxes, resolveLines, taxOptions };
}
