import { useState } from 'react';
import { Anchor, Badge, Button, Code, Modal, Select, Stack, Table, Text } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DialogActions,
  AdminListPage,
  confirmAction,
  notifyError,
  notifySuccess,
  SecretShownModal,
  useRecordForm,
  TableHead,
  FormTextInput,
} from '../../../web/components';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { formatDateTime } from '../../../web/lib/format';
import { API_KEY_ROLES, apiKeyInputSchema, type ApiKeyInput, type ApiKeyRole } from '../api-keys.schema';
import './api-keys-i18n';

/** What the API sends (dates as strings). */
interface ApiKeyRow {
  id: number;
  name: string;
  role: ApiKeyRole;
  prefix: string;
  createdByName: string | null;
  expiresAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}
const KEY = ['api-keys'] as const;
const EXPIRY_DAYS = ['30', '90', '365', '730'] as const;
/** The expiry `days` from now, as the API takes it. */
const expiryIn = (days: string) => new Date(Date.now() + Number(days) * 86400_000).toISOString();

/** A key's role in words: worker and manager as everywhere else (the common role labels), read-only of its own. */
function useRoleLabel() {
  const { t } = useTranslation('apiKeys');
  const { t: common } = useTranslation();
  return (role: ApiKeyRole) => (role === 'read-only' ? t('readOnly') : common(`roles.${role}`));
}

/** /settings/api-keys: the organisation's API keys (admins), each shown once when created (decision 043). */
export default function ApiKeysPage() {
  const { t } = useTranslation('apiKeys');
  const roleLabel = useRoleLabel();
  const client = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: () => api.get<{ apiKeys: ApiKeyRow[] }>('/api-keys/list-api-keys'), retry: false });
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<string | null>(null);

  const revoke = useMutation({
    mutationFn: (id: number) => api.post<{ apiKeys: ApiKeyRow[] }>(`/api-keys/revoke-api-key/${id}`),
    onSuccess: (data) => {
      client.setQueryData(KEY, data);
      notifySuccess(t('revokedDone'));
    },
    onError: (err) => notifyError(errorMessage(err)),
  });

  const status = (k: ApiKeyRow) =>
    k.revokedAt ? (
      <Badge color="gray" variant="light">
        {t('revoked')}
      </Badge>
    ) : new Date(k.expiresAt).getTime() <= Date.now() ? (
      <Badge color="yellow" variant="light">
        {t('expired')}
      </Badge>
    ) : (
      <Badge color="green" variant="light">
        {t('active')}
      </Badge>
    );

  return (
    <AdminListPage
      t={t}
      query={list}
      maw={1100}
      onAdd={() => setAdding(true)}
      addTestId="api-key-add"
      introMore={
        <>
          {' '}
          {/* underlined: a link inside a sentence is told apart by more than its colour (axe link-in-text-block) */}
          <Anchor href="/api/docs" target="_blank" rel="noreferrer" underline="always">
            {t('docs')}
          </Anchor>
        </>
      }
      isEmpty={(data) => data.apiKeys.length === 0}
      records={(data) => (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover data-testid="api-keys-table">
            <TableHead labels={[t('name'), t('prefix'), t('role'), t('lastUsed'), t('expires'), t('status'), null]} />
            <Table.Tbody>
              {data.apiKeys.map((k) => (
                <Table.Tr key={k.id}>
                  <Table.Td>{k.name}</Table.Td>
                  <Table.Td>
                    <Code>{k.prefix}…</Code>
                  </Table.Td>
                  <Table.Td>{roleLabel(k.role)}</Table.Td>
                  <Table.Td>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : t('never')}</Table.Td>
                  <Table.Td>{formatDateTime(k.expiresAt)}</Table.Td>
                  <Table.Td>{status(k)}</Table.Td>
                  <Table.Td>
                    {!k.revokedAt && (
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        loading={revoke.isPending && revoke.variables === k.id}
                        onClick={async () => {
                          if (await confirmAction({ message: t('revokeConfirm', { name: k.name }), confirmLabel: t('revoke') })) revoke.mutate(k.id);
                        }}
                      >
                        {t('revoke')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    >
      {adding && (
        <NewKeyDialog
          onClose={() => setAdding(false)}
          onCreated={(key, data) => {
            client.setQueryData(KEY, data);
            setAdding(false);
            setShown(key);
          }}
        />
      )}
      <SecretShownModal ns="apiKeys" title={t('created')} value={shown} onClose={() => setShown(null)} valueTestId="api-key-value" doneTestId="api-key-done">
        <Text size="sm">{t('createdHelp')}</Text>
      </SecretShownModal>
    </AdminListPage>
  );
}

function NewKeyDialog({ onClose, onCreated }: { onClose(): void; onCreated(key: string, data: { apiKeys: ApiKeyRow[] }): void }) {
  const { t } = useTranslation('apiKeys');
  const roleLabel = useRoleLabel();
  // the route's own schema and messages (useRecordForm); the expiry is picked as a period and sent as a date
  const form = useRecordForm<ApiKeyInput, never>(apiKeyInputSchema, undefined, () => ({ name: '', role: 'read-only', expiresAt: expiryIn('90') }));
  const [days, setDays] = useState<string>('90');
  const errors = form.formState.errors;
  const create = useMutation({
    mutationFn: (body: ApiKeyInput) => api.post<{ apiKeys: ApiKeyRow[]; key: string }>('/api-keys/add-api-key', { ...body, expiresAt: expiryIn(days) }),
    onSuccess: (data) => onCreated(data.key, data),
    onError: (err) => {
      if (!applyApiErrors(err, form.setError, { known: ['name', 'role', 'expiresAt'] })) notifyError(errorMessage(err));
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('add')} centered>
      <form onSubmit={form.handleSubmit((body) => create.mutate(body))} noValidate>
        <Stack>
          <FormTextInput form={form} name="name" label={t('name')} withAsterisk data-autofocus testId="api-key-name" />
          <Controller
            control={form.control}
            name="role"
            render={({ field }) => (
              <Select
                label={t('role')}
                value={field.value}
                onChange={(v) => v && field.onChange(v)}
                data={API_KEY_ROLES.map((r) => ({ value: r, label: roleLabel(r) }))}
                allowDeselect={false}
                error={errors.role?.message}
                data-testid="api-key-role"
              />
            )}
          />
          <Select
            label={t('expires')}
            value={days}
            onChange={(v) => {
              if (!v) return;
              setDays(v);
              form.setValue('expiresAt', expiryIn(v));
            }}
            data={EXPIRY_DAYS.map((d) => ({ value: d, label: t(`expiresIn.${d}`) }))}
            allowDeselect={false}
            error={errors.expiresAt?.message}
          />
          <DialogActions onCancel={onClose} submitLabel={t('create')} loading={create.isPending} testId="api-key-create" />
        </Stack>
      </form>
    </Modal>
  );
}
