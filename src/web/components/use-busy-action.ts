import { useCallback, useState } from 'react';
import { errorMessage } from '../lib/api';
import { notifyError } from './notify';

/**
 * An action with a busy flag (a button's spinner): `run(action, failure)` turns `busy` on while it runs and toasts
 * `errorMessage(err, failure)` when it fails (the server's message, else `failure`); it resolves true when it succeeded.
 * The failure's message also stays in `error` (for a form that shows it in place) until the next run or `setError`.
 */
export function useBusyAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (action: () => Promise<unknown>, failure: string) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (err) {
      const message = errorMessage(err, failure);
      setError(message);
      notifyError(message);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, run, error, setError };
}
