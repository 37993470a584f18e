import { useState, type ReactNode } from 'react';
import { Badge, Button, Code, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminLoadTexts, DataTable, QueryLoadState, notifyError, notifySuccess, tablePagination, type Column, type PageSize } from '../../../web/components';
import { api, errorMessage } from '../../../web/lib/api';
import { formatDateTime } from '../../../web/lib/format';
import type { Pagination } from '../../../shared/pagination';
import type { DeliveryStatus, WebhookEvent } from '../webhooks.schema';
import './webhooks-i18n';

interface DeliveryRow {
  id: number;
  webhookId: number;
  url: string | null;
  event: WebhookEvent;
  status: DeliveryStatus;
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  createdAt: string;
}
export const DELIVERIES_KEY = ['webhook-deliveries'] as const;
const STATUS_COLOR: Record<DeliveryStatus, string> = { pending: 'blue', retrying: 'yellow', succeeded: 'green', failed: 'red' };

/** The deliveries' columns; the last one redelivers. */
function useDeliveryColumns(): Column<DeliveryRow>[] {
  const { t } = useTranslation('webhooks');
  const client = useQueryClient();
  const redeliver = useMutation({
    mutationFn: (id: number) => api.post(`/webhooks/redeliver/${id}`),
    onSuccess: () => {
      notifySuccess(t('redelivered'));
      void client.invalidateQueries({ queryKey: DELIVERIES_KEY });
    },
    onError: (err) => notifyError(errorMessage(err)),
  });

  return [
    { key: 'when', header: t('when'), render: (d) => formatDateTime(d.createdAt) },
    { key: 'event', header: t('event'), render: (d) => t(`eventNames.${d.event}`) },
    { key: 'url', header: t('url'), render: (d) => <span style={{ wordBreak: 'break-all' }}>{d.url}</span> },
    {
      key: 'status',
      header: t('status'),
      render: (d) => (
        <Badge color={STATUS_COLOR[d.status]} variant="light" data-testid="delivery-status">
          {t(`statuses.${d.status}`)}
        </Badge>
      ),
    },
    {
      key: 'response',
      header: t('response'),
      render: (d) => (
        <span title={d.lastError ?? undefined} data-testid="delivery-code">
          {d.responseCode ?? (d.lastError ? '—' : '')}
        </span>
      ),
    },
    { key: 'attempts', header: t('attempts'), render: (d) => d.attempts },
    {
      key: 'actions',
      header: '',
      hideable: false,
      render: (d) => (
        <Button
          size="xs"
          variant="light"
          loading={redeliver.isPending && redeliver.variables === d.id}
          // the row opens the detail; this button only redelivers
          onKeyDown={(e) => e.stopPropagation()}
          onClick={(e) => {
            e.stopPropagation();
            redeliver.mutate(d.id);
          }}
        >
          {t('redeliver')}
        </Button>
      ),
    },
  ];
}

/** The deliveries, newest first and paged, following retries while the page is open; a row opens its detail. */
export function WebhookDeliveries({ shown }: { shown: boolean }) {
  const { t } = useTranslation('webhooks');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<PageSize>(25);
  const deliveries = useQuery({
    queryKey: [...DELIVERIES_KEY, page, pageSize],
    queryFn: () => api.get<{ deliveries: DeliveryRow[]; pagination: Pagination }>('/webhooks/list-deliveries', { query: { page, pageSize } }),
    enabled: shown,
    placeholderData: keepPreviousData,
    // Deliveries move on their own (retries): the list follows them while the page is open.
    refetchInterval: 5000,
  });
  const [opened, setOpened] = useState<number | null>(null);
  const deliveryColumns = useDeliveryColumns();
  return (
    <>
      {shown && (
        <Stack gap="xs">
          <Group justify="space-between">
            <Title order={3}>{t('deliveries')}</Title>
            <Button size="xs" variant="default" onClick={() => void deliveries.refetch()}>
              {t('refresh')}
            </Button>
          </Group>
          <DataTable
            tableId="webhook-deliveries"
            columns={deliveryColumns}
            rows={deliveries.data?.deliveries ?? []}
            rowKey={(d) => d.id}
            loading={deliveries.isPending || (deliveries.isFetching && deliveries.isPlaceholderData)}
            failed={deliveries.isError}
            onRetry={() => void deliveries.refetch()}
            onRowClick={(d) => setOpened(d.id)}
            emptyText={t('noDeliveries')}
            minWidth={760}
            pagination={tablePagination(
              {
                page,
                pageSize,
                setPage,
                setPageSize: (size) => {
                  setPageSize(size as PageSize);
                  setPage(1);
                },
              },
              deliveries.data?.pagination,
            )}
          />
        </Stack>
      )}

      {opened !== null && <DeliveryDetail id={opened} onClose={() => setOpened(null)} />}
    </>
  );
}

/** One delivery: what was sent where, the tries, and the start of the receiver's last answer. */
function DeliveryDetail({ id, onClose }: { id: number; onClose(): void }) {
  const { t } = useTranslation('webhooks');
  const one = useQuery({
    queryKey: [...DELIVERIES_KEY, 'one', id],
    queryFn: () =>
      api.get<{ delivery: DeliveryRow & { messageId: string; responseBody: string | null; deliveredAt: string | null; nextAttemptAt: string | null } }>(
        `/webhooks/get-delivery/${id}`,
      ),
    retry: false,
  });
  const d = one.data?.delivery;
  const fact = (label: string, value: ReactNode) => (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    </div>
  );
  return (
    <Modal opened onClose={onClose} title={t('delivery')} centered size="lg">
      {!d ? (
        <QueryLoadState query={one} label={t('delivery')} texts={adminLoadTexts(t)} />
      ) : (
        <Stack data-testid="delivery-detail">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {fact(t('event'), t(`eventNames.${d.event}`))}
            {fact(t('status'), t(`statuses.${d.status}`))}
            {fact(t('url'), d.url ?? '—')}
            {fact(t('messageId'), <Code>{d.messageId}</Code>)}
            {fact(t('when'), formatDateTime(d.createdAt))}
            {fact(t('attempts'), d.attempts)}
            {fact(t('response'), d.responseCode ?? '—')}
            {d.lastError && fact(t('error'), d.lastError)}
          </SimpleGrid>
          <div>
            <Text size="xs" c="dimmed">
              {t('responseBody')}
            </Text>
            {d.responseBody ? (
              <Code
                block
                data-testid="delivery-response-body"
                style={{ maxHeight: 240, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
                tabIndex={0}
              >
                {d.responseBody}
              </Code>
            ) : (
              <Text size="sm">{t('noResponseBody')}</Text>
            )}
          </div>
        </Stack>
      )}
    </Modal>
  );
}
