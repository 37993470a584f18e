import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A flag open while some work runs, seen from that work's async context: the layer's check that no second database
 * call is made from inside a write (decision 052). On everywhere, production included (issue 40): such a call
 * throws at once instead of waiting for the write it sits in (on PGlite, DB_WAIT_MS, then 503). Its price, promise
 * hooks for the life of the process on Node 20 (about 60 us of CPU a request), is far inside every budget.
 */
export class OpenWhile {
  #context = new AsyncLocalStorage<{ open: boolean }>();

  /** True when called from inside `run`'s work, before it settled. */
  get open(): boolean {
    return this.#context.getStore()?.open ?? false;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const state = { open: true };
    try {
      return await this.#context.run(state, work);
    } finally {
      state.open = false;
    }
  }
}
