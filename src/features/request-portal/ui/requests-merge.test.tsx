import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import type { TestOrg } from '../../../server/test/harness';
import { addAsset, masterRows } from '../../assets/test-fixtures';
import { PORTAL_SETTINGS } from '../test-fixtures';
import RequestsPage, { type PortalRequestDto } from './requests-page';

const server = realServer();
const B = '/api/portal';

/**
 * Through the API: the portal open with the asset "Conveyor C-1" published, and the requests `descriptions` sent to
 * it by the public, in that order. The requests as the inbox lists them, oldest first.
 */
async function inboxOf(org: TestOrg, ...descriptions: string[]) {
  const asset = await addAsset(org, await masterRows(server.test, org.orgId), 'Conveyor C-1');
  const settings = await org.admin.put(`${B}/settings`, { ...PORTAL_SETTINGS, published: [{ kind: 'asset', id: asset }] });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  for (const description of descriptions) {
    const sent = await org.anonymous.post(`${B}/submit-request`, { where: `asset:${asset}`, description, urgency: 'normal', email: 'bob@example.com' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  }
  return ((await org.admin.get(`${B}/list-requests`)).body.requests as PortalRequestDto[]).reverse();
}

// Issue 46: the request merge picks a request by search, not by a typed id.
describe('merging a portal request', () => {
  it('finds the request to merge into by what the manager types and merges into the one picked', async () => {
    const { org, calls } = await server.signIn('manager');
    const [slipping, , noise] = await inboxOf(org, 'Belt slipping', 'Door stuck', 'Belt noise');
    renderWithProviders(<RequestsPage />, { route: `/dashboard/requests?open=${noise.id}` });
    const merge = await screen.findByTestId('portal-merge');
    expect(merge).toBeDisabled();
    await userEvent.type(screen.getByTestId('portal-merge-into'), 'slip');
    // the server's search offers the one request that matches what was typed (not the one being merged, nor "Door stuck")
    const label = `${slipping.number} · Conveyor C-1 · Belt slipping`;
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([label]));
    await userEvent.click(screen.getByRole('option', { name: label }));
    const searched = calls.filter((c) => c.url.pathname === `${B}/get-requests-options`);
    expect(searched.at(-1)!.url.searchParams.get('excludeId')).toBe(String(noise.id));
    await userEvent.click(merge);
    expect(await screen.findByText('Request merged')).toBeInTheDocument();
    expect(await screen.findByText(`Merged into ${slipping.number}`)).toBeInTheDocument();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => [c.url.pathname, c.body, c.status])).toEqual([[`${B}/merge-request/${noise.id}`, { intoId: slipping.id }, 200]]);
    // the server kept the merge: the duplicate points to the request picked; the other is untouched
    const kept = async (id: number) => ((await org.admin.get(`${B}/get-request/${id}`)).body.request as PortalRequestDto).mergedIntoId;
    await waitFor(async () => expect(await kept(noise.id)).toBe(slipping.id));
    expect(await kept(slipping.id)).toBeNull();
  });
});
