/**
 * The steps of the list screens' record drawers that the journeys repeat (the kit's test ids: `drawer-title`,
 * `save-record`). Kept apart from `helpers.ts`, which the benchmarks import outside vitest.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** A list's add button `add`, and the record drawer it opens, titled `title`. */
export async function openNewRecord(page: Page, add: string, title: string) {
  await page.getByRole('button', { name: add }).click();
  await expect.poll(() => page.getByTestId('drawer-title').innerText()).toBe(title);
}

/** Clicks the button `testId` and waits for each of `messages`, shown exactly (a field's message, a toast). */
export async function clickAndSee(page: Page, testId: string, ...messages: string[]) {
  await page.getByTestId(testId).click();
  for (const message of messages) await page.getByText(message, { exact: true }).waitFor();
}

/** Saves the record drawer and waits for each of `messages`, as `clickAndSee` does. */
export const saveRecord = (page: Page, ...messages: string[]) => clickAndSee(page, 'save-record', ...messages);

/** The text of the table row with a cell reading exactly `cell`, once it shows. */
export async function rowText(page: Page, cell: string) {
  const row = page.locator('tbody tr').filter({ has: page.getByRole('cell', { name: cell, exact: true }) });
  await row.waitFor();
  return row.innerText();
}
