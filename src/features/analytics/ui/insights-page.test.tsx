import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentLocation, renderWithProviders, stubFetch } from '../../../web/test/render';
import {
  quotedVsActualSchema,
  type BacklogFigures,
  type ComplianceFigures,
  type CostFigures,
  type DowntimeFigures,
  type MtbfFigures,
  type MttrFigures,
  type MyWorkFigures,
  type PlannedShareFigures,
  type ThroughputFigures,
} from '../analytics.schema';
import type { PartsUsage } from '../analytics-parts-usage.schema';
import InsightsPage from './insights-page';

const range = { from: '2026-02-27', to: '2026-03-28' };
const manager = {
  loggedInUser: { id: 1, role: 'manager', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' },
  workers: [],
  company: { currency: 'USD' },
};

// The answers as the routes give them: typed by the service's own interfaces, the quoted one parsed by its response schema.
const backlog: BacklogFigures = {
  range,
  openNow: 7,
  overdueNow: 2,
  ageBuckets: [
    { bucket: '0-7', count: 3 },
    { bucket: '8-30', count: 2 },
    { bucket: '31-90', count: 1 },
    { bucket: '>90', count: 1 },
  ],
  overTime: [
    { day: '2026-03-27', open: 6 },
    { day: '2026-03-28', open: 7 },
  ],
  openAtEnd: { current: 7, previous: 5 },
};
const throughput: ThroughputFigures = {
  range,
  weeks: [{ week: '2026-03-23', created: 4, completed: 3 }],
  created: { current: 4, previous: 4 },
  completed: { current: 3, previous: 1 },
};
const stats = { count: 2, meanHours: 12.5, medianHours: 10 };
const repair: { mttr: MttrFigures; mtbf: MtbfFigures } = {
  mttr: {
    range,
    overall: stats,
    previous: { count: 0, meanHours: null, medianHours: null },
    byAssetCategory: [{ assetCategoryId: 1, name: 'Pumps', ...stats }],
    byTeam: [],
  },
  mtbf: { range, worst: [{ assetId: 9, name: 'Boiler B2', failures: 3, intervals: 2, mtbfHours: 41.5 }] },
};
const downtime: DowntimeFigures = { range, byCategory: [], byAsset: [], byWorkStation: [], availabilityHours: { current: 0, previous: 0 } };
const planned: PlannedShareFigures = {
  range,
  plannedOrders: 1,
  reactiveOrders: 3,
  maintenanceOrders: 0,
  plannedHours: 1,
  reactiveHours: 3,
  plannedOrderShare: { current: 0.25, previous: null },
  plannedHourShare: { current: 0.25, previous: null },
};
const compliance: ComplianceFigures = { range, source: 'plans', due: 4, onTime: 3, late: 1, missed: 0, rate: { current: 0.75, previous: 0.5 } };
const costs: CostFigures = {
  range,
  currency: 'USD',
  laborCost: 8500,
  partsCost: 2500,
  unratedHours: 0,
  byAsset: [{ assetId: 9, name: 'Boiler B2', labor: 8500, parts: 2500, total: 11000 }],
  byWorkStation: [],
  byMonth: [{ month: '2026-03', labor: 8500, parts: 2500, total: 11000 }],
  total: { current: 11000, previous: 2000 },
};
const amounts = { quoted: 11000, quotedUntaxed: 10000, labor: 13000, parts: 2598, actual: 15598, difference: 5598, unratedHours: 0 };
const quoted = quotedVsActualSchema.parse({
  range,
  currency: 'USD',
  workOrders: [{ workOrderId: 4, number: 'WO-0004', title: 'Overhaul pump', status: 'completed', quotationId: 1, quotationNumber: 'Q-0001', ...amounts }],
  workOrderCount: 1,
  // The API lists the largest differences only (QUOTED_ROWS_CAP); here one of 120 quotations.
  quotations: [{ quotationId: 1, number: 'Q-0001', customer: 'Acme Foods', status: 'accepted', workOrders: 1, ...amounts }],
  quotationCount: 120,
  total: { quoted: 11000, quotedUntaxed: 10000, actual: 15598, difference: 5598 },
});
const partsUsage: PartsUsage = {
  range,
  assets: [
    { assetId: 9, name: 'Boiler B2', quantity: 3, valueMinor: 3600, orders: 2 },
    { assetId: 4, name: 'Pump P1', quantity: 1.5, valueMinor: 0, orders: 1 },
  ],
  totalValueMinor: 3600,
};
const mine: MyWorkFigures = { range, openCount: 0, open: [], hoursThisWeek: [], completed: 0, completedOnTime: 0, completedWithDue: 0 };

const ANSWERS: Record<string, unknown> = {
  backlog,
  throughput,
  'repair-times': repair,
  downtime,
  'planned-share': planned,
  'pm-compliance': compliance,
  costs,
  'quoted-vs-actual': quoted,
  'parts-usage': partsUsage,
  'my-work': mine,
  // failures by problem (Pareto) and MTBF by failure mode (decision 080)
  'failure-pareto': {
    range,
    total: 4,
    problems: [
      { problemCodeId: 1, code: 'LEAK', name: 'Seal leak', count: 3, percent: 75, cumulativePercent: 75 },
      { problemCodeId: 2, code: 'NOISE', name: 'Bearing noise', count: 1, percent: 25, cumulativePercent: 100 },
    ],
  },
  'failure-mode-mtbf': { range, modes: [{ assetId: 9, asset: 'Boiler B2', problemCodeId: 1, problem: 'Seal leak', failures: 3, intervals: 2, mtbfHours: 36 }] },
};

describe('insights page', () => {
  it('shows the figures of the API answers, and a new range goes to the URL and to every figure', { timeout: 120_000 }, async () => {
    const routes: Parameters<typeof stubFetch>[0] = { 'GET /api/user/get-app-data': () => ({ body: manager }) };
    for (const [name, body] of Object.entries(ANSWERS)) routes[`GET /api/analytics/get-${name}`] = () => ({ body });
    const calls = stubFetch(routes);
    renderWithProviders(<InsightsPage />, { route: '/dashboard/insights?range=30d' });

    await waitFor(() => expect(screen.getByTestId('kpi-open')).toHaveTextContent('7'), { timeout: 45_000 });
    await waitFor(() => expect(screen.getByTestId('kpi-cost')).toHaveTextContent('$110.00'), { timeout: 45_000 });
    expect(screen.getByTestId('kpi-compliance')).toHaveTextContent('75%');
    expect(screen.getByTestId('mttr-mean')).toHaveTextContent('12.5');
    expect(within(screen.getByTestId('insights-mtbf-table')).getByText('Boiler B2')).toHaveAttribute('href', '/dashboard/work-orders?assetId=9');
    const quotedTable = await screen.findByTestId('insights-quoted-table', {}, { timeout: 45_000 });
    expect(within(quotedTable).getByText('Q-0001 · Acme Foods')).toHaveAttribute('href', '/dashboard/quotations?open=1');
    expect(quotedTable).toHaveTextContent('$155.98');
    expect(screen.getByTestId('quoted-actual-total')).toHaveTextContent('$155.98');
    // A capped list says so; the full one says nothing.
    expect(screen.getByTestId('insights-quoted-capped')).toHaveTextContent('Showing the 1 largest differences of 120 quotations.');
    expect(screen.queryByTestId('insights-quoted-orders-capped')).toBeNull();
    expect(within(screen.getByTestId('insights-quoted-orders-table')).getByText('WO-0004 Overhaul pump')).toHaveAttribute(
      'href',
      '/dashboard/work-orders?open=4',
    );
    expect(screen.getByTestId('insights-downtime-empty')).toBeInTheDocument();
    // parts used per asset at average cost (issue 41), each asset a link to its orders
    const usage = screen.getByTestId('insights-parts-usage-table');
    expect(within(usage).getAllByRole('row')[1]).toHaveTextContent(/Boiler B2\s*32\$36\.00/);
    expect(within(usage).getByText('Pump P1')).toHaveAttribute('href', '/dashboard/work-orders?assetId=4');
    expect(within(usage).getByText('1.5')).toBeInTheDocument();
    expect(screen.getByTestId('parts-usage-total')).toHaveTextContent('$36.00');
    const pareto = await screen.findByTestId('failure-pareto-table', {}, { timeout: 45_000 });
    expect(within(pareto).getAllByRole('row')[1]).toHaveTextContent('Seal leak');
    expect(within(screen.getByTestId('failure-modes-table')).getByText('Boiler B2')).toBeInTheDocument();
    const asked = (range: string) =>
      calls.filter((c) => c.url.pathname.startsWith('/api/analytics/') && c.url.searchParams.get('range') === range).map((c) => c.url.pathname);
    expect(asked('30d')).toHaveLength(Object.keys(ANSWERS).length);

    await userEvent.click(screen.getByText('Year'));
    await waitFor(() => expect(currentLocation()).toBe('/dashboard/insights?range=year'));
    await waitFor(() => expect(new Set(asked('year'))).toEqual(new Set(Object.keys(ANSWERS).map((n) => `/api/analytics/get-${n}`))));

    // A custom range is asked for only once both days are there and in order (the routes' own rule).
    await userEvent.click(screen.getByText('Custom'));
    await waitFor(() => expect(currentLocation()).toBe('/dashboard/insights?range=custom'));
    expect(asked('custom')).toEqual([]);
  });
});
