import { useEffect, useState } from 'react';
import { Anchor, Badge, Box, Button, Drawer, Group, Image, Modal, Select, SegmentedControl, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AsyncSelect, ServerListScreen, notifyError, notifySuccess, useOpenRecord, useServerList, type Column } from '../../../web/components';
import { api, errorMessage } from '../../../web/lib/api';
import { menuCountKey, NEW_REQUESTS_COUNT_PATH } from '../../../web/app/menu';
import { formatDateTime } from '../../../web/lib/format';
import { useCurrentUser } from '../../../web/lib/app-data';
import { AssetMultiSelect } from '../../assets/ui/asset-select';
import {
  FIELD_MODES,
  PORTAL_LIMITS,
  PORTAL_STATUSES,
  URGENCY_PRIORITY,
  WORK_ORDER_PRIORITIES,
  type FieldMode,
  type PortalStatus,
  type PortalUrgency,
} from '../request-portal.schema';
import { PrintLabelsModal } from '../../../web/components/print-labels';
import './labels';

export interface PortalRequestDto {
  id: number;
  number: string;
  description: string;
  urgency: PortalUrgency;
  targetKind: 'asset' | 'work-station' | null;
  targetId: number | null;
  targetName: string | null;
  photos: string[];
  name: string | null;
  email: string | null;
  phone: string | null;
  status: PortalStatus;
  declineReason: string | null;
  workOrderId: number | null;
  maintenanceRequestId: number | null;
  mergedIntoId: number | null;
  heldAt: string | null;
  createdAt: string;
  replies?: { id: number; author: 'requester' | 'team'; body: string; photos: string[]; createdAt: string }[];
}

const URGENCY_COLOR: Record<PortalUrgency, string> = { low: 'gray', normal: 'blue', high: 'orange', urgent: 'red' };
const STATUS_COLOR: Record<PortalStatus, string> = {
  received: 'blue',
  accepted: 'teal',
  scheduled: 'cyan',
  'in-progress': 'yellow',
  done: 'green',
  declined: 'gray',
};

/** "3 h", "2 d": how long a request has waited. */
function age(iso: string) {
  const minutes = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 60000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`;
  return `${Math.round(minutes / 1440)} d`;
}

/** Requests (/dashboard/requests): the portal's inbox, new first; triage in the drawer (`?open=<id>`). */
export default function RequestsPage() {
  const { t } = useTranslation('portal');
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const list = useServerList<PortalRequestDto, { status: 'text' }>({
    queryKey: 'portal-requests',
    path: '/portal/list-requests',
    listKey: 'requests',
    filters: { status: 'text' },
    errorMessage: t('loadFailed'),
  });
  const [selected, open] = useOpenRecord();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [labelsOpen, setLabelsOpen] = useState(false);
  const refresh = () => {
    list.invalidate();
    void queryClient.invalidateQueries({ queryKey: menuCountKey(NEW_REQUESTS_COUNT_PATH) });
  };

  const columns: Column<PortalRequestDto>[] = [
    { key: 'number', header: t('col.number'), hideable: false },
    { key: 'photo', header: t('col.photo'), render: (r) => (r.photos[0] ? <Image src={r.photos[0]} w={48} h={48} radius="sm" fit="cover" alt="" /> : null) },
    {
      key: 'description',
      header: t('col.description'),
      render: (r) => (
        <Text lineClamp={2} size="sm">
          {r.description}
        </Text>
      ),
    },
    { key: 'where', header: t('col.where'), render: (r) => r.targetName ?? '' },
    {
      key: 'urgency',
      header: t('col.urgency'),
      render: (r) => (
        <Badge color={URGENCY_COLOR[r.urgency]} variant="light">
          {t(`urgency.${r.urgency}`)}
        </Badge>
      ),
    },
    { key: 'age', header: t('col.age'), render: (r) => <span title={formatDateTime(r.createdAt)}>{age(r.createdAt)}</span> },
    {
      key: 'status',
      header: t('col.status'),
      render: (r) => (
        <Group gap={4}>
          <Badge color={STATUS_COLOR[r.status]}>{t(`status.${r.status}`)}</Badge>
          {r.heldAt && r.status === 'received' && (
            <Badge color="orange" variant="outline">
              {t('held')}
            </Badge>
          )}
        </Group>
      ),
    },
    { key: 'contact', header: t('col.contact'), defaultHidden: true, render: (r) => [r.name, r.email, r.phone].filter(Boolean).join(', ') },
  ];

  return (
    <ServerListScreen
      list={list}
      exportList="portal-requests"
      tableId="portal-requests"
      columns={columns}
      onRowClick={(r) => open(r.id)}
      title={t('title')}
      actions={
        <>
          <Button variant="default" onClick={() => setLabelsOpen(true)} data-testid="portal-labels-open">
            {t('labels')}
          </Button>
          {user?.role === 'admin' && (
            <Button variant="default" onClick={() => setSettingsOpen(true)} data-testid="portal-settings-open">
              {t('settings')}
            </Button>
          )}
        </>
      }
      filters={
        <Select
          label={t('filterStatus')}
          clearable
          w={180}
          data={['open', ...PORTAL_STATUSES].map((s) => ({ value: s, label: t(`status.${s}`) }))}
          value={list.state.filters.status || null}
          onChange={(v) => list.state.setFilter('status', v ?? '')}
          data-testid="portal-filter-status"
          comboboxProps={{ withinPortal: true }}
        />
      }
    >
      {selected ? <RequestDrawer key={selected} id={selected} onClose={() => open(undefined)} onChanged={refresh} /> : null}
      {settingsOpen && <SettingsModal onClose={() => setSettingsOpen(false)} />}
      {labelsOpen && <LabelsModal onClose={() => setLabelsOpen(false)} />}
    </ServerListScreen>
  );
}

function RequestDrawer({ id, onClose, onChanged }: { id: number; onClose(): void; onChanged(): void }) {
  const { t } = useTranslation('portal');
  const queryClient = useQueryClient();
  const key = ['portal-requests', 'one', id];
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<{ request: PortalRequestDto }>(`/portal/get-request/${id}`, { signal }) });
  const r = query.data?.request;
  const [into, setInto] = useState<'work-order' | 'maintenance-request'>('work-order');
  const [title, setTitle] = useState('');
  const [priority, setPriority] = useState<string>('medium');
  const [reason, setReason] = useState('');
  const [mergeInto, setMergeInto] = useState<number | null>(null);
  const [reply, setReply] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (r && !title) {
      setTitle(r.description.split('\n')[0].slice(0, 100));
      setPriority(URGENCY_PRIORITY[r.urgency]);
    }
  }, [r, title]);
  const act = async (path: string, body: unknown, done: string) => {
    setBusy(true);
    try {
      const result = await api.post<{ request: PortalRequestDto }>(path, body);
      queryClient.setQueryData(key, { request: result.request });
      notifySuccess(t(done));
      onChanged();
      return true;
    } catch (err) {
      notifyError(errorMessage(err, t('failed')));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const open = r && r.status === 'received' && !r.mergedIntoId;
  return (
    <Drawer opened onClose={onClose} position="right" size="lg" title={r ? t('request', { number: r.number }) : ''} data-testid="portal-request-drawer">
      {!r ? (
        <Text c="dimmed">{query.isError ? t('failed') : '…'}</Text>
      ) : (
        <Stack gap="md">
          <Group gap="xs">
            <Badge color={STATUS_COLOR[r.status]} data-testid="portal-request-status">
              {t(`status.${r.status}`)}
            </Badge>
            <Badge color={URGENCY_COLOR[r.urgency]} variant="light">
              {t(`urgency.${r.urgency}`)}
            </Badge>
            {r.heldAt && (
              <Badge color="orange" variant="outline" title={t('heldHint')} data-testid="portal-request-held">
                {t('held')}
              </Badge>
            )}
            <Text size="sm" c="dimmed">
              {formatDateTime(r.createdAt)}
            </Text>
          </Group>
          {r.targetName && (
            <Text fw={600} dir="auto">
              {r.targetName}
            </Text>
          )}
          <Text style={{ whiteSpace: 'pre-wrap' }} dir="auto">
            {r.description}
          </Text>
          {r.declineReason && (
            <Text c="red" dir="auto">
              {r.declineReason}
            </Text>
          )}
          {(r.name || r.email || r.phone) && (
            <Text size="sm">
              <b>{t('contact')}:</b>{' '}
              {[r.name, r.email, r.phone].filter(Boolean).map((v, i) => (
                <span key={i}>
                  {i > 0 && ', '}
                  <bdi>{v}</bdi>
                </span>
              ))}
            </Text>
          )}
          {r.photos.length > 0 && (
            <Group gap="xs">
              {r.photos.map((p) => (
                <a key={p} href={p} target="_blank" rel="noreferrer">
                  <Image src={p} w={96} h={96} radius="sm" fit="cover" alt={t('photos')} />
                </a>
              ))}
            </Group>
          )}
          {r.workOrderId && (
            <Anchor component={Link} to={`/dashboard/work-orders?open=${r.workOrderId}`} data-testid="portal-open-work-order">
              {t('openWork')} (WO-{String(r.workOrderId).padStart(4, '0')})
            </Anchor>
          )}
          {r.maintenanceRequestId && (
            <Anchor component={Link} to={`/dashboard/maintenance-request?open=${r.maintenanceRequestId}`}>
              {t('openRequest')} (MR-{String(r.maintenanceRequestId).padStart(4, '0')})
            </Anchor>
          )}
          {r.mergedIntoId && <Text size="sm">{t('mergedInto', { number: `PR-${String(r.mergedIntoId).padStart(4, '0')}` })}</Text>}

          {open && (
            <Stack gap="xs" p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}>
              <Text fw={600}>{t('accept')}</Text>
              <SegmentedControl
                value={into}
                onChange={(v) => setInto(v as typeof into)}
                data={[
                  { value: 'work-order', label: t('intoWorkOrder') },
                  { value: 'maintenance-request', label: t('intoRequest') },
                ]}
                data-testid="portal-accept-into"
              />
              <TextInput
                label={t('woTitle')}
                value={title}
                onChange={(e) => setTitle(e.currentTarget.value)}
                maxLength={PORTAL_LIMITS.titleMax}
                data-testid="portal-accept-title"
              />
              <Select
                label={t('priority')}
                value={priority}
                onChange={(v) => setPriority(v ?? 'medium')}
                data={WORK_ORDER_PRIORITIES.map((p) => ({ value: p, label: t(`priorities.${p}`) }))}
                comboboxProps={{ withinPortal: true }}
              />
              <Button
                loading={busy}
                onClick={() => void act(`/portal/accept-request/${id}`, { into, title, priority }, 'accepted')}
                data-testid="portal-accept"
              >
                {t('accept')}
              </Button>
              <Group align="flex-end" wrap="nowrap">
                <Textarea
                  label={t('declineReason')}
                  value={reason}
                  onChange={(e) => setReason(e.currentTarget.value)}
                  maxLength={PORTAL_LIMITS.declineReasonMax}
                  autosize
                  minRows={1}
                  style={{ flex: 1 }}
                  data-testid="portal-decline-reason"
                />
                <Button
                  color="red"
                  variant="light"
                  loading={busy}
                  disabled={!reason.trim()}
                  onClick={() => void act(`/portal/decline-request/${id}`, { reason }, 'declined')}
                  data-testid="portal-decline"
                >
                  {t('decline')}
                </Button>
              </Group>
              <Group align="flex-end" wrap="nowrap">
                <Box style={{ flex: 1 }}>
                  {/* found by number, description, requester or asset: nobody remembers a request's number */}
                  <AsyncSelect
                    path="/portal/get-requests-options"
                    extraQuery={{ excludeId: id }}
                    label={t('mergeInto')}
                    placeholder={t('mergeSearch')}
                    value={mergeInto}
                    onChange={(value) => setMergeInto(value)}
                    testId="portal-merge-into"
                  />
                </Box>
                <Button
                  variant="default"
                  loading={busy}
                  disabled={!mergeInto}
                  onClick={() => void act(`/portal/merge-request/${id}`, { intoId: mergeInto }, 'merged')}
                  data-testid="portal-merge"
                >
                  {t('merge')}
                </Button>
              </Group>
            </Stack>
          )}

          <Text fw={600}>{t('messages')}</Text>
          {(r.replies ?? []).length === 0 && (
            <Text c="dimmed" size="sm">
              {t('noMessages')}
            </Text>
          )}
          {(r.replies ?? []).map((m) => (
            <Stack key={m.id} gap={2} pl="sm" style={{ borderInlineStart: `3px solid var(--mantine-color-${m.author === 'team' ? 'blue' : 'gray'}-5)` }}>
              <Text size="xs" c="dimmed">
                {m.author === 'team' ? t('team') : t('requester')} · {formatDateTime(m.createdAt)}
              </Text>
              {m.body && <Text size="sm">{m.body}</Text>}
              <Group gap="xs">
                {m.photos.map((p) => (
                  <Image key={p} src={p} w={72} h={72} radius="sm" fit="cover" alt={t('photos')} />
                ))}
              </Group>
            </Stack>
          ))}
          <Textarea
            label={t('reply')}
            description={t('replyHint')}
            value={reply}
            onChange={(e) => setReply(e.currentTarget.value)}
            maxLength={PORTAL_LIMITS.commentMax}
            autosize
            minRows={2}
            data-testid="portal-reply"
          />
          <Group justify="flex-end">
            <Button
              variant="default"
              loading={busy}
              disabled={!reply.trim()}
              onClick={() => void act(`/portal/reply-request/${id}`, { body: reply }, 'replied').then((ok) => ok && setReply(''))}
              data-testid="portal-reply-send"
            >
              {t('send')}
            </Button>
          </Group>
        </Stack>
      )}
    </Drawer>
  );
}

interface SettingsDto {
  enabled: boolean;
  nameField: FieldMode;
  emailField: FieldMode;
  phoneField: FieldMode;
  notifyRequester: boolean;
  welcome: string | null;
  published: { kind: 'asset' | 'work-station'; id: number; name: string }[];
}

const SETTINGS_KEY = ['portal', 'settings'];

/** The portal's settings (admins): on or off, contact fields, welcome text, the general form's assets. */
function SettingsModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('portal');
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: SETTINGS_KEY, queryFn: ({ signal }) => api.get<SettingsDto>('/portal/settings', { signal }) });
  const [draft, setDraft] = useState<SettingsDto | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (query.data && !draft) setDraft(query.data);
  }, [query.data, draft]);
  const save = async () => {
    if (!draft) return;
    setBusy(true);
    try {
      const result = await api.put<{ settings: SettingsDto }>('/portal/settings', {
        ...draft,
        welcome: draft.welcome ?? '',
        published: draft.published.map(({ kind, id }) => ({ kind, id })),
      });
      // The next opening shows what was saved, not the copy read before.
      queryClient.setQueryData(SETTINGS_KEY, result.settings);
      notifySuccess(t('saved'));
      onClose();
    } catch (err) {
      notifyError(errorMessage(err, t('failed')));
    } finally {
      setBusy(false);
    }
  };
  const assetIds = draft?.published.filter((p) => p.kind === 'asset').map((p) => p.id) ?? [];
  return (
    <Modal opened onClose={onClose} title={t('settings')} size="lg" data-testid="portal-settings">
      {!draft ? (
        <Text c="dimmed">…</Text>
      ) : (
        <Stack gap="sm">
          <Switch
            label={t('enabled')}
            checked={draft.enabled}
            onChange={(e) => setDraft({ ...draft, enabled: e.currentTarget.checked })}
            data-testid="portal-enabled"
          />
          {(['nameField', 'emailField', 'phoneField'] as const).map((f) => (
            <Stack key={f} gap={4}>
              <Text size="sm" fw={500}>
                {t(f)}
              </Text>
              <SegmentedControl
                value={draft[f]}
                onChange={(v) => setDraft({ ...draft, [f]: v as FieldMode })}
                data={FIELD_MODES.map((m) => ({ value: m, label: t(`fieldMode.${m}`) }))}
                data-testid={`portal-${f}`}
              />
            </Stack>
          ))}
          <Switch label={t('notify')} checked={draft.notifyRequester} onChange={(e) => setDraft({ ...draft, notifyRequester: e.currentTarget.checked })} />
          <Textarea
            label={t('welcome')}
            value={draft.welcome ?? ''}
            onChange={(e) => setDraft({ ...draft, welcome: e.currentTarget.value })}
            maxLength={PORTAL_LIMITS.welcomeMax}
            autosize
            minRows={2}
            data-testid="portal-welcome"
          />
          <AssetMultiSelect
            label={t('published')}
            value={assetIds}
            onChange={(ids) =>
              setDraft({
                ...draft,
                published: [...draft.published.filter((p) => p.kind !== 'asset'), ...ids.map((id) => ({ kind: 'asset' as const, id, name: '' }))],
              })
            }
            initialOptions={draft.published.filter((p) => p.kind === 'asset').map((p) => ({ value: p.id, label: p.name }))}
            allowAddNew={false}
            testId="portal-published"
          />
          <Text size="sm">
            {t('generalUrl')}: <code>{`${window.location.origin}/portal`}</code>
          </Text>
          <Group justify="flex-end">
            <Button loading={busy} onClick={() => void save()} data-testid="portal-settings-save">
              {t('save')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** Label PDFs from the inbox: assets picked here (the Assets and Work stations lists print their chosen rows). */
function LabelsModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('portal');
  const [assetIds, setAssetIds] = useState<number[]>([]);
  return (
    <PrintLabelsModal assetIds={assetIds} onClose={onClose}>
      <AssetMultiSelect label={t('chooseAssets')} value={assetIds} onChange={setAssetIds} allowAddNew={false} testId="portal-label-assets" />
    </PrintLabelsModal>
  );
}
