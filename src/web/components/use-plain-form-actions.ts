import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api';
import { notifyError, notifySuccess } from './notify';

/** A refused save of a plain-state form: the server's issues by field in `setErrors`, its message (else `failure`) toasted. */
export function showRefusal(err: unknown, setErrors: (errors: Record<string, string>) => void, failure: string) {
  if (err instanceof ApiError && err.issues?.length) setErrors(Object.fromEntries(err.issues.map((i) => [i.path, i.message])));
  notifyError(err instanceof ApiError ? err.message : failure);
}

/**
 * Save and delete of a drawer whose form is plain state (locations, storerooms): `run(action, success, failure)`
 * toasts the success, refreshes the area's lists (`queryKey`) and closes; a refusal puts the server's issues in
 * `errors` by field and toasts its message (else `failure`).
 */
export function usePlainFormActions(queryKey: string, onClose: () => void) {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const run = async (action: () => Promise<unknown>, success: string, failure: string) => {
    try {
      await action();
      notifySuccess(success);
      void queryClient.invalidateQueries({ queryKey: [queryKey] });
      onClose();
    } catch (err) {
      showRefusal(err, setErrors, failure);
    }
  };
  return { errors, setErrors, run };
}
