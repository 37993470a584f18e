import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { solidImage } from '../../../server/test/images';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import { reloadStaleEdit, saveStaleTitle } from '../../../web/test/stale-edit';
import type { Client, TestOrg } from '../../../server/test/harness';
import { i18n, loadLanguage } from '../../../web/i18n';
import type { WorkOrderDto } from '../work-orders.schema';
import { WorkOrderDrawer } from './work-order-drawer';

const server = realServer();
const W = '/api/work-orders';

/** Through the API: the work order "Replace belt" (assigned to `assignees`). */
async function beltOrder(org: TestOrg, assignees: number[] = []) {
  const added = await org.admin.post(`${W}/add-work-order`, { title: 'Replace belt', assignees });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return added.body.workOrder as WorkOrderDto;
}

const drawer = (id: number, onClose = () => {}) => (
  <WorkOrderDrawer id={id} onClose={onClose} onCreated={() => {}} query={{}} onList={() => {}} invalidate={() => {}} />
);

describe('work order drawer: a stale edit (decision 025)', () => {
  it('sends the loaded updatedAt, shows "changed by someone else" on 409, and Reload resets the form to the current record', async () => {
    const { org, calls } = await server.signIn('manager');
    const loaded = await beltOrder(org);
    renderWithProviders(drawer(loaded.id));
    const title = await screen.findByTestId('wo-title');
    await waitFor(() => expect(title).toHaveValue('Replace belt'));
    // Bob (the admin) saves his edit of the same copy meanwhile, through the API.
    const bob = await org.admin.put(`${W}/update-work-order/${loaded.id}`, { title: 'Belt replaced by Bob', updatedAt: loaded.updatedAt });
    expect(bob.status, JSON.stringify(bob.body)).toBe(200);

    const put = await saveStaleTitle('wo-title', calls);
    expect(put.body).toMatchObject({ title: 'My edit', updatedAt: loaded.updatedAt });

    await reloadStaleEdit('wo-title', 'Belt replaced by Bob');
    // the server kept Bob's edit, not the refused one
    expect((await org.admin.get(`${W}/get-work-order/${loaded.id}`)).body.workOrder).toMatchObject({ title: 'Belt replaced by Bob' });
  });
});

describe("work order drawer: the technician's photos (decision 041)", () => {
  afterEach(() => i18n.changeLanguage('en'));
  const jpeg = () => solidImage('jpeg', 64, 48, '#3366cc');
  /** A photo taken by `c` on the order, through the technician's route; the photo kept. */
  const addPhoto = async (c: Client, orderId: number) => {
    const res = await c.upload(`/api/my-work/add-photo/${orderId}`, [{ field: 'image', name: 'pump.jpg', bytes: await jpeg(), type: 'image/jpeg' }]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.photo as { id: number; url: string };
  };
  /** An image URL without its signature (each answer signs it anew). */
  const unsigned = (url: string | null | undefined) => String(url).split('?')[0];

  /** The admin signed in; an order assigned to Marcus Lee, and Marcus's client. */
  async function orderForMarcus() {
    const session = await server.signIn('admin');
    const marcus = await session.org.as('worker', { firstName: 'Marcus', lastName: 'Lee' });
    return { ...session, marcus, order: await beltOrder(session.org, [marcus.userId]) };
  }

  it('lists the thumbnails with who took them; a thumbnail opens the full image from the keyboard; Escape closes only the photo', async () => {
    const { org, marcus, order } = await orderForMarcus();
    await addPhoto(marcus, order.id);
    const second = await addPhoto(org.admin, order.id);
    let closed = 0;
    renderWithProviders(drawer(order.id, () => closed++));
    await userEvent.click(await screen.findByTestId('tab-photos'));
    const thumbs = await screen.findAllByTestId('wo-photo-thumb');
    expect(thumbs).toHaveLength(2);
    await waitFor(() => expect(thumbs[0]).toHaveTextContent('By Marcus Lee'));
    expect(thumbs[0]).toHaveAccessibleName('Open photo 1 of 2');

    thumbs[1].focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Photo 2 of 2' });
    const full = within(dialog).getByTestId('wo-photo-full');
    expect(unsigned(full.getAttribute('src'))).toBe(unsigned(second.url));
    expect(full.getAttribute('src')).toMatch(/\?exp=/);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('wo-photo-full')).toBeNull());
    // the drawer stays open
    expect(closed).toBe(0);
  });

  it('says when there are none, in Arabic too', async () => {
    const { order } = await orderForMarcus();
    renderWithProviders(drawer(order.id));
    await userEvent.click(await screen.findByTestId('tab-photos'));
    expect(await screen.findByText('No photos yet')).toBeInTheDocument();
    expect(screen.queryByTestId('wo-photo-thumb')).toBeNull();
    await loadLanguage('ar');
    await act(() => i18n.changeLanguage('ar'));
    expect(await screen.findByText('لا توجد صور بعد')).toBeInTheDocument();
    expect(screen.getByTestId('tab-photos')).toHaveTextContent('الصور');
  });

  it('a failed load is said with Retry, not as "no photos"', async () => {
    const { marcus, order, fail } = await orderForMarcus();
    await addPhoto(marcus, order.id);
    // a failing list is what the real server does not give on demand: a 500 answered in its place, until Retry
    const recover = fail(`GET /api/my-work/list-photos/${order.id}`, { status: 500, body: { error: 'Internal Server Error' } });
    renderWithProviders(drawer(order.id));
    await userEvent.click(await screen.findByTestId('tab-photos'));
    expect(await screen.findByText('The photos could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByText('No photos yet')).toBeNull();
    recover();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findAllByTestId('wo-photo-thumb')).toHaveLength(1);
  });
});
