import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { ReadTx, Tx } from '../../server/db/client';
import { taxChildren, taxes } from '../../server/db/schema';
import { badRequest, notFound } from '../../server/http-error';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import type { SimpleListQuery, TaxChildDto, TaxDto, taxInputSchema } from './master-data.schema';
import { checkCurrencyDecimals, moneySettings } from '../organization/organization.service';
import { iso, readSimpleTable } from '../../server/db/simple-list';
import { orgRow, readOrgRow } from '../../server/db/org-rows';
import { masterDataWrites } from './master-data-writes';

registerActivityEntity('tax', taxes, 'Tax');

type Input = z.output<typeof taxInputSchema>;

const columns = {
  id: taxes.id,
  name: taxes.name,
  scope: taxes.scope,
  taxComputation: taxes.taxComputation,
  amount: taxes.amount,
  isPriceIncluded: taxes.isPriceIncluded,
  sequence: taxes.sequence,
  includeBaseAmount: taxes.includeBaseAmount,
  createdAt: taxes.createdAt,
};
type Row = {
  id: number;
  name: string;
  scope: TaxDto['scope'];
  taxComputation: TaxDto['taxComputation'];
  amount: number | null;
  isPriceIncluded: boolean;
  sequence: number;
  includeBaseAmount: boolean;
  createdAt: Date;
};

const child = (r: Row): TaxChildDto => ({
  id: r.id,
  name: r.name,
  scope: r.scope,
  taxComputation: r.taxComputation,
  amount: r.amount === null ? null : Number(r.amount),
  sequence: r.sequence,
  includeBaseAmount: r.includeBaseAmount,
});

/** Attaches `Children` (the child taxes of groups) to tax rows. */
async function withChildren(tx: ReadTx, orgId: number, rows: Row[]): Promise<TaxDto[]> {
  const groupIds = rows.filter((r) => r.taxComputation === 'group').map((r) => r.id);
  const links = groupIds.length
    ? await tx
        .select({ groupId: taxChildren.groupId, ...columns })
        .from(taxChildren)
        .innerJoin(taxes, and(eq(taxes.orgId, taxChildren.orgId), eq(taxes.id, taxChildren.childId)))
        .where(and(eq(taxChildren.orgId, orgId), inArray(taxChildren.groupId, groupIds)))
        // the order they apply in (decision 036)
        .orderBy(asc(taxes.sequence), asc(taxes.id))
    : [];
  return rows.map((r) => ({
    ...child(r),
    isPriceIncluded: r.isPriceIncluded,
    Children: links.filter((l) => l.groupId === r.id).map(child),
    createdAt: iso(r.createdAt),
  }));
}

/** The organisation's taxes with their child taxes (name filter), sorted by name. */
export async function listTaxes(tx: ReadTx, orgId: number, query: SimpleListQuery) {
  const { rows, pagination } = await readSimpleTable(tx, 'taxes.list', orgId, query, taxes, columns);
  return { taxes: await withChildren(tx, orgId, rows), pagination };
}

export async function getTax(tx: Tx, orgId: number, id: number): Promise<TaxDto> {
  const row = await readOrgRow(tx, taxes, columns, orgId, id);
  if (!row) throw notFound('Tax');
  return (await withChildren(tx, orgId, [row]))[0];
}

/**
 * Child taxes of a group: taxes of this organisation, never groups, never the group itself, and of
 * the group's scope (a sales group sums sales taxes).
 */
async function checkChildren(tx: Tx, orgId: number, input: Input, selfId?: number) {
  // A fixed tax is money: no more decimals than the currency has (decision 035).
  if (input.taxComputation === 'fixed') checkCurrencyDecimals(input.amount, await moneySettings(tx, orgId), 'amount');
  if (input.taxComputation !== 'group') return;
  if (selfId !== undefined && input.children.includes(selfId)) throw badRequest('A group tax cannot contain itself', 'children');
  const found = await tx
    .select({ id: taxes.id, scope: taxes.scope, taxComputation: taxes.taxComputation })
    .from(taxes)
    .where(and(eq(taxes.orgId, orgId), inArray(taxes.id, input.children)));
  if (found.length !== input.children.length) throw badRequest('Child tax not found', 'children');
  if (found.some((t) => t.taxComputation === 'group')) throw badRequest('A group tax cannot contain another group tax', 'children');
  if (found.some((t) => t.scope !== input.scope)) throw badRequest('Child taxes must have the same scope as the group', 'children');
}

/** A tax that is a child of groups must stay a non-group tax of the groups' scope. */
async function checkAsChild(tx: Tx, orgId: number, id: number, input: Input) {
  const groups = await tx
    .select({ scope: taxes.scope })
    .from(taxChildren)
    .innerJoin(taxes, and(eq(taxes.orgId, taxChildren.orgId), eq(taxes.id, taxChildren.groupId)))
    .where(and(eq(taxChildren.orgId, orgId), eq(taxChildren.childId, id)));
  if (!groups.length) return;
  if (input.taxComputation === 'group') throw badRequest('This tax is a child of a group tax and cannot become a group', 'taxComputation');
  if (groups.some((g) => g.scope !== input.scope)) throw badRequest('This tax is a child of a group tax and must keep the group scope', 'scope');
}

async function setChildren(tx: Tx, orgId: number, groupId: number, children: number[]) {
  await tx.delete(taxChildren).where(and(eq(taxChildren.orgId, orgId), eq(taxChildren.groupId, groupId)));
  if (children.length) await tx.insert(taxChildren).values(children.map((childId) => ({ orgId, groupId, childId })));
}

const valuesOf = (input: Input) => ({
  name: input.name,
  scope: input.scope,
  taxComputation: input.taxComputation,
  amount: input.amount,
  isPriceIncluded: input.isPriceIncluded,
  sequence: input.sequence,
  includeBaseAmount: input.includeBaseAmount,
});

/** Creates (the add route, and the import, decision 042), adds, updates and deletes taxes. */
export const {
  create: createTax,
  add: addTax,
  update: updateTax,
  remove: deleteTax,
} = masterDataWrites({
  entityType: 'tax',
  table: taxes,
  get: getTax,
  list: listTaxes,
  insert: async (tx, orgId, input: Input) => {
    await checkChildren(tx, orgId, input);
    const [row] = await tx
      .insert(taxes)
      .values({ orgId, ...valuesOf(input) })
      .returning({ id: taxes.id });
    await setChildren(tx, orgId, row.id, input.children);
    return row.id;
  },
  change: async (tx, orgId, id, input, before) => {
    await checkChildren(tx, orgId, input, id);
    await checkAsChild(tx, orgId, id, input);
    const values = valuesOf(input);
    await tx
      .update(taxes)
      .set(values)
      .where(orgRow(taxes, orgId, id));
    await setChildren(tx, orgId, id, input.children);
    return diffChanges(
      { ...before, children: before.Children.map((c) => c.id).sort() } as Record<string, unknown>,
      { ...values, children: [...input.children].sort() },
      ['name', 'scope', 'taxComputation', 'amount', 'isPriceIncluded', 'sequence', 'includeBaseAmount', 'children'],
    );
  },
  keys: { added: 'tax', updated: ['tax'] },
  messages: { added: 'Tax added successfully', updated: 'Tax updated successfully', deleted: 'Tax deleted successfully' },
  // while a group, a quotation line or a purchase-order line uses the tax
  inUse: 'This tax is used by other records and cannot be deleted',
});
