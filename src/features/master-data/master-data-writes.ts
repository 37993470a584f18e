import type { ReadTx, Tx } from '../../server/db/client';
import { deleteOrgRow, type OrgRowTable } from '../../server/db/org-rows';
import { historyOf } from '../activity/activity.service';
import { addThenList } from '../../server/add-answer';

/** A record's changed fields for its history line (`diffChanges`). */
type Changes = Record<string, { from: unknown; to: unknown }>;

/**
 * The writes every master-data list has (spec document 2, section 5), around what each list does its own way:
 * - `create`: `insert` (the list's checks and its row), then the 'created' history line; the id (the import
 *   creates records through it too, decision 042);
 * - `add`: `create`, answering the message, the record under `keys.added` and the refreshed list;
 * - `update`: reads the record (404 when missing), `change` (checks, writes, says what changed), an 'updated' line
 *   when anything did; answers the message and the record under each of `keys.updated`;
 * - `remove`: reads the record, deletes it (409 with `list.inUse` while other records use it), a 'deleted' line;
 *   answers the message and the refreshed list.
 */
export function masterDataWrites<Input, Dto, Q, L extends object, A extends string, U extends string>(list: {
  /** The history's entity type (registered with `registerActivityEntity`). */
  entityType: string;
  table: OrgRowTable;
  get: (tx: Tx, orgId: number, id: number) => Promise<Dto>;
  list: (tx: ReadTx, orgId: number, query: Q) => Promise<L>;
  insert: (tx: Tx, orgId: number, input: Input) => Promise<number>;
  change: (tx: Tx, orgId: number, id: number, input: Input, before: Dto) => Promise<Changes>;
  keys: { added: A; updated: U[] };
  /** The answers' messages, as the spec words them (the messages catalogue finds them here for their Arabic). */
  messages: { added: string; updated: string; deleted: string };
  inUse: string;
}) {
  const history = historyOf(list.entityType);
  const { keys, messages } = list;

  async function create(tx: Tx, orgId: number, actorId: number, input: Input): Promise<number> {
    const id = await list.insert(tx, orgId, input);
    await history(tx, orgId, id, actorId, 'created');
    return id;
  }

  const add = addThenList(create, { message: messages.added, key: keys.added, get: list.get, list: list.list });

  async function update(tx: Tx, orgId: number, actorId: number, id: number, input: Input) {
    const before = await list.get(tx, orgId, id);
    const changes = await list.change(tx, orgId, id, input, before);
    if (Object.keys(changes).length) await history(tx, orgId, id, actorId, 'updated', changes);
    const record = await list.get(tx, orgId, id);
    return { message: messages.updated, ...Object.fromEntries(keys.updated.map((key) => [key, record])) } as { message: string } & Record<U, Dto>;
  }

  async function remove(tx: Tx, orgId: number, actorId: number, id: number, query: Q) {
    await list.get(tx, orgId, id);
    await deleteOrgRow(tx, list.table, orgId, id, list.inUse);
    await history(tx, orgId, id, actorId, 'deleted');
    return { message: messages.deleted, ...(await list.list(tx, orgId, query)) };
  }

  return { create, add, update, remove };
}
