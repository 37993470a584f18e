import { useState } from 'react';
import { Alert, Badge, Button, Checkbox, Code, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  DialogActions,
  AdminListPage,
  confirmAction,
  confirmDelete,
  notifyError,
  notifySuccess,
  SecretShownModal,
  useRecordForm,
  TableHead,
  FormTextInput,
} from '../../../web/components';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { WEBHOOK_EVENTS, webhookInputSchema, type WebhookEvent, type WebhookInput } from '../webhooks.schema';
import { DELIVERIES_KEY, WebhookDeliveries } from './webhook-deliveries';
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
const KEY = ['webhooks'] as const;

/** The endpoints: URL, events, the secret's hint with Rotate, the state with Enable/Disable and Delete. */
function EndpointsTable({ webhooks, onSecret }: { webhooks: EndpointRow[]; onSecret(secret: string): void }) {
  const { t } = useTranslation('webhooks');
  const client = useQueryClient();
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
      onSecret(data.webhook.secret);
      void client.invalidateQueries({ queryKey: KEY });
    },
    onError: (err) => notifyError(errorMessage(err)),
  });
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped data-testid="webhooks-table">
        <TableHead labels={[t('url'), t('events'), t('secret'), t('status'), null]} />
        <Table.Tbody>
          {webhooks.map((w) => (
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
  );
}

/** /settings/webhooks: endpoints, their secrets (each shown once: created or rotated) and the deliveries with Redeliver (admins; decision 043). */
export default function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const client = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: () => api.get<{ webhooks: EndpointRow[] }>('/webhooks/list-webhooks'), retry: false });
  const [adding, setAdding] = useState(false);
  // A new secret (created or rotated), shown this once.
  const [shownSecret, setShownSecret] = useState<string | null>(null);

  return (
    <AdminListPage
      t={t}
      query={list}
      maw={1200}
      onAdd={() => setAdding(true)}
      addTestId="webhook-add"
      isEmpty={(data) => data.webhooks.length === 0}
      records={(data) => <EndpointsTable webhooks={data.webhooks} onSecret={setShownSecret} />}
    >
      <WebhookDeliveries shown={list.isSuccess} />
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
    </AdminListPage>
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
          <FormTextInput
            form={form}
            name="url"
            label={t('url')}
            placeholder="https://example.com/hooks/cmms"
            withAsterisk
            data-autofocus
            testId="webhook-url"
          />
          <FormTextInput form={form} name="description" label={t('description')} />
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
          <FormTextInput form={form} name="secret" label={t('secret')} description={t('secretHelp')} />
          <DialogActions onCancel={onClose} submitLabel={t('save')} loading={save.isPending} testId="webhook-save" />
        </Stack>
      </form>
    </Modal>
  );
}
