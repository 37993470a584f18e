import { useState } from 'react';
import { Alert, Badge, List, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DialogActions, EmptyState, notifyError, notifySuccess, useDebouncedValue, TableHead } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { formatDateTime, formatDay } from '../../../web/lib/format';
import { type OccurrenceDto } from '../pm-plans.schema';
import './labels';
import { toBody, type FormValues } from './plan-form';

/** The next 12 due days (or meter values) of the plan as it stands in the form, asked of the server as you type. */
export function Preview({ values }: { values: FormValues }) {
  const { t } = useTranslation('pmPlans');
  const body = useDebouncedValue(JSON.stringify(toBody(values)), 400);
  const query = useQuery({
    queryKey: ['pm-plans', 'preview', body],
    queryFn: () => api.post<{ dueDates: string[]; createDates: string[]; meterValues: number[] }>('/pm-plans/preview-plan', JSON.parse(body)),
    retry: false,
    placeholderData: (previous) => previous,
  });
  if (query.isError)
    return (
      <Alert color="yellow" data-testid="pm-preview-error">
        {t('previewError')}
      </Alert>
    );
  const data = query.data;
  if (!data || (!data.dueDates.length && !data.meterValues.length))
    return (
      <Text size="sm" c="dimmed">
        {t('previewEmpty')}
      </Text>
    );
  return (
    <Stack gap={4} data-testid="pm-preview">
      {data.dueDates.length > 0 && (
        <>
          <Text size="sm" fw={600}>
            {t('preview')}
          </Text>
          <List size="sm" spacing={2}>
            {data.dueDates.map((d, i) => (
              <List.Item key={d} data-testid="pm-preview-date">
                {formatDay(d)}
                {data.createDates[i] !== d && <Text span size="xs" c="dimmed">{` (${t('createdOn', { day: formatDay(data.createDates[i]) })})`}</Text>}
              </List.Item>
            ))}
          </List>
        </>
      )}
      {data.meterValues.length > 0 && (
        <>
          <Text size="sm" fw={600}>
            {t('previewMeter')}
          </Text>
          <Text size="sm" data-testid="pm-preview-meter">
            {data.meterValues.join(', ')}
          </Text>
        </>
      )}
    </Stack>
  );
}

/** The plan's occurrences: created (with their work order) and skipped (with the reason). */
export function History({ planId }: { planId: number }) {
  const { t } = useTranslation('pmPlans');
  const query = useQuery({
    queryKey: ['pm-plans', 'occurrences', planId],
    queryFn: ({ signal }) => api.get<{ occurrences: OccurrenceDto[] }>(`/pm-plans/get-occurrences/${planId}`, { signal }),
  });
  const rows = query.data?.occurrences ?? [];
  if (query.isError) return <Alert color="red">{t('failedFetchOne')}</Alert>;
  if (!query.isLoading && !rows.length) return <EmptyState title={t('historyEmpty')} />;
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped data-testid="pm-history">
        <TableHead labels={[t('occurrence.due'), t('occurrence.asset'), t('occurrence.status'), t('occurrence.workOrder'), t('occurrence.completed')]} />
        <Table.Tbody>
          {rows.map((o) => (
            <Table.Tr key={o.id}>
              <Table.Td>{formatDay(o.dueDate)}</Table.Td>
              <Table.Td>{o.assetName ?? ''}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={o.status === 'skipped' ? 'gray' : 'blue'}>
                  {t(`occurrence.${o.status}`)}
                </Badge>
                {o.reason && (
                  <Text size="xs" c="dimmed">
                    {o.reason}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{o.workOrderId ? `WO-${String(o.workOrderId).padStart(4, '0')}` : ''}</Table.Td>
              <Table.Td>{formatDateTime(o.completedAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Asks for the reason, then skips the plan's next occurrence. */
export function SkipModal({ planId, opened, onClose, onDone }: { planId: number; opened: boolean; onClose(): void; onDone(): void }) {
  const { t } = useTranslation('pmPlans');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const skip = async () => {
    try {
      await api.post(`/pm-plans/skip-next/${planId}`, { reason });
      notifySuccess(t('skipped'));
      setReason('');
      setError(undefined);
      onDone();
      onClose();
    } catch (err) {
      const body = (err as { body?: { error?: string; issues?: { message: string }[] } }).body;
      if (body?.issues?.length) setError(body.issues[0].message);
      else notifyError(body?.error ?? t('failedSkip'));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('skipTitle')} centered>
      <Stack>
        <TextInput
          label={t('skipReason')}
          withAsterisk
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={error}
          data-autofocus
          data-testid="pm-skip-reason"
        />
        <DialogActions onCancel={onClose} submitLabel={t('skipConfirm')} onSubmit={() => void skip()} testId="pm-skip-confirm" />
      </Stack>
    </Modal>
  );
}
