import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import { fakeMatchMedia } from '../../../web/test/match-media';
import WorkOrdersPage from './work-orders-page';

const server = realServer();

/** A manager of a new organisation (no work orders yet) signed in. */
const managerSignedIn = () => server.signIn('manager');
const headers = async () => {
  await screen.findByRole('columnheader', { name: 'WO-ID' });
  return screen.getAllByRole('columnheader').map((h) => h.textContent);
};

const matchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = matchMedia;
});

// A loaded machine (several runs on two cores) took over the project's 60 s for the app and the page.
describe('the work order list columns by default', { timeout: 180_000 }, () => {
  it('on a desktop: WO-ID, status, title, priority, due date and assignees', async () => {
    await managerSignedIn();
    renderWithProviders(<WorkOrdersPage />);
    expect(await headers()).toEqual(['WO-ID', 'Status', 'Title', 'Priority', 'Due Date', 'Assignee']);
  });

  it('on a phone: WO-ID, status and title (the others in the column chooser)', async () => {
    window.matchMedia = fakeMatchMedia((query) => query.includes('max-width'));
    await managerSignedIn();
    renderWithProviders(<WorkOrdersPage />);
    expect(await headers()).toEqual(['WO-ID', 'Status', 'Title']);
  });
});
