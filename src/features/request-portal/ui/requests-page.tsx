import { useState } from 'react';
import { Badge, Button, Group, Image, Select, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { badgeColumn, openById, ServerListScreen, useOpenRecord, useServerList, type Column } from '../../../web/components';
import { menuCountKey, NEW_REQUESTS_COUNT_PATH } from '../../../web/app/menu';
import { formatDateTime } from '../../../web/lib/format';
import { useCurrentUser } from '../../../web/lib/app-data';
import { PORTAL_STATUSES } from '../request-portal.schema';
import { STATUS_COLOR, URGENCY_COLOR, age, type PortalRequestDto } from './portal-request';
import { LabelsModal, SettingsModal } from './portal-settings';
import { RequestDrawer } from './request-drawer';
import './labels';

export type { PortalRequestDto } from './portal-request';

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
    badgeColumn<PortalRequestDto>('urgency', t('col.urgency'), (r) => ({ color: URGENCY_COLOR[r.urgency], label: t(`urgency.${r.urgency}`) })),
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
      records={{ name: 'portal-requests', open: openById(open), title: t('title') }}
      columns={columns}
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
