import { useState } from 'react';
import { Anchor, Badge, Box, Button, Drawer, Group, Image, Select, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AsyncSelect, notifySuccess, useBusyAction } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { formatDateTime } from '../../../web/lib/format';
import { PORTAL_LIMITS, URGENCY_PRIORITY, WORK_ORDER_PRIORITIES } from '../request-portal.schema';
import { STATUS_COLOR, URGENCY_COLOR, type PortalRequestDto } from './portal-request';
import './labels';

/** A portal request in the inbox: what was reported, accept (into a work order or a request), decline, merge, the messages. */
export function RequestDrawer({ id, onClose, onChanged }: { id: number; onClose(): void; onChanged(): void }) {
  const { t } = useTranslation('portal');
  const queryClient = useQueryClient();
  const key = ['portal-requests', 'one', id];
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<{ request: PortalRequestDto }>(`/portal/get-request/${id}`, { signal }) });
  const r = query.data?.request;
  const { busy, run: withBusy } = useBusyAction();
  const act = (path: string, body: unknown, done: string) =>
    withBusy(async () => {
      const result = await api.post<{ request: PortalRequestDto }>(path, body);
      queryClient.setQueryData(key, { request: result.request });
      notifySuccess(t(done));
      onChanged();
    }, t('failed'));
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

          {open && <RequestTriage request={r} busy={busy} act={act} />}
          <RequestMessages request={r} busy={busy} act={act} />
        </Stack>
      )}
    </Drawer>
  );
}

type Act = (path: string, body: unknown, done: string) => Promise<boolean>;

/** Accept (into a work order or a maintenance request, with its title and priority), decline with a reason, or merge into another request. */
function RequestTriage({ request, busy, act }: { request: PortalRequestDto; busy: boolean; act: Act }) {
  const { t } = useTranslation('portal');
  const [into, setInto] = useState<'work-order' | 'maintenance-request'>('work-order');
  // the work's title: the description's first line; its priority: the urgency's
  const [title, setTitle] = useState(() => request.description.split('\n')[0].slice(0, 100));
  const [priority, setPriority] = useState<string>(URGENCY_PRIORITY[request.urgency]);
  const [reason, setReason] = useState('');
  const [mergeInto, setMergeInto] = useState<number | null>(null);
  return (
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
        onClick={() => void act(`/portal/accept-request/${request.id}`, { into, title, priority }, 'accepted')}
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
          onClick={() => void act(`/portal/decline-request/${request.id}`, { reason }, 'declined')}
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
            extraQuery={{ excludeId: request.id }}
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
          onClick={() => void act(`/portal/merge-request/${request.id}`, { intoId: mergeInto }, 'merged')}
          data-testid="portal-merge"
        >
          {t('merge')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The conversation with the requester, and a reply (sent by e-mail when the portal notifies). */
function RequestMessages({ request, busy, act }: { request: PortalRequestDto; busy: boolean; act: Act }) {
  const { t } = useTranslation('portal');
  const [reply, setReply] = useState('');
  return (
    <>
      <Text fw={600}>{t('messages')}</Text>
      {(request.replies ?? []).length === 0 && (
        <Text c="dimmed" size="sm">
          {t('noMessages')}
        </Text>
      )}
      {(request.replies ?? []).map((m) => (
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
          onClick={() => void act(`/portal/reply-request/${request.id}`, { body: reply }, 'replied').then((ok) => ok && setReply(''))}
          data-testid="portal-reply-send"
        >
          {t('send')}
        </Button>
      </Group>
    </>
  );
}
