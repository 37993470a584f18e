import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import type { TestOrg } from '../../../server/test/harness';
import { setDisplayTimeZone } from '../../../web/lib/format';
import { addAsset, masterRows } from '../../assets/test-fixtures';
import { AvailabilityFigure, availabilityPeriod } from './availability-figure';

const server = realServer();

/** Through the API: a Pump and a Motor in the Pumps category (a Boiler in another), the Motor down 90 minutes on 10 March 2026. */
async function motorDown90Minutes(org: TestOrg) {
  const m = await masterRows(server.test, org.orgId);
  await addAsset(org, m, 'Pump');
  const motor = await addAsset(org, m, 'Motor');
  await addAsset(org, { assetCategory: m.assetCategory2 }, 'Boiler');
  for (const [state, at] of [
    ['down', '2026-03-10T08:00:00.000Z'],
    ['running', '2026-03-10T09:30:00.000Z'],
  ]) {
    const res = await org.admin.post(`/api/assets/set-asset-state/${motor}`, { state, at, reason: state === 'down' ? 'Bearing' : undefined });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return { categoryId: m.assetCategory.id, motor };
}

afterEach(() => setDisplayTimeZone(undefined));

describe('the availability card counts the days on the organisation clock (decision 079 addendum)', () => {
  it('a range of days in Asia/Riyadh (UTC+3) starts and ends at midnight in Riyadh, not UTC', () => {
    expect(availabilityPeriod({ from: '2026-03-01', to: '2026-03-31' }, 'Asia/Riyadh')).toEqual({
      from: '2026-02-28T21:00:00.000Z',
      to: '2026-03-31T21:00:00.000Z',
    });
    // One day: 00:00 to 24:00 in Riyadh; in UTC as before for an organisation on UTC.
    expect(availabilityPeriod({ from: '2026-04-01', to: '2026-04-01' }, 'Asia/Riyadh')).toEqual({
      from: '2026-03-31T21:00:00.000Z',
      to: '2026-04-01T21:00:00.000Z',
    });
    expect(availabilityPeriod({ from: '2026-04-01', to: '2026-04-01' }, 'UTC')).toEqual({ from: '2026-04-01T00:00:00.000Z', to: '2026-04-02T00:00:00.000Z' });
  });

  it("asks the API for the period on the organisation's clock and shows the answer", async () => {
    setDisplayTimeZone('Asia/Riyadh');
    const { org, calls } = await server.signIn('manager');
    const { categoryId } = await motorDown90Minutes(org);
    renderWithProviders(<AvailabilityFigure range={{ from: '2026-03-01', to: '2026-03-31' }} assetCategoryId={String(categoryId)} />);
    // two assets of the category over March (44,640 minutes each), 90 down: (2 × 44,640 − 90) / (2 × 44,640) = 99.90%
    await waitFor(() => expect(screen.getByTestId('insights-availability-value')).toHaveTextContent('99.90%'), { timeout: 20_000 });
    const call = calls.find((c) => c.url.pathname === '/api/assets/get-asset-availability')!;
    const asked = call.url.searchParams;
    expect([asked.get('from'), asked.get('to'), asked.get('assetCategoryId')]).toEqual([
      '2026-02-28T21:00:00.000Z',
      '2026-03-31T21:00:00.000Z',
      String(categoryId),
    ]);
    expect(call.status).toBe(200);
    expect(screen.getByText('Motor')).toBeInTheDocument();
  });

  it('with a location filter: the location and everything under it, before the category; the asset before both', async () => {
    const { org, calls } = await server.signIn('manager');
    const { categoryId, motor } = await motorDown90Minutes(org);
    const hall = (await org.admin.post('/api/locations/add-location', { name: 'Hall', parentId: null })).body.location.id as number;
    const asked = async () => {
      // the real server answers the app data too: the availability call is waited for, and its answer was a 200
      const isAvailability = (c: (typeof calls)[number]) => c.url.pathname === '/api/assets/get-asset-availability';
      await waitFor(() => expect(calls.some(isAvailability)).toBe(true));
      const call = calls.splice(0).find(isAvailability)!;
      expect(call.status).toBe(200);
      const q = call.url.searchParams;
      return [q.get('assetId'), q.get('locationId'), q.get('assetCategoryId')];
    };
    const range = { from: '2026-03-01', to: '2026-03-31' };
    const view = renderWithProviders(<AvailabilityFigure range={range} locationId={String(hall)} assetCategoryId={String(categoryId)} />);
    expect(await asked()).toEqual([null, String(hall), null]);
    view.unmount();
    renderWithProviders(<AvailabilityFigure range={range} assetId={String(motor)} locationId={String(hall)} assetCategoryId={String(categoryId)} />);
    expect(await asked()).toEqual([String(motor), null, null]);
  });
});
