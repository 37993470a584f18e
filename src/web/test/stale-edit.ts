import { expect } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RealCall } from './real-api';

/**
 * A record drawer's stale edit (decision 025) from the user's side, after someone else saved the same copy through
 * the API: the user types "My edit" over the title (`titleTestId`) and saves; the drawer says "changed by someone else" and the PUT
 * was refused (409). Answers that PUT, for the test to check what it sent.
 */
export async function saveStaleTitle(titleTestId: string, calls: RealCall[]): Promise<RealCall> {
  const title = screen.getByTestId(titleTestId);
  await userEvent.clear(title);
  await userEvent.type(title, 'My edit');
  await userEvent.click(screen.getByTestId('save-button'));
  expect(await screen.findByTestId('stale-edit-alert')).toHaveTextContent('This record was changed by someone else');
  const put = calls.find((c) => c.method === 'PUT')!;
  expect(put.status).toBe(409);
  // The user's edit stays in the form until they choose to reload.
  expect(screen.getByTestId(titleTestId)).toHaveValue('My edit');
  return put;
}

/** Reload on the stale-edit alert: the form shows the current record's title `current` and the alert goes. */
export async function reloadStaleEdit(titleTestId: string, current: string) {
  await userEvent.click(screen.getByTestId('stale-edit-reload'));
  await waitFor(() => expect(screen.getByTestId(titleTestId)).toHaveValue(current));
  expect(screen.queryByTestId('stale-edit-alert')).toBeNull();
}
