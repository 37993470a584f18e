import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { i18n, loadLanguage } from '../../../web/i18n';
import { WorkOrderDrawer } from './work-order-drawer';
import { workOrderDto } from './test-fixtures';

describe('work order drawer: a stale edit (decision 025)', () => {
  it('sends the loaded updatedAt, shows "changed by someone else" on 409, and Reload resets the form to the current record', async () => {
    const loaded = workOrderDto({});
    const current = workOrderDto({ title: 'Belt replaced by Bob', updatedAt: '2026-11-26T06:05:00.123Z' });
    let served = loaded;
    const calls = stubFetch({
      'GET /api/work-orders/get-work-order/1': () => ({ body: { workOrder: served } }),
      'PUT /api/work-orders/update-work-order/1': () => {
        served = current;
        return { status: 409, body: { error: 'This record was changed by someone else', current } };
      },
    });
    renderWithProviders(<WorkOrderDrawer id={1} onClose={() => {}} onCreated={() => {}} query={{}} onList={() => {}} invalidate={() => {}} />);
    const title = await screen.findByTestId('wo-title');
    await waitFor(() => expect(title).toHaveValue('Replace belt'));

    await userEvent.clear(title);
    await userEvent.type(title, 'My edit');
    await userEvent.click(screen.getByTestId('save-button'));

    expect(await screen.findByTestId('stale-edit-alert')).toHaveTextContent('This record was changed by someone else');
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(JSON.parse(String(put.init.body))).toMatchObject({ title: 'My edit', updatedAt: loaded.updatedAt });
    // The user's edit stays in the form until they choose to reload.
    expect(screen.getByTestId('wo-title')).toHaveValue('My edit');

    await userEvent.click(screen.getByTestId('stale-edit-reload'));
    await waitFor(() => expect(screen.getByTestId('wo-title')).toHaveValue('Belt replaced by Bob'));
    expect(screen.queryByTestId('stale-edit-alert')).toBeNull();
  });
});

describe("work order drawer: the technician's photos (decision 041)", () => {
  afterEach(() => i18n.changeLanguage('en'));
  const photo = (id: number, userId: number | null) => ({
    id,
    workOrderId: 1,
    url: `/uploads/org-1/photo-${id}.webp?exp=1&sig=x`,
    userId,
    createdAt: '2026-11-26T09:15:00.000Z',
  });
  const drawer = (onClose = () => {}) => <WorkOrderDrawer id={1} onClose={onClose} onCreated={() => {}} query={{}} onList={() => {}} invalidate={() => {}} />;
  const appData = {
    loggedInUser: { id: 1, role: 'admin', firstName: 'Ada', lastName: 'Admin', email: 'admin@demo.com' },
    workers: [{ id: 7, firstName: 'Marcus', lastName: 'Lee' }],
  };

  it('lists the thumbnails with who took them; a thumbnail opens the full image from the keyboard; Escape closes only the photo', async () => {
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: appData }),
      'GET /api/work-orders/get-work-order/1': () => ({ body: { workOrder: workOrderDto({}) } }),
      'GET /api/my-work/list-photos/1': () => ({ body: { photos: [photo(1, 7), photo(2, null)] } }),
    });
    let closed = 0;
    renderWithProviders(drawer(() => closed++));
    await userEvent.click(await screen.findByTestId('tab-photos'));
    const thumbs = await screen.findAllByTestId('wo-photo-thumb');
    expect(thumbs).toHaveLength(2);
    await waitFor(() => expect(thumbs[0]).toHaveTextContent('By Marcus Lee'));
    expect(thumbs[0]).toHaveAccessibleName('Open photo 1 of 2');

    thumbs[1].focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Photo 2 of 2' });
    expect(within(dialog).getByTestId('wo-photo-full')).toHaveAttribute('src', photo(2, null).url);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('wo-photo-full')).toBeNull());
    // the drawer stays open
    expect(closed).toBe(0);
  });

  it('says when there are none, in Arabic too', async () => {
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: appData }),
      'GET /api/work-orders/get-work-order/1': () => ({ body: { workOrder: workOrderDto({}) } }),
      'GET /api/my-work/list-photos/1': () => ({ body: { photos: [] } }),
    });
    renderWithProviders(drawer());
    await userEvent.click(await screen.findByTestId('tab-photos'));
    expect(await screen.findByText('No photos yet')).toBeInTheDocument();
    expect(screen.queryByTestId('wo-photo-thumb')).toBeNull();
    await loadLanguage('ar');
    await act(() => i18n.changeLanguage('ar'));
    expect(await screen.findByText('لا توجد صور بعد')).toBeInTheDocument();
    expect(screen.getByTestId('tab-photos')).toHaveTextContent('الصور');
  });

  it('a failed load is said with Retry, not as "no photos"', async () => {
    let fail = true;
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: appData }),
      'GET /api/work-orders/get-work-order/1': () => ({ body: { workOrder: workOrderDto({}) } }),
      'GET /api/my-work/list-photos/1': () => (fail ? { status: 500, body: { error: 'Internal Server Error' } } : { body: { photos: [photo(1, 7)] } }),
    });
    renderWithProviders(drawer());
    await userEvent.click(await screen.findByTestId('tab-photos'));
    expect(await screen.findByText('The photos could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByText('No photos yet')).toBeNull();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findAllByTestId('wo-photo-thumb')).toHaveLength(1);
  });
});
