import { useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Checkbox, Code, Group, Modal, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  confirmAction,
  confirmDelete,
  DataTable,
  EmptyState,
  LoadState,
  notifyError,
  notifySuccess,
  SecretShownModal,
  tablePagination,
  useRecordForm,
  type Column,
  type PageSize,
} from '../../../web/components';
import { api, ApiError, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { formatDateTime } from '../../../web/lib/format';
import type { Pagination } from '../../../shared/pagination';
import { WEBHOOK_EVENTS, webhookInputSchema, type DeliveryStatus, type WebhookEvent, type WebhookInput } from '../webhooks.schema';
import './webhooks-i18n';

interface EndpointRow {
  id: number;
  url: string;
  description: string | null;
  events: WebhookEvent[];
  /** The secret's first characters; the secret itself comes only in the create and rotate answers. */
  secretHint: string;
  enabled: boolean;
  disabledReason: string | null;
}
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
const KEY = ['webhooks'] as const;
const DELIVERIES_KEY = ['webhook-deliveries'] as const;
const STATUS_COLOR: Record<DeliveryStatus, string> = { pending: 'blue', retrying: 'yellow', succeeded: 'green', failed: 'red' };

/** /settings/webhooks: endpoints, their secrets (each shown once: created or rotated) and the deliveries with Redeliver (admins; decision 043). */
export default function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const client = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: () => api.get<{ webhooks: EndpointRow[] }>('/webhooks/list-webhooks'), retry: false });
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<PageSize>(25);
  const deliveries = useQuery({
    queryKey: [...DELIVERIES_KEY, page, pageSize],
    queryFn: () => api.get<{ deliveries: DeliveryRow[]; pagination: Pagination }>('/webhooks/list-deliveries', { query: { page, pageSize } }),
    enabled: list.isSuccess,
    placeholderData: keepPreviousData,
    // Deliveries move on their own (retries): the list follows them while the page is open.
    refetchInterval: 5000,
  });
  const [adding, setAdding] = useState(false);
  // A new secret (created or rotated), shown this once.
  const [shownSecret, setShownSecret] = useState<string | null>(null);
  const [opened, setOpened] = useState<number | null>(null);

  const setEnabled = useMutation({
    mutationFn: (w: EndpointRow) =>
      api.put<{ webhooks: EndpointRow[] }>(`/webhooks/update-webhook/${w.id}`, {
        url: w.url,
        description: w.description ?? '',
        events: w.events,
        enabled: !w.enabled,
      }),
    onSuccess: (data) => client.setQueryData(KEY, { webhooks: data.webhooks }),
    onError: (err) => notifyError(errorMessage(err)),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.del<{ webhooks: EndpointRow[] }>(`/webhooks/delete-webhook/${id}`),
    onSuccess: (data) => {
      client.setQueryData(KEY, data);
      void client.invalidateQueries({ queryKey: DELIVERIES_KEY });
    },
    onError: (err) => notifyError(errorMessage(err)),
  });
  const rotate = useMutation({
    mutationFn: (id: number) => api.post<{ webhook: EndpointRow & { secret: string } }>(`/webhooks/rotate-webhook-secret/${id}`),
    onSuccess: (data) => {
      setShownSecret(data.webhook.secret);
      void client.invalidateQueries({ queryKey: KEY });
    },
    onError: (err) => notifyError(errorMessage(err)),
  });
  const redeliver = useMutation({
    mutationFn: (id: number) => api.post(`/webhooks/redeliver/${id}`),
    onSuccess: () => {
      notifySuccess(t('redelivered'));
      void client.invalidateQueries({ queryKey: DELIVERIES_KEY });
    },
    onError: (err) => notifyError(errorMessage(err)),
  });

  const deliveryColumns: Column<DeliveryRow>[] = [
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

  const forbidden = list.error instanceof ApiError && list.error.status === 403;
  return (
    <Stack gap="md" p="md" maw={1200}>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('title')}</Title>
        <Button onClick={() => setAdding(true)} disabled={forbidden} data-testid="webhook-add">
          {t('add')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('intro')}
      </Text>
      {list.isPending || list.isError ? (
        <LoadState
          pending={list.isPending}
          failed={list.isError}
          forbidden={forbidden}
          label={t('title')}
          texts={{ forbidden: t('adminsOnly'), failed: t('loadFailed'), retry: t('retry') }}
          onRetry={() => void list.refetch()}
        />
      ) : list.data.webhooks.length === 0 ? (
        <EmptyState title={t('empty')} description={t('emptyHelp')} />
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table striped data-testid="webhooks-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('url')}</Table.Th>
                <Table.Th>{t('events')}</Table.Th>
                <Table.Th>{t('secret')}</Table.Th>
                <Table.Th>{t('status')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.webhooks.map((w) => (
                <Table.Tr key={w.id}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    <Text size="sm">{w.url}</Text>
                    {w.description && (
                      <Text size="xs" c="dimmed">
                        {w.description}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {w.events.map((e) => (
                        <Badge key={e} variant="light" size="sm">
                          {t(`eventNames.${e}`)}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Code data-testid="webhook-secret-hint">{w.secretHint}…</Code>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        loading={rotate.isPending && rotate.variables === w.id}
                        onClick={async () => {
                          if (await confirmAction({ message: t('rotateConfirm', { url: w.url }), confirmLabel: t('rotate') })) rotate.mutate(w.id);
                        }}
                      >
                        {t('rotate')}
                      </Button>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={w.enabled ? 'green' : 'gray'} variant="light" title={w.disabledReason ?? undefined}>
                      {w.enabled ? t('enabled') : t('disabled')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button size="xs" variant="light" onClick={() => setEnabled.mutate(w)}>
                        {w.enabled ? t('disable') : t('enable')}
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        onClick={async () => {
                          if (await confirmDelete(t('deleteConfirm', { url: w.url }))) remove.mutate(w.id);
                        }}
                      >
                        {t('delete')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      {list.isSuccess && (
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
      {adding && (
        <AddEndpointDialog
          onClose={() => setAdding(false)}
          onSaved={(data) => {
            client.setQueryData(KEY, { webhooks: data.webhooks });
            setAdding(false);
            notifySuccess(t('saved'));
            setShownSecret(data.webhook.secret);
          }}
        />
      )}
      <SecretShownModal
        ns="webhooks"
        title={t('secretShown')}
        value={shownSecret}
        onClose={() => setShownSecret(null)}
        valueTestId="webhook-secret"
        doneTestId="webhook-secret-done"
      >
        <Alert color="yellow" data-testid="webhook-secret-warning">
          {t('secretOnce')}
        </Alert>
      </SecretShownModal>
    </Stack>
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
        <LoadState
          pending={one.isPending}
          failed={one.isError}
          forbidden={one.error instanceof ApiError && one.error.status === 403}
          label={t('delivery')}
          texts={{ forbidden: t('adminsOnly'), failed: t('loadFailed'), retry: t('retry') }}
          onRetry={() => void one.refetch()}
        />
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

function AddEndpointDialog({
  onClose,
  onSaved,
}: {
  onClose(): void;
  onSaved(data: { webhooks: EndpointRow[]; webhook: EndpointRow & { secret: string } }): void;
}) {
  const { t } = useTranslation('webhooks');
  const { t: common } = useTranslation();
  // the route's own schema and messages (useRecordForm)
  const form = useRecordForm<WebhookInput, never>(webhookInputSchema, undefined, () => ({
    url: '',
    description: '',
    events: ['work-order.created'],
    secret: '',
  }));
  const errors = form.formState.errors;
  const save = useMutation({
    mutationFn: (body: WebhookInput) => api.post<{ webhooks: EndpointRow[]; webhook: EndpointRow & { secret: string } }>('/webhooks/add-webhook', body),
    onSuccess: onSaved,
    onError: (err) => {
      if (!applyApiErrors(err, form.setError, { known: ['url', 'description', 'events', 'secret'] })) notifyError(errorMessage(err));
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('add')} centered size="lg">
      <form onSubmit={form.handleSubmit((body) => save.mutate(body))} noValidate>
        <Stack>
          <TextInput
            label={t('url')}
            placeholder="https://example.com/hooks/cmms"
            {...form.register('url')}
            error={errors.url?.message}
            withAsterisk
            data-autofocus
            data-testid="webhook-url"
          />
          <TextInput label={t('description')} {...form.register('description')} error={errors.description?.message} />
          <Controller
            control={form.control}
            name="events"
            render={({ field }) => (
              <Checkbox.Group label={t('events')} value={field.value} onChange={field.onChange} error={errors.events?.message} withAsterisk>
                <Stack gap={6} mt={6}>
                  {WEBHOOK_EVENTS.map((e) => (
                    <Checkbox key={e} value={e} label={t(`eventNames.${e}`)} />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
          />
          <TextInput label={t('secret')} description={t('secretHelp')} {...form.register('secret')} error={errors.secret?.message} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {common('actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="webhook-save">
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
