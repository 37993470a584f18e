import { useMemo, useState } from 'react';
import { ActionIcon, Badge, Button, Checkbox, Drawer, Group, MultiSelect, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconCalendarClock, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './schedule-report-i18n';
import { api, errorMessage } from '../../../web/lib/api';
import { useAppData, useCurrentUser } from '../../../web/lib/app-data';
import { formatDateTime } from '../../../web/lib/format';
import { confirmAction } from '../../../web/components/confirm';
import { notifyError, notifySuccess } from '../../../web/components/notify';
import type { InsightsReport, ReportFilters, ReportFormat, ReportFrequency } from '../insights-reports.schema';

const LIST_KEY = ['insights-reports'] as const;
type Wire<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };
type ReportRow = Wire<InsightsReport>;

/**
 * The insights screen's "Schedule report" button and its drawer (decision 075): the screen's current filters,
 * weekly or monthly, in the mail or as a PDF, to me and the managers I pick; and my scheduled reports, each
 * editable in the same form (filled with the report, its own filters kept unless the screen's are chosen) and
 * deletable after a confirmation. `filters` are the screen's (ids as the address holds them).
 */
export function ScheduleReportButton({ filters }: { filters: Record<string, string> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconCalendarClock size={16} />}
        onClick={() => setOpen(true)}
        className="insights-no-print"
        data-testid="schedule-report"
      >
        {t('insightsReports.button')}
      </Button>
      <Drawer opened={open} onClose={() => setOpen(false)} title={t('insightsReports.title')} position="right" size="md">
        {open && <ScheduleReportForm filters={filters} />}
      </Drawer>
    </>
  );
}

/** The user's scheduled reports: frequency, format, next sending, Edit and Delete. */
function ScheduledReports({ reports, onEdit, onRemove }: { reports: ReportRow[] | undefined; onEdit(report: ReportRow): void; onRemove(id: number): void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="scheduled-reports">
      {reports?.map((r) => (
        <Paper key={r.id} withBorder p="sm" data-testid="scheduled-report">
          <Group justify="space-between" wrap="nowrap">
            <div>
              <Group gap="xs">
                <Badge variant="light">{t(`insightsReports.${r.frequency}`)}</Badge>
                <Badge variant="outline">{t(`insightsReports.${r.format}`)}</Badge>
              </Group>
              <Text size="xs" c="dimmed" mt={4}>
                {t('insightsReports.next', { when: formatDateTime(r.nextSendAt) })}
              </Text>
            </div>
            <Group gap={4} wrap="nowrap">
              <ActionIcon
                variant="subtle"
                aria-label={t('insightsReports.edit')}
                title={t('insightsReports.edit')}
                onClick={() => onEdit(r)}
                data-testid="scheduled-report-edit"
              >
                <IconPencil size={18} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('insightsReports.delete')}
                title={t('insightsReports.delete')}
                onClick={() => onRemove(r.id)}
                data-testid="scheduled-report-delete"
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Group>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** One of a few values under its label: `insightsReports.<name>` labels it, `insightsReports.<value>` each value. */
function ReportChoice<V extends string>({
  name,
  values,
  value,
  onChange,
}: {
  name: string;
  values: NoInfer<V>[];
  value: V;
  onChange(value: NoInfer<V>): void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {t(`insightsReports.${name}`)}
      </Text>
      <SegmentedControl value={value} onChange={(v) => onChange(v as V)} data={values.map((v) => ({ value: v, label: t(`insightsReports.${v}`) }))} />
    </Stack>
  );
}

function ScheduleReportForm({ filters }: { filters: Record<string, string> }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const me = useCurrentUser();
  const { data: appData } = useAppData();
  const [frequency, setFrequency] = useState<ReportFrequency>('weekly');
  const [format, setFormat] = useState<ReportFormat>('html');
  const [recipients, setRecipients] = useState<string[]>([]);
  /** The report being edited (null: a new one) and whether the screen's filters replace its own. */
  const [editing, setEditing] = useState<ReportRow | null>(null);
  const [screenFilters, setScreenFilters] = useState(false);
  const list = useQuery({ queryKey: LIST_KEY, queryFn: () => api.get<{ reports: ReportRow[] }>('/api/insights-reports/list-reports') });
  const managers = useMemo(
    () =>
      (appData?.workers ?? [])
        .filter((u) => (u.role === 'admin' || u.role === 'manager') && u.id !== me?.id)
        .map((u) => ({ value: String(u.id), label: `${u.firstName} ${u.lastName}`.trim() || u.email })),
    [appData?.workers, me?.id],
  );
  const onScreen: ReportFilters = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, Number(v)]));
  const chosen: ReportFilters = editing && !screenFilters ? editing.filters : onScreen;
  // The names of the filters in force (the insights screen's labels).
  const used = Object.keys(chosen).map((k) => t(`insights.filters.${k.replace(/Id$/, '')}`));

  const startEdit = (report: ReportRow) => {
    setEditing(report);
    setScreenFilters(false);
    setFrequency(report.frequency);
    setFormat(report.format);
    setRecipients(report.recipientIds.filter((id) => id !== me?.id).map(String));
  };
  const reset = () => {
    setEditing(null);
    setScreenFilters(false);
    setFrequency('weekly');
    setFormat('html');
    setRecipients([]);
  };
  const save = useMutation({
    mutationFn: () => {
      const body = { frequency, format, filters: chosen, recipientIds: recipients.map(Number) };
      return editing
        ? api.put<{ reports: ReportRow[] }>(`/api/insights-reports/update-report/${editing.id}`, body)
        : api.post<{ reports: ReportRow[] }>('/api/insights-reports/add-report', body);
    },
    onSuccess: (answer) => {
      client.setQueryData(LIST_KEY, { reports: answer.reports });
      notifySuccess(t(editing ? 'insightsReports.updated' : 'insightsReports.saved'));
      reset();
    },
    onError: (err) => notifyError(errorMessage(err)),
  });
  const remove = async (id: number) => {
    if (!(await confirmAction({ message: t('insightsReports.deleteConfirm'), confirmLabel: t('insightsReports.delete') }))) return;
    try {
      const answer = await api.del<{ reports: ReportRow[] }>(`/api/insights-reports/delete-report/${id}`);
      client.setQueryData(LIST_KEY, { reports: answer.reports });
      notifySuccess(t('insightsReports.deleted'));
      if (editing?.id === id) reset();
    } catch (err) {
      notifyError(errorMessage(err));
    }
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('insightsReports.intro')}
      </Text>
      {editing && (
        <Text fw={700} data-testid="schedule-report-editing">
          {t('insightsReports.editing')}
        </Text>
      )}
      <Text size="sm" data-testid="schedule-report-filters">
        {used.length ? t('insightsReports.filtersUsed', { filters: used.join(', ') }) : t('insightsReports.noFilters')}
      </Text>
      {editing && (
        <Checkbox
          label={t('insightsReports.useScreenFilters')}
          checked={screenFilters}
          onChange={(e) => setScreenFilters(e.currentTarget.checked)}
          data-testid="schedule-report-screen-filters"
        />
      )}
      <ReportChoice name="frequency" values={['weekly', 'monthly']} value={frequency} onChange={setFrequency} />
      <ReportChoice name="format" values={['html', 'pdf']} value={format} onChange={setFormat} />
      <MultiSelect
        label={t('insightsReports.recipients')}
        data={managers}
        value={recipients}
        onChange={setRecipients}
        searchable
        clearable
        comboboxProps={{ withinPortal: true }}
      />
      <Group gap="xs">
        <Button onClick={() => save.mutate()} loading={save.isPending} data-testid="schedule-report-save">
          {t(editing ? 'insightsReports.update' : 'insightsReports.save')}
        </Button>
        {editing && (
          <Button variant="default" onClick={reset} data-testid="schedule-report-cancel">
            {t('insightsReports.cancelEdit')}
          </Button>
        )}
      </Group>

      <Text fw={700} mt="md">
        {t('insightsReports.mine')}
      </Text>
      {list.data?.reports.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('insightsReports.none')}
        </Text>
      )}
      <ScheduledReports reports={list.data?.reports} onEdit={startEdit} onRemove={(id) => void remove(id)} />
    </Stack>
  );
}
