import { useState } from 'react';
import { Alert, Badge, Button, Checkbox, Code, CopyButton, Group, Loader, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { confirmDelete, EmptyState, LoadState, notifyError, notifySuccess } from '../../../web/components';
import { api, ApiError, errorMessage } from '../../../web/lib/api';
import { formatDateTime } from '../../../web/lib/format';
import { WEBHOOK_EVENTS, type DeliveryStatus, type WebhookEvent } from '../webhooks.schema';
import './webhooks-i18n';

interface EndpointRow {
  id: number;
  url: string;
  description: string | null;
  events: WebhookEvent[];
  secret: string;
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

/** /settings/webhooks: endpoints, their secrets and the deliveries with Redeliver (admins; decision 043). */
export default function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const client = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: () => api.get<{ webhooks: EndpointRow[] }>('/webhooks/list-webhooks'), retry: false });
  const deliveries = useQuery({
    queryKey: DELIVERIES_KEY,
    queryFn: () => api.get<{ deliveries: DeliveryRow[] }>('/webhooks/list-deliveries', { query: { pageSize: 50 } }),
    enabled: list.isSuccess,
    // Deliveries move on their own (retries): the list follows them while the page is open.
    refetchInterval: 5000,
  });
  const [adding, setAdding] = useState(false);
  const [revealed, setRevealed] = useState<number | null>(null);

  const setEnabled = useMutation({
    mutationFn: (w: EndpointRow) =>
      api.put<{ webhooks: EndpointRow[] }>(`/webhooks/update-webhook/${w.id}`, { url: w.url, description: w.description ?? '', events: w.events, enabled: !w.enabled }),
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
  const redeliver = useMutation({
    mutationFn: (id: number) => api.post(`/webhooks/redeliver/${id}`),
    onSuccess: () => {
      notifySuccess(t('redelivered'));
      void client.invalidateQueries({ queryKey: DELIVERIES_KEY });
    },
    onError: (err) => notifyError(errorMessage(err)),
  });

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
                      <Code data-testid="webhook-secret">{revealed === w.id ? w.secret : 'whsec_••••••'}</Code>
                      <Button size="compact-xs" variant="subtle" onClick={() => setRevealed(revealed === w.id ? null : w.id)}>
                        {revealed === w.id ? t('hide') : t('show')}
                      </Button>
                      <CopyButton value={w.secret}>
                        {({ copied, copy }) => (
                          <Button size="compact-xs" variant="subtle" onClick={copy}>
                            {copied ? t('copied') : t('copy')}
                          </Button>
                        )}
                      </CopyButton>
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
          {deliveries.isError ? (
            <Alert color="red" role="alert">
              <Group justify="space-between">
                <Text size="sm">{t('loadFailed')}</Text>
                <Button size="xs" variant="light" onClick={() => void deliveries.refetch()}>
                  {t('retry')}
                </Button>
              </Group>
            </Alert>
          ) : !deliveries.data ? (
            <Loader size="sm" aria-label={t('deliveries')} />
          ) : deliveries.data.deliveries.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('noDeliveries')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={760}>
              <Table striped data-testid="deliveries-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('when')}</Table.Th>
                    <Table.Th>{t('event')}</Table.Th>
                    <Table.Th>{t('url')}</Table.Th>
                    <Table.Th>{t('status')}</Table.Th>
                    <Table.Th>{t('response')}</Table.Th>
                    <Table.Th>{t('attempts')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {deliveries.data.deliveries.map((d) => (
                    <Table.Tr key={d.id} data-testid="delivery-row">
                      <Table.Td>{formatDateTime(d.createdAt)}</Table.Td>
                      <Table.Td>{t(`eventNames.${d.event}`)}</Table.Td>
                      <Table.Td style={{ wordBreak: 'break-all' }}>{d.url}</Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOR[d.status]} variant="light" data-testid="delivery-status">
                          {t(`statuses.${d.status}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td title={d.lastError ?? undefined} data-testid="delivery-code">
                        {d.responseCode ?? (d.lastError ? '—' : '')}
                      </Table.Td>
                      <Table.Td>{d.attempts}</Table.Td>
                      <Table.Td>
                        <Button size="xs" variant="light" loading={redeliver.isPending && redeliver.variables === d.id} onClick={() => redeliver.mutate(d.id)}>
                          {t('redeliver')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}

      {adding && (
        <AddEndpointDialog
          onClose={() => setAdding(false)}
          onSaved={(data) => {
            client.setQueryData(KEY, { webhooks: data.webhooks });
            setAdding(false);
            notifySuccess(t('saved'));
          }}
        />
      )}
    </Stack>
  );
}

function AddEndpointDialog({ onClose, onSaved }: { onClose(): void; onSaved(data: { webhooks: EndpointRow[] }): void }) {
  const { t } = useTranslation('webhooks');
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['work-order.created']);
  const [secret, setSecret] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: () => api.post<{ webhooks: EndpointRow[] }>('/webhooks/add-webhook', { url, description, events, secret }),
    onSuccess: onSaved,
    onError: (err) => {
      if (err instanceof ApiError && err.issues.length) setErrors(Object.fromEntries(err.issues.map((i) => [i.path, i.message])));
      else notifyError(errorMessage(err));
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('add')} centered size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setErrors({});
          save.mutate();
        }}
      >
        <Stack>
          <TextInput label={t('url')} placeholder="https://example.com/hooks/cmms" value={url} onChange={(e) => setUrl(e.currentTarget.value)} error={errors.url} required data-autofocus data-testid="webhook-url" />
          <TextInput label={t('description')} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={errors.description} />
          <Checkbox.Group label={t('events')} value={events} onChange={setEvents} error={errors.events} required>
            <Stack gap={6} mt={6}>
              {WEBHOOK_EVENTS.map((e) => (
                <Checkbox key={e} value={e} label={t(`eventNames.${e}`)} />
              ))}
            </Stack>
          </Checkbox.Group>
          <TextInput label={t('secret')} description={t('secretHelp')} value={secret} onChange={(e) => setSecret(e.currentTarget.value)} error={errors.secret} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
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
