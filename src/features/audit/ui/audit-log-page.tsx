import { useState } from 'react';
import { Alert, Button, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ListTextFilter, notifyError, notifySuccess, ServerListScreen, useBusyAction, useServerList, type Column } from '../../../web/components';
import { api, downloadFile, errorMessage } from '../../../web/lib/api';
import { formatDateTime } from '../../../web/lib/format';
import { AUDIT_ACTIONS, type AuditCheck, type AuditEntry } from '../audit.schema';
import './audit-i18n';

const FILTERS = { userId: 'text', entityType: 'text', entityId: 'text', from: 'text', to: 'text', action: 'text' } as const;

/** The changes of a row, "field: old -> new", one record a line. */
const changesOf = (e: AuditEntry) =>
  e.records.flatMap((r) => Object.entries(r.changes ?? {}).map(([field, c]) => `${field}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`)).join('; ');

/** /settings/audit-log (admins, decision 078): the organisation's audit log, its filters, CSV export, the chain check and retention. */
export default function AuditLogPage() {
  const { t } = useTranslation('audit');
  const list = useServerList<AuditEntry, typeof FILTERS>({
    queryKey: 'audit-log',
    path: '/audit-log/list-audit-log',
    listKey: 'entries',
    filters: FILTERS,
    errorMessage: t('failed'),
  });
  const [check, setCheck] = useState<AuditCheck | null>(null);
  const { busy: checking, run } = useBusyAction();
  const runCheck = () => run(async () => setCheck((await api.get<{ check: AuditCheck }>('/audit-log/check-audit-chain')).check), t('checkFailed'));
  const exportCsv = async () => {
    const query = Object.fromEntries(Object.entries(list.state.filters).filter(([, v]) => v !== ''));
    try {
      await downloadFile('/audit-log/export-audit-log', 'audit-log.csv', { query });
    } catch (err) {
      notifyError(errorMessage(err, t('exportFailed')));
    }
  };

  const who = (e: AuditEntry) =>
    e.user
      ? `${e.user.firstName} ${e.user.lastName}`.trim()
      : e.apiKeyId
        ? t('actor.apiKey', { id: e.apiKeyId })
        : e.actorKind === 'system'
          ? t('actor.system')
          : (e.actorLabel ?? t('actor.public'));
  const columns: Column<AuditEntry>[] = [
    { key: 'createdAt', header: t('col.when'), hideable: false, render: (e) => formatDateTime(e.createdAt) },
    { key: 'who', header: t('col.who'), render: who },
    { key: 'action', header: t('col.action'), render: (e) => t(`action.${e.action}`, { defaultValue: e.action }) },
    { key: 'record', header: t('col.record'), render: (e) => (e.entityType ? `${e.entityType} #${e.entityId}` : '') },
    { key: 'changes', header: t('col.changes'), render: changesOf },
    { key: 'route', header: t('col.route'), render: (e) => `${e.method} ${e.route}` },
    { key: 'ip', header: t('col.from'), render: (e) => e.ip ?? '', defaultHidden: true },
  ];

  return (
    <ServerListScreen
      list={list}
      tableId="audit-log"
      columns={columns}
      title={t('title')}
      actions={
        <Group gap="xs">
          <Button variant="default" onClick={() => void exportCsv()} data-testid="audit-export">
            {t('export')}
          </Button>
          <Button variant="light" loading={checking} onClick={() => void runCheck()} data-testid="audit-check">
            {t('check')}
          </Button>
        </Group>
      }
      filters={
        <>
          <ListTextFilter state={list.state} name="userId" placeholder={t('filter.userId')} w={160} />
          <ListTextFilter state={list.state} name="entityType" placeholder={t('filter.entityType')} w={160} />
          <ListTextFilter state={list.state} name="entityId" placeholder={t('filter.entityId')} w={130} />
          <ListTextFilter state={list.state} name="from" placeholder={t('filter.from')} w={170} />
          <ListTextFilter state={list.state} name="to" placeholder={t('filter.to')} w={170} />
          <Select
            w={180}
            clearable
            placeholder={t('filter.action')}
            aria-label={t('filter.action')}
            data={AUDIT_ACTIONS.map((value) => ({ value, label: t(`action.${value}`) }))}
            value={list.state.filters.action || null}
            onChange={(v) => list.state.setFilter('action', (v ?? '') as never)}
            data-testid="filter-action"
          />
        </>
      }
    >
      <Stack gap="xs" mt="sm">
        {check && (
          <Alert color={check.ok ? 'green' : 'red'} data-testid="audit-check-result">
            {check.ok || !check.broken
              ? t('checkOk', { count: check.checked })
              : t('checkBroken', { seq: check.broken.seq, reason: t(`reason.${check.broken.reason}`) })}
          </Alert>
        )}
        <Retention />
      </Stack>
    </ServerListScreen>
  );
}

/** The retention setting (months; empty keeps every row). */
function Retention() {
  const { t } = useTranslation('audit');
  const settings = useQuery({
    queryKey: ['audit-log', 'settings'],
    queryFn: () => api.get<{ settings: { retentionMonths: number | null } }>('/audit-log/get-audit-settings'),
  });
  const [months, setMonths] = useState<number | string | undefined>(undefined);
  const value = months ?? settings.data?.settings.retentionMonths ?? '';
  const save = async () => {
    try {
      await api.put('/audit-log/update-audit-settings', { retentionMonths: value === '' ? null : Number(value) });
      notifySuccess(t('retentionSaved'));
    } catch (err) {
      notifyError(errorMessage(err));
    }
  };
  return (
    <Group align="end" gap="xs">
      <NumberInput label={t('retention')} min={1} max={240} allowDecimal={false} value={value} onChange={setMonths} w={280} data-testid="audit-retention" />
      <Button variant="default" onClick={() => void save()}>
        {t('saveRetention')}
      </Button>
      <Text size="xs" c="dimmed" />
    </Group>
  );
}
