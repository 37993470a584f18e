import type { Tx } from './db/client';

/** What an add answers besides the record it created: the spec's message, the record's key, how it and the list are read. */
export interface AddAnswer<Q, D, L, K extends string> {
  message: string;
  key: K;
  get: (tx: Tx, orgId: number, id: number) => Promise<D>;
  list: (tx: Tx, orgId: number, query: Q) => Promise<L>;
}

/**
 * A list's add route behind `registerCrudRoutes` (`service.add`): `create` (the checks, the row, the history line;
 * the import creates through it too), then the answer: `message`, the new record under `key` and the refreshed list.
 */
export function addThenList<I, Q, D, L extends object, K extends string>(
  create: (tx: Tx, orgId: number, actorId: number, input: I) => Promise<number>,
  answer: AddAnswer<Q, D, L, K>,
) {
  return async (tx: Tx, orgId: number, actorId: number, input: I, query: Q) => {
    const id = await create(tx, orgId, actorId, input);
    const record = await answer.get(tx, orgId, id);
    return { message: answer.message, [answer.key]: record, ...(await answer.list(tx, orgId, query)) } as { message: string } & Record<K, D> & L;
  };
}
