import { useCallback, useState } from 'react';
import { errorMessage } from '../lib/api';
import { notifyError } from './notify';

/**
 * An action with a busy flag (a button's spinner): `run(action, failure)` turns `busy` on while it runs and toasts
 * `errorMessage(err, failure)` when it fails (the server's message, else `failure`); it resolves true when it succeeded.
 */
export function useBusyAction() {
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<unknown>, failure: string) => {
    setBusy(true);
    try {
      await action();
      return true;
    } catch (err) {
      notifyError(errorMessage(err, failure));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, run };
}
