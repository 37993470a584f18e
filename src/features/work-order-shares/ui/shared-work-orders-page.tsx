import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Anchor, Badge, Button, CopyButton, Drawer, Group, Modal, NumberInput, Select, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ListMultiFilter,
  ListTextFilter,
  QueryLoadState,
  ServerListScreen,
  confirmAction,
  notifyError,
  useBusyAction,
  notifySuccess,
  useMoney,
  useServerList,
  type Column,
} from '../../../web/components';
import { api, errorMessage } from '../../../web/lib/api';
import { formatDateTime } from '../../../web/lib/format';
import { CustomerVendorSelect } from '../../customers-vendors/ui/customer-vendor-select';
import { workOrderDisplayId } from '../../work-orders/work-orders.schema';
import { DEFAULT_SHARE_DAYS, MAX_SHARE_DAYS, SHARE_STATES, shareInputSchema, type ShareDto, type ShareMessageDto } from '../work-order-shares.schema';
import './labels';
import { ShareMessages } from './share-messages';

const STATUS_COLORS: Record<ShareDto['status'], string> = {
  waiting: 'gray',
  'in-progress': 'blue',
  done: 'orange',
  accepted: 'green',
  'sent-back': 'grape',
  expired: 'dark',
  revoked: 'red',
};
const STATUSES = [...SHARE_STATES, 'expired', 'revoked'] as const;

/** /dashboard/shared-work-orders: every share of the organisation, with revoke, extend, accept and send back. */
export default function SharedWorkOrdersPage() {
  const { t } = useTranslation('workOrderShares');
  const money = useMoney();
  const [params, setParams] = useSearchParams();
  const list = useServerList<ShareDto, { search: 'text'; state: 'multi' }>({
    queryKey: 'work-order-shares',
    path: '/shared-work-orders/list-shares',
    listKey: 'shares',
    filters: { search: 'text', state: 'multi' },
    errorMessage: t('fetchFailed'),
  });
  const [selected, setSelected] = useState<number | null>(null);
  // ?share=<work order id>: the work order's drawer sends the manager here to share it.
  const shareParam = Number(params.get('share'));
  const [creating, setCreating] = useState<number | null | undefined>(shareParam > 0 ? shareParam : undefined);
  const closeCreate = () => {
    setCreating(undefined);
    if (params.has('share')) {
      params.delete('share');
      setParams(params, { replace: true });
    }
  };
  const columns: Column<ShareDto>[] = [
    { key: 'workOrderTitle', header: t('col.workOrder'), hideable: false, render: (r) => `${workOrderDisplayId(r.workOrderId)} ${r.workOrderTitle}` },
    {
      key: 'contractorName',
      header: t('col.contractor'),
      render: (r) => (
        <Stack gap={0}>
          <Text size="sm">{r.contractorName}</Text>
          <Text size="xs" c="dimmed">
            {r.email}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'permissions',
      header: t('col.permissions'),
      render: (r) => (
        <Group gap={4}>
          {/* viewing always, then what else the share allows */}
          {(['view', r.canComment && 'comment', r.canLog && 'log', r.canComplete && 'complete'] as const)
            .filter((perm) => perm !== false)
            .map((perm) => (
              <Badge key={perm} variant="light" size="xs">
                {t(`perm.${perm}`)}
              </Badge>
            ))}
        </Group>
      ),
    },
    { key: 'expiresAt', header: t('col.expiresAt'), render: (r) => formatDateTime(r.expiresAt) },
    { key: 'lastActivityAt', header: t('col.lastActivity'), render: (r) => (r.lastActivityAt ? formatDateTime(r.lastActivityAt) : t('never')) },
    {
      key: 'status',
      header: t('col.status'),
      render: (r) => (
        <Badge color={STATUS_COLORS[r.status]} data-testid={`share-status-${r.id}`}>
          {t(`status.${r.status}`)}
        </Badge>
      ),
    },
    { key: 'externalCostMinor', header: t('col.cost'), defaultHidden: true, render: (r) => money.formatMinor(r.externalCostMinor) },
  ];
  return (
    <ServerListScreen
      list={list}
      // a row opens the share; Add starts a new one (the create dialog)
      records={{ name: 'shared-work-orders', open: (r) => (r ? setSelected(r.id) : setCreating(null)), title: t('title'), addLabel: t('add') }}
      tableId="work-order-shares"
      columns={columns}
      filters={
        <>
          <ListTextFilter state={list.state} name="search" placeholder={t('search')} debounceMs={300} />
          <ListMultiFilter state={list.state} name="state" placeholder={t('stateFilter')} values={STATUSES} label={(s) => t(`status.${s}`)} />
        </>
      }
    >
      {creating !== undefined && <CreateShareModal workOrderId={creating} onClose={closeCreate} onCreated={() => void list.invalidate()} />}
      {selected !== null && <ShareDrawer id={selected} onClose={() => setSelected(null)} onChanged={() => void list.invalidate()} />}
    </ServerListScreen>
  );
}

interface WorkOrderOption {
  id: number;
  title: string;
}

function CreateShareModal({ workOrderId, onClose, onCreated }: { workOrderId: number | null; onClose(): void; onCreated(): void }) {
  const { t } = useTranslation('workOrderShares');
  const [search, setSearch] = useState('');
  const [values, setValues] = useState({
    workOrderId,
    vendorId: null as number | null,
    contractorName: '',
    email: '',
    canComment: true,
    canLog: true,
    canComplete: true,
    requireCode: false,
    days: DEFAULT_SHARE_DAYS,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, run: withBusy } = useBusyAction();
  const [link, setLink] = useState<string | null>(null);
  const orders = useQuery({
    queryKey: ['work-orders', 'share-options', search],
    queryFn: ({ signal }) =>
      api.get<{ workOrders: WorkOrderOption[] }>('/work-orders/get-work-orders', { query: { pageSize: 25, ...(search ? { title: search } : {}) }, signal }),
  });
  const chosen = useQuery({
    queryKey: ['work-orders', 'share-chosen', values.workOrderId],
    queryFn: ({ signal }) => api.get<{ workOrder: WorkOrderOption }>(`/work-orders/get-work-order/${values.workOrderId}`, { signal }),
    enabled: !!values.workOrderId,
  });
  const options = [...(chosen.data ? [chosen.data.workOrder] : []), ...(orders.data?.workOrders ?? [])]
    .filter((o, i, all) => all.findIndex((x) => x.id === o.id) === i)
    .map((o) => ({ value: String(o.id), label: `${workOrderDisplayId(o.id)} ${o.title}` }));
  const set = <K extends keyof typeof values>(key: K, value: (typeof values)[K]) => setValues((v) => ({ ...v, [key]: value }));

  const pickVendor = async (id: number | null) => {
    set('vendorId', id);
    if (!id) return;
    try {
      const res = await api.get<{ customerVendor: { name: string; email: string } }>(`/customer-vendors/get-customer-vendor/${id}`);
      setValues((v) => ({ ...v, vendorId: id, contractorName: res.customerVendor.name, email: res.customerVendor.email }));
    } catch {
      /* the fields stay editable */
    }
  };

  const submit = async () => {
    const parsed = shareInputSchema.safeParse({ ...values, vendorId: values.vendorId ?? undefined, workOrderId: values.workOrderId ?? undefined });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    await withBusy(async () => {
      const res = await api.post<{ link: string }>('/shared-work-orders/create-share', parsed.data);
      setLink(res.link);
      notifySuccess(t('created'));
      onCreated();
    }, t('failed'));
  };

  return (
    <Modal opened onClose={onClose} title={t('add')} size="lg" data-testid="share-modal">
      {link ? (
        <Stack>
          <TextInput label={t('linkLabel')} value={link} readOnly data-testid="share-link" />
          <Group justify="flex-end">
            <CopyButton value={link}>{({ copied, copy }) => <Button onClick={copy}>{copied ? t('copied') : t('copy')}</Button>}</CopyButton>
            <Button variant="default" onClick={onClose} data-testid="share-close">
              OK
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Select
            label={t('form.workOrder')}
            withAsterisk
            searchable
            data={options}
            value={values.workOrderId ? String(values.workOrderId) : null}
            onChange={(v) => set('workOrderId', v ? Number(v) : null)}
            onSearchChange={setSearch}
            filter={({ options: o }) => o}
            error={errors.workOrderId}
            data-testid="share-work-order"
          />
          <CustomerVendorSelect
            type="vendor"
            label={t('form.vendor')}
            value={values.vendorId}
            onChange={(v) => void pickVendor(v)}
            quickCreate={false}
            clearable
            testId="share-vendor"
          />
          <TextInput
            label={t('form.name')}
            withAsterisk
            value={values.contractorName}
            onChange={(e) => set('contractorName', e.currentTarget.value)}
            error={errors.contractorName}
            data-testid="share-name"
          />
          <TextInput
            label={t('form.email')}
            withAsterisk
            type="email"
            value={values.email}
            onChange={(e) => set('email', e.currentTarget.value)}
            error={errors.email}
            data-testid="share-email"
          />
          <Switch label={t('form.canComment')} checked={values.canComment} onChange={(e) => set('canComment', e.currentTarget.checked)} />
          <Switch label={t('form.canLog')} checked={values.canLog} onChange={(e) => set('canLog', e.currentTarget.checked)} />
          <Switch label={t('form.canComplete')} checked={values.canComplete} onChange={(e) => set('canComplete', e.currentTarget.checked)} />
          <Switch label={t('form.requireCode')} checked={values.requireCode} onChange={(e) => set('requireCode', e.currentTarget.checked)} />
          <NumberInput
            label={t('form.days')}
            min={1}
            max={MAX_SHARE_DAYS}
            value={values.days}
            onChange={(v) => set('days', Number(v) || DEFAULT_SHARE_DAYS)}
            error={errors.days}
            w={200}
          />
          <Group justify="flex-end">
            <Button onClick={() => void submit()} loading={busy} data-testid="share-submit">
              {t('form.submit')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function ShareDrawer({ id, onClose, onChanged }: { id: number; onClose(): void; onChanged(): void }) {
  const { t } = useTranslation('workOrderShares');
  const queryClient = useQueryClient();
  const key = ['work-order-shares', 'one', id];
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<{ share: ShareDto; messages: ShareMessageDto[] }>(`/shared-work-orders/get-share/${id}`, { signal }),
  });
  const [reply, setReply] = useState('');
  const [backComment, setBackComment] = useState('');
  const [days, setDays] = useState<number>(7);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => setReply(''), [id]);

  const run = async (name: string, call: () => Promise<unknown>) => {
    setBusy(name);
    try {
      await call();
      notifySuccess(t('done'));
      await queryClient.invalidateQueries({ queryKey: key });
      onChanged();
    } catch (err) {
      notifyError(errorMessage(err, t('failed')));
    } finally {
      setBusy(null);
    }
  };
  const share = query.data?.share;
  const live = share && share.status !== 'revoked' && share.status !== 'accepted';

  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="lg"
      title={share ? `${t('detail')}: ${share.contractorName}` : t('detail')}
      data-testid="share-drawer"
    >
      <QueryLoadState
        query={query}
        pending={query.isLoading}
        label={t('detail')}
        texts={{ forbidden: t('managersOnly'), failed: errorMessage(query.error, t('fetchFailed')), retry: t('retry') }}
      />
      {share && (
        <Stack>
          <Group gap="xs">
            <Badge color={STATUS_COLORS[share.status]} data-testid="share-drawer-status">
              {t(`status.${share.status}`)}
            </Badge>
            <Text size="sm">
              <Anchor href={`/dashboard/work-orders?open=${share.workOrderId}`}>{workOrderDisplayId(share.workOrderId)}</Anchor> {share.workOrderTitle}
            </Text>
          </Group>
          <Text size="sm" c="dimmed">
            {share.email} · {t('col.expiresAt')}: {formatDateTime(share.expiresAt)}
          </Text>
          {share.reviewComment && (
            <Text size="sm">
              {t('reviewComment')}: {share.reviewComment}
            </Text>
          )}
          {share.status === 'done' && (
            <Stack gap="xs">
              <Button
                color="green"
                onClick={() => void run('accept', () => api.put(`/shared-work-orders/accept-share/${id}`))}
                loading={busy === 'accept'}
                data-testid="share-accept"
              >
                {t('accept')}
              </Button>
              <Textarea label={t('sendBackComment')} value={backComment} onChange={(e) => setBackComment(e.currentTarget.value)} autosize minRows={2} />
              <Button
                variant="default"
                disabled={!backComment.trim()}
                onClick={() => void run('back', () => api.put(`/shared-work-orders/send-back-share/${id}`, { comment: backComment }))}
                loading={busy === 'back'}
                data-testid="share-send-back"
              >
                {t('sendBack')}
              </Button>
            </Stack>
          )}
          {live && (
            <Group align="flex-end">
              <NumberInput label={t('extendDays')} min={1} max={MAX_SHARE_DAYS} value={days} onChange={(v) => setDays(Number(v) || 7)} w={140} />
              <Button
                variant="default"
                onClick={() => void run('extend', () => api.put(`/shared-work-orders/extend-share/${id}`, { days }))}
                loading={busy === 'extend'}
                data-testid="share-extend"
              >
                {t('extend')}
              </Button>
              <Button
                color="red"
                variant="light"
                loading={busy === 'revoke'}
                data-testid="share-revoke"
                onClick={() =>
                  void confirmAction({ message: t('revokeConfirm') }).then((yes) =>
                    yes ? run('revoke', () => api.put(`/shared-work-orders/revoke-share/${id}`)) : undefined,
                  )
                }
              >
                {t('revoke')}
              </Button>
            </Group>
          )}
          <Text fw={600}>{t('thread')}</Text>
          <ShareMessages messages={query.data!.messages} emptyText={t('noMessages')} testId="share-message" fileLabel={t('openFile')} />
          {live && (
            <>
              <Textarea label={t('reply')} value={reply} onChange={(e) => setReply(e.currentTarget.value)} autosize minRows={2} />
              <Group justify="flex-end">
                <Button
                  disabled={!reply.trim()}
                  onClick={() => void run('reply', () => api.post(`/shared-work-orders/add-share-comment/${id}`, { body: reply }).then(() => setReply('')))}
                  loading={busy === 'reply'}
                >
                  {t('send')}
                </Button>
              </Group>
            </>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
