import { foreignKey, index, integer, pgTable, primaryKey, type AnyPgColumn, type PgColumnBuilderBase, type PgTableExtraConfigValue } from 'drizzle-orm/pg-core';
import type { BuildExtraConfigColumns } from 'drizzle-orm';
import { orgIdColumn } from './columns';
import { orgOwned, orgRowKeys } from '../../features/organization/organization.table';

// The keys tenant tables repeat: a reference inside the organisation, the link table of two records, the
// organisation's one-row settings. Each builds exactly the constraints the tables wrote out before (same names).

/** A tenant table (`orgRowColumns()`): what an `orgRef` points at. */
type OrgKeyed = { orgId: AnyPgColumn; id: AnyPgColumn };

/**
 * A reference to a row of the same organisation: the composite foreign key (org_id, column) -> (org_id, id), so
 * that a row can never point into another tenant. Without `onDelete` the referenced row cannot be deleted while used.
 */
export const orgRef = (t: { orgId: AnyPgColumn }, column: AnyPgColumn, target: OrgKeyed) =>
  foreignKey({ columns: [t.orgId, column], foreignColumns: [target.orgId, target.id] });

/** Several such references at once: each named column points at its table's rows of the same organisation. */
export const orgRefs = <T extends { orgId: AnyPgColumn }>(t: T, targets: { [K in keyof T]?: OrgKeyed }) =>
  Object.entries(targets).map(([column, target]) => orgRef(t, t[column as keyof T] as AnyPgColumn, target as OrgKeyed));

/** The keys of a row that belongs to another record (a reading of its meter, a message of its share): its own key, and its parent's, whose deletion takes it along. */
export const orgChildKeys = (t: OrgKeyed, parentColumn: AnyPgColumn, parent: OrgKeyed) => [
  ...orgRowKeys(t),
  orgRef(t, parentColumn, parent).onDelete('cascade'),
];

const linkId = () => integer().notNull();
type LinkId = ReturnType<typeof linkId>;
type LinkColumns<A extends string, B extends string, X> = { orgId: ReturnType<typeof orgIdColumn> } & Record<A, LinkId> & Record<B, LinkId> & X;

/** One end of a link: the id column's name, the table it points at, and whether deleting that row removes the link. */
type LinkEnd<K extends string> = readonly [column: K, table: OrgKeyed, onDelete?: 'cascade'];

/**
 * A link of two records of the organisation (many-to-many): key (org, owner, target); the link always goes with
 * its owner, with its target when it says 'cascade' (otherwise a linked target cannot be deleted). `index` names
 * the index for reading the links from the target's side; `columns` are the link's own data.
 */
export function orgLinkTable<N extends string, A extends string, B extends string, X extends Record<string, PgColumnBuilderBase> = Record<never, never>>(
  name: N,
  link: {
    owner: LinkEnd<A>;
    target: LinkEnd<B>;
    columns?: X;
    index?: string;
    extra?: (t: BuildExtraConfigColumns<N, LinkColumns<A, B, X>, 'pg'>) => PgTableExtraConfigValue[];
  },
) {
  const [ownerKey, ownerTable] = link.owner;
  const [targetKey, targetTable, targetDelete] = link.target;
  const columns = { orgId: orgIdColumn(), [ownerKey]: linkId(), [targetKey]: linkId(), ...link.columns } as LinkColumns<A, B, X>;
  return pgTable(name, columns, (t) => {
    const cols = t as unknown as Record<string, AnyPgColumn> & { orgId: AnyPgColumn };
    const owner = cols[ownerKey];
    const target = cols[targetKey];
    const targetRef = orgRef(cols, target, targetTable);
    return [
      primaryKey({ columns: [cols.orgId, owner, target] }),
      orgRef(cols, owner, ownerTable).onDelete('cascade'),
      targetDelete ? targetRef.onDelete(targetDelete) : targetRef,
      ...(link.index ? [index(link.index).on(cols.orgId, target)] : []),
      ...(link.extra?.(t) ?? []),
    ];
  });
}

/** The organisation's settings of an area: one row keyed by the organisation (absent: the defaults), gone with it. */
export const orgSettingsTable = <N extends string, X extends Record<string, PgColumnBuilderBase>>(name: N, columns: X) =>
  pgTable(name, { orgId: orgIdColumn().primaryKey(), ...columns }, (t) => [orgOwned(t)]);
