import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { setDisplayTimeZone } from '../../../web/lib/format';
import { AvailabilityFigure, availabilityPeriod } from './availability-figure';

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
    const calls = stubFetch({
      'GET /api/assets/get-asset-availability': () => ({
        body: {
          availability: {
            from: '2026-02-28T21:00:00.000Z',
            to: '2026-03-31T21:00:00.000Z',
            periodMinutes: 44_640,
            assets: 2,
            downMinutes: 90,
            availability: (2 * 44_640 - 90) / (2 * 44_640),
            byAsset: [{ id: 3, assetId: 'AS-0003', name: 'Motor', downMinutes: 90, availability: (44_640 - 90) / 44_640 }],
          },
        },
      }),
    });
    renderWithProviders(<AvailabilityFigure range={{ from: '2026-03-01', to: '2026-03-31' }} assetCategoryId="4" />);
    await waitFor(() => expect(screen.getByTestId('insights-availability-value')).toHaveTextContent('99.90%'), { timeout: 20_000 });
    const asked = calls.find((c) => c.url.pathname === '/api/assets/get-asset-availability')!.url.searchParams;
    expect([asked.get('from'), asked.get('to'), asked.get('assetCategoryId')]).toEqual(['2026-02-28T21:00:00.000Z', '2026-03-31T21:00:00.000Z', '4']);
    expect(screen.getByText('Motor')).toBeInTheDocument();
  });

  it('with a location filter: the location and everything under it, before the category; the asset before both', async () => {
    const calls = stubFetch({ 'GET /api/assets/get-asset-availability': () => ({ status: 500, body: { error: 'not asked here' } }) });
    const asked = async () => {
      await waitFor(() => expect(calls.length).toBeGreaterThan(0));
      const q = calls.splice(0).find((c) => c.url.pathname === '/api/assets/get-asset-availability')!.url.searchParams;
      return [q.get('assetId'), q.get('locationId'), q.get('assetCategoryId')];
    };
    const range = { from: '2026-03-01', to: '2026-03-31' };
    const view = renderWithProviders(<AvailabilityFigure range={range} locationId="5" assetCategoryId="4" />);
    expect(await asked()).toEqual([null, '5', null]);
    view.unmount();
    renderWithProviders(<AvailabilityFigure range={range} assetId="9" locationId="5" assetCategoryId="4" />);
    expect(await asked()).toEqual(['9', null, null]);
  });
});
