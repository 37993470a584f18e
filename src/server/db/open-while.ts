import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whether the layer checks, by async context, that no second database call is made from inside a write (decision
 * 052). On in development and tests, off in production (`NODE_ENV=production`) and in benchmarks
 * (`DB_NESTED_CALL_CHECK=off`): on Node 20 one AsyncLocalStorage used once installs promise hooks for the life of
 * the process, which cost every request about 60 us of CPU (a sixth of a page of work orders). Without the check
 * such a call still never hangs: on PGlite it waits for the write and fails after DB_WAIT_MS (503).
 */
export const NESTED_CALL_CHECK = process.env.DB_NESTED_CALL_CHECK ? process.env.DB_NESTED_CALL_CHECK === 'on' : process.env.NODE_ENV !== 'production';

/** A flag open while some work runs, seen from that work's async context (always closed when the check is off). */
export class OpenWhile {
  #context: AsyncLocalStorage<{ open: boolean }> | undefined;

  constructor(check = NESTED_CALL_CHECK) {
    this.#context = check ? new AsyncLocalStorage() : undefined;
  }

  /** True when called from inside `run`'s work, before it settled. */
  get open(): boolean {
    return this.#context?.getStore()?.open ?? false;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (!this.#context) return work();
    const state = { open: true };
    try {
      return await this.#context.run(state, work);
    } finally {
      state.open = false;
    }
  }
}
