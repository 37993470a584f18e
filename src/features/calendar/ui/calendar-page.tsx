import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { Alert, Box, Button, Group, LoadingOverlay, Modal, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import FullCalendar from '@fullcalendar/react';
import type { DatesSetArg, EventClickArg, EventDropArg, EventInput, EventMountArg } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import listPlugin from '@fullcalendar/list';
import interactionPlugin from '@fullcalendar/interaction';
import arLocale from '@fullcalendar/core/locales/ar';
import { isStaleEdit, notifyError, notifySuccess } from '../../../web/components';
import { ApiError, api } from '../../../web/lib/api';
import { useAppData, useIsManager } from '../../../web/lib/app-data';
import { formatDay } from '../../../web/lib/format';
import { AssetSelect } from '../../assets/ui/asset-select';
import { TeamSelect } from '../../teams/ui/team-select';
import { LocationIdFilter } from '../../locations/ui/location-filter-select';
import type { CalendarAnswer, CalendarEntry } from '../calendar.schema';
import './labels';
import './calendar.css';

// The work order drawer (form, rich text, labour, parts) loads when an entry is clicked (decision 033).
const WorkOrderDrawer = lazy(() => import('../../work-orders/ui/work-order-drawer').then((m) => ({ default: m.WorkOrderDrawer })));

/** Under this width the calendar shows its list (phones); wider, the month grid. */
const PHONE = '(max-width: 600px)';
const CLOSED = new Set(['completed', 'cancelled', 'validate', 'cancel']);

interface Range {
  from: string;
  to: string;
}
interface Filters {
  assetId: number | null;
  locationId: number | null;
  teamId: number | null;
  assigneeId: number | null;
}

/** 'YYYY-MM-DD' of a day cell's Date (FullCalendar's cells are the browser's midnights). */
const localDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/**
 * The entry as FullCalendar takes it: on the organisation's day the server names (`day`, decision 064), whatever
 * the browser's zone; style by kind (planned dashed, created filled, overdue red). Closed orders (completed,
 * cancelled, validated) and planned work are not dragged: the server refuses their move too.
 */
function toEvent(entry: CalendarEntry, canMove: boolean): EventInput {
  const movable = canMove && entry.kind !== 'planned' && !CLOSED.has(entry.status);
  return {
    id: entry.key,
    title: `${entry.displayId} · ${entry.title}`,
    start: entry.day,
    allDay: true,
    startEditable: movable,
    durationEditable: false,
    classNames: [`cmms-entry-${entry.kind}`, ...(entry.overdue ? ['cmms-entry-overdue'] : []), ...(CLOSED.has(entry.status) ? ['cmms-entry-closed'] : [])],
    extendedProps: { entry },
  };
}

/** A plan's occurrence not created yet: what it will be, and when its work order appears. */
function PlannedDetails({ entry, onClose, onOpenPlan }: { entry: CalendarEntry | null; onClose(): void; onOpenPlan?: (planId: number) => void }) {
  const { t } = useTranslation('calendar');
  const rows: [string, string][] = entry
    ? [
        [t('planned.plan'), entry.displayId],
        [t('planned.title'), entry.title],
        [t('planned.due'), formatDay(`${entry.day}T00:00:00Z`)],
        [t('planned.createOn'), entry.createOn ? formatDay(`${entry.createOn}T00:00:00Z`) : ''],
        [t('planned.asset'), entry.asset?.name ?? ''],
        [t('planned.priority'), entry.priority ? t(`priority.${entry.priority}`) : ''],
      ]
    : [];
  return (
    <Modal opened={entry !== null} onClose={onClose} title={t('planned.heading')} centered data-testid="planned-details">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('planned.note')}
        </Text>
        <Table>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w="40%">{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('planned.close')}
          </Button>
          {entry && onOpenPlan && (
            <Button onClick={() => onOpenPlan(entry.id)} data-testid="planned-open-plan">
              {t('planned.openPlan')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

function Legend() {
  const { t } = useTranslation('calendar');
  const items = [
    { key: 'workOrder', className: 'cmms-entry-work-order' },
    { key: 'maintenanceOrder', className: 'cmms-entry-maintenance-order' },
    { key: 'planned', className: 'cmms-entry-planned' },
    { key: 'overdue', className: 'cmms-entry-work-order cmms-entry-overdue' },
    { key: 'closed', className: 'cmms-entry-work-order cmms-entry-closed' },
  ];
  return (
    <Group gap="md" wrap="wrap" data-testid="calendar-legend" aria-label={t('title')}>
      {items.map((item) => (
        <Group key={item.key} gap={6} wrap="nowrap">
          <span className={`cmms-legend-swatch ${item.className}`} aria-hidden />
          <Text size="sm">{t(`legend.${item.key}`)}</Text>
        </Group>
      ))}
    </Group>
  );
}

/**
 * What FullCalendar's own markup gets wrong for assistive technology (axe), put right on the page's DOM whenever it
 * changes: its chevron icons are role="img" without a name (the button around them is named: hidden); a day's cell
 * is named by its day number only, though it holds the day's entries too (WCAG 2.5.3: unnamed, read by content); a
 * "+2 more" link has no href, so its aria-expanded is not allowed on it (a button).
 */
function useCalendarMarkupFixes(root: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const fix = () => {
      for (const icon of el.querySelectorAll('.fc-icon[role="img"]:not([aria-hidden])')) icon.setAttribute('aria-hidden', 'true');
      for (const cell of el.querySelectorAll('td[role="gridcell"][aria-labelledby]')) cell.removeAttribute('aria-labelledby');
      for (const more of el.querySelectorAll('a.fc-more-link:not([role])')) more.setAttribute('role', 'button');
    };
    fix();
    const observer = new MutationObserver(fix);
    observer.observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-labelledby', 'role'] });
    return () => observer.disconnect();
  }, [root]);
}

/** The calendar's filters: asset, location, team and (managers) assignee. */
function CalendarFilters({ filters, setFilters }: { filters: Filters; setFilters: Dispatch<SetStateAction<Filters>> }) {
  const { t } = useTranslation('calendar');
  const isManager = useIsManager();
  const workers = useAppData().data?.workers ?? [];
  const workerOptions = workers.map((w) => ({ value: String(w.id), label: `${w.firstName} ${w.lastName}`.trim() || w.email }));
  return (
    <Group gap="sm" wrap="wrap" align="flex-end">
      <Box w={{ base: '100%', xs: 220 }}>
        <AssetSelect
          label={t('filter.asset')}
          value={filters.assetId}
          onChange={(assetId) => setFilters((f) => ({ ...f, assetId }))}
          allowAddNew={false}
          testId="calendar-asset"
        />
      </Box>
      <Box w={{ base: '100%', xs: 220 }}>
        <LocationIdFilter
          label={t('filter.location')}
          value={filters.locationId}
          onChange={(locationId) => setFilters((f) => ({ ...f, locationId }))}
          testId="calendar-location"
        />
      </Box>
      <Box w={{ base: '100%', xs: 200 }}>
        <TeamSelect label={t('filter.team')} value={filters.teamId} onChange={(teamId) => setFilters((f) => ({ ...f, teamId }))} testId="calendar-team" />
      </Box>
      {isManager && (
        <Box w={{ base: '100%', xs: 200 }}>
          <Select
            label={t('filter.assignee')}
            placeholder={t('filter.any')}
            data={workerOptions}
            value={filters.assigneeId ? String(filters.assigneeId) : null}
            onChange={(v) => setFilters((f) => ({ ...f, assigneeId: v ? Number(v) : null }))}
            searchable
            clearable
            comboboxProps={{ withinPortal: true }}
            data-testid="calendar-assignee"
          />
        </Box>
      )}
    </Group>
  );
}

/** A managers' drop of an order on another day: the order is rescheduled (stale copies refused), the calendar reloaded. */
function useEventDrop(timeZone: string | undefined, refresh: () => Promise<void>) {
  const { t } = useTranslation('calendar');
  const queryClient = useQueryClient();
  return async (arg: EventDropArg) => {
    const entry = arg.event.extendedProps.entry as CalendarEntry;
    const day = localDay(arg.event.start!);
    try {
      if (entry.kind === 'work-order') {
        // The time of day stays what it is on the organisation's clock, the zone of the calendar's days.
        await api.put(`/work-orders/reschedule-work-order/${entry.id}`, {
          dueDate: day,
          timeZone,
          updatedAt: entry.updatedAt ?? undefined,
        });
        void queryClient.invalidateQueries({ queryKey: ['work-orders'] });
      } else if (entry.kind === 'maintenance-order') {
        await api.put(`/maintenance-orders/reschedule-maintenance-order/${entry.id}`, { dueDate: day, version: entry.version ?? undefined });
        void queryClient.invalidateQueries({ queryKey: ['maintenance-orders'] });
      } else {
        arg.revert();
        return;
      }
      notifySuccess(t('toast.moved', { day: formatDay(`${day}T00:00:00Z`) }));
    } catch (err) {
      arg.revert();
      notifyError(isStaleEdit(err) ? t('toast.stale') : err instanceof ApiError && err.message ? err.message : t('toast.failed'));
    }
    await refresh();
  };
}

/** An entry's element: its key and test id, and a title naming it, its kind, asset and whether it is overdue. */
function describeEvent(arg: EventMountArg, t: TFunction<'calendar'>) {
  const entry = arg.event.extendedProps.entry as CalendarEntry;
  arg.el.setAttribute('data-entry', entry.key);
  arg.el.setAttribute('data-testid', 'calendar-entry');
  const parts = [t(`kind.${entry.kind}`), entry.asset?.name, entry.overdue ? t('overdue') : null].filter(Boolean);
  arg.el.title = `${entry.displayId} · ${entry.title}\n${parts.join(' · ')}`;
}

/**
 * /dashboard/calendar: work and maintenance orders by due day, and the plans' occurrences not created yet;
 * managers drag orders to another day.
 */
export default function CalendarPage() {
  const { t, i18n } = useTranslation('calendar');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const isManager = useIsManager();
  const phone = useMediaQuery(PHONE, typeof window !== 'undefined' && window.matchMedia(PHONE).matches, { getInitialValueInEffect: false });
  const calendarRef = useRef<FullCalendar>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  useCalendarMarkupFixes(frameRef);
  const [range, setRange] = useState<Range | null>(null);
  const [filters, setFilters] = useState<Filters>({ assetId: null, locationId: null, teamId: null, assigneeId: null });
  const [openWorkOrder, setOpenWorkOrder] = useState<number | null>(null);
  const [openPlanned, setOpenPlanned] = useState<CalendarEntry | null>(null);
  const rtl = i18n.language === 'ar';

  const query = useQuery({
    queryKey: ['calendar', range, filters],
    queryFn: ({ signal }) =>
      api.get<CalendarAnswer>('/calendar/list-calendar-entries', {
        query: {
          from: range!.from,
          to: range!.to,
          assetId: filters.assetId,
          locationId: filters.locationId,
          teamId: filters.teamId,
          assigneeId: filters.assigneeId,
        },
        signal,
      }),
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
  const entries = query.data?.entries;
  const events = useMemo(() => (entries ?? []).map((e) => toEvent(e, isManager)), [entries, isManager]);
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: ['calendar'] }), [queryClient]);

  const onDatesSet = useCallback((arg: DatesSetArg) => {
    // The visible days, read as the organisation's days by the server.
    const next = { from: localDay(arg.start), to: localDay(arg.end) };
    setRange((prev) => (prev && prev.from === next.from && prev.to === next.to ? prev : next));
  }, []);

  const onEventClick = (arg: EventClickArg) => {
    arg.jsEvent.preventDefault();
    const entry = arg.event.extendedProps.entry as CalendarEntry;
    if (entry.kind === 'work-order') setOpenWorkOrder(entry.id);
    else if (entry.kind === 'maintenance-order') void navigate(`/dashboard/maintenance-order?order=${entry.id}`);
    else setOpenPlanned(entry);
  };

  const onEventDrop = useEventDrop(query.data?.timeZone, refresh);
  const onEventMount = (arg: EventMountArg) => describeEvent(arg, t);

  const empty = query.isSuccess && !query.isPlaceholderData && entries?.length === 0;
  const view = phone ? 'listWeek' : 'dayGridMonth';

  return (
    <Stack gap="md" data-testid="calendar-page">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {t('title')}
        </Title>
        <Legend />
      </Group>
      <CalendarFilters filters={filters} setFilters={setFilters} />
      {query.isError && (
        <Alert color="red" variant="light" title={t('loadFailed')} data-testid="calendar-error">
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      )}
      {query.data?.truncated && (
        <Alert color="yellow" variant="light" data-testid="calendar-truncated">
          {t('truncated')}
        </Alert>
      )}
      <Paper ref={frameRef} withBorder p={{ base: 'xs', sm: 'md' }} radius="md" pos="relative" className="cmms-calendar" data-view={view}>
        <LoadingOverlay
          visible={range === null || query.isLoading || query.isPlaceholderData}
          zIndex={5}
          overlayProps={{ blur: 1 }}
          data-testid="calendar-loading"
        />
        <FullCalendar
          key={view}
          ref={calendarRef}
          plugins={[dayGridPlugin, listPlugin, interactionPlugin]}
          initialView={view}
          initialDate={range ? new Date((Date.parse(`${range.from}T00:00`) + Date.parse(`${range.to}T00:00`)) / 2) : undefined}
          headerToolbar={phone ? { start: 'title', end: 'prev,next' } : { start: 'prev,next today', center: 'title', end: 'dayGridMonth,dayGridWeek,listWeek' }}
          footerToolbar={phone ? { center: 'today' } : undefined}
          locales={[arLocale]}
          locale={rtl ? 'ar' : 'en'}
          direction={rtl ? 'rtl' : 'ltr'}
          height="auto"
          events={events}
          eventDisplay="block"
          eventInteractive
          editable={isManager}
          eventDurationEditable={false}
          dayMaxEvents={4}
          views={{ dayGridWeek: { dayMaxEvents: false } }}
          datesSet={onDatesSet}
          eventClick={onEventClick}
          eventDrop={(arg) => void onEventDrop(arg)}
          eventDidMount={onEventMount}
          displayEventEnd={false}
        />
        {empty && (
          <Stack gap={4} align="center" py="md" data-testid="calendar-empty">
            <Text fw={500}>{t('empty')}</Text>
            <Text size="sm" c="dimmed" ta="center">
              {t('emptyHint')}
            </Text>
          </Stack>
        )}
      </Paper>
      {isManager && !phone && (
        <Text size="sm" c="dimmed">
          {t('dragHint')}
        </Text>
      )}
      {/* Plans are the managers' (decision 032): a worker sees the occurrence, not the plan. */}
      <PlannedDetails
        entry={openPlanned}
        onClose={() => setOpenPlanned(null)}
        onOpenPlan={isManager ? (planId) => void navigate(`/dashboard/pm-plans?plan=${planId}`) : undefined}
      />
      {openWorkOrder !== null && (
        <Suspense fallback={null}>
          <WorkOrderDrawer
            id={openWorkOrder}
            onClose={() => setOpenWorkOrder(null)}
            onCreated={(id) => setOpenWorkOrder(id)}
            query={{}}
            onList={() => void refresh()}
            invalidate={() => void refresh()}
          />
        </Suspense>
      )}
    </Stack>
  );
}
