import { useState } from 'react';
import { Button, Drawer, Group, Stack, TextInput, Title, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ExportButton, PlainDrawerFooter, TreeView, useMoney, useNotifiedQuery, optionOf, usePlainFormActions } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import type { LocationDto, LocationNode, LocationSummary } from '../locations.schema';
import { ROLLUP_DOWN_DAYS } from '../../assets/asset-rollup.schema';
import { formatMinutes } from '../../../web/lib/format';

import { LocationSelect } from './location-select';
import './locations-i18n';

/** /dashboard/locations: the organisation's location tree (decision 072); a node opens its drawer. */
export default function LocationsPage() {
  const { t } = useTranslation('locations');
  const isManager = useIsManager();
  const tree = useNotifiedQuery(
    { queryKey: ['locations', 'tree'], queryFn: ({ signal }) => api.get<{ locations: LocationNode[] }>('/locations/get-location-tree', { signal }) },
    t('fetchFailed'),
  );
  // undefined = closed, null = new
  const [selected, setSelected] = useState<number | null | undefined>(undefined);
  const nodes = (tree.data?.locations ?? []).map((l) => ({ id: l.id, label: l.name, parentId: l.parentId, note: l.code ?? undefined }));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('title')}</Title>
        <Group gap="xs">
          {/* the tree as a file that re-imports as it is (parents first): Import & export, kind Locations */}
          <ExportButton list="locations" query={{}} columns={[]} />
          {isManager && (
            <Button onClick={() => setSelected(null)} data-testid="add-location">
              {t('add')}
            </Button>
          )}
        </Group>
      </Group>
      {tree.data && !nodes.length ? (
        <Text c="dimmed">{t('empty')}</Text>
      ) : (
        <TreeView nodes={nodes} onOpen={setSelected} testId="location-tree" label={t('tree')} />
      )}
      {selected !== undefined && <LocationDrawer key={selected ?? 'new'} id={selected} canEdit={isManager} onClose={() => setSelected(undefined)} />}
    </Stack>
  );
}

function LocationDrawer({ id, canEdit, onClose }: { id: number | null; canEdit: boolean; onClose(): void }) {
  const { t } = useTranslation('locations');
  const one = useNotifiedQuery(
    {
      queryKey: ['locations', 'one', id],
      queryFn: ({ signal }) => api.get<{ location: LocationDto; summary: LocationSummary }>(`/locations/get-location/${id}`, { signal }),
      enabled: id !== null,
    },
    t('fetchFailed'),
  );
  const loaded = one.data?.location;
  const [values, setValues] = useState<{ name: string; code: string; parentId: number | null } | null>(null);
  const form = values ?? { name: loaded?.name ?? '', code: loaded?.code ?? '', parentId: loaded?.parentId ?? null };
  const { errors, run } = usePlainFormActions('locations', onClose);
  const set = (patch: Partial<typeof form>) => setValues({ ...form, ...patch });
  const save = () => {
    const body = { name: form.name, code: form.code, parentId: form.parentId };
    const send = () => (id === null ? api.post('/locations/add-location', body) : api.put(`/locations/update-location/${id}`, body));
    return run(send, id === null ? t('added') : t('updated'), t('saveFailed'));
  };
  const remove = () => run(() => api.del(`/locations/delete-location/${id}`), t('deleted'), t('deleteFailed'));
  return (
    <Drawer opened onClose={onClose} position="right" title={loaded ? loaded.path : t('newTitle')} data-testid="location-drawer">
      {id !== null && !loaded ? null : (
        <Stack>
          {(['name', 'code'] as const).map((name) => (
            <TextInput
              key={name}
              label={t(name)}
              withAsterisk={name === 'name'}
              value={form[name]}
              onChange={(e) => set({ [name]: e.currentTarget.value })}
              error={errors[name]}
              disabled={!canEdit}
              data-testid={`field-${name}`}
            />
          ))}
          <LocationSelect
            label={t('parent')}
            value={form.parentId}
            onChange={(v) => set({ parentId: v })}
            initialOption={optionOf(loaded?.Parent)}
            error={errors.parentId}
            disabled={!canEdit}
            testId="field-parentId"
          />
          {one.data && <LocationRollUp summary={one.data.summary} />}
          {canEdit && (
            <PlainDrawerFooter
              onDelete={id !== null ? remove : undefined}
              deleteLabel={t('delete')}
              deleteTestId="delete-location"
              onSave={save}
              saveLabel={t('save')}
              saveTestId="save-location"
            />
          )}
        </Stack>
      )}
    </Drawer>
  );
}

/** What is in the location and the roll-up of its assets and everything under it (decision 072); cost for managers. */
function LocationRollUp({ summary: s }: { summary: LocationSummary }) {
  const { t } = useTranslation('locations');
  const money = useMoney();
  return (
    <Stack gap={2} data-testid="location-rollup">
      <Text size="sm">{t('contents', { assets: s.assets, workStations: s.workStations })}</Text>
      <Text size="sm" fw={500}>
        {t('rollup')}
      </Text>
      <Text size="sm">{t('rollupWork', { total: s.workOrders.total, open: s.openWorkOrders.total })}</Text>
      {s.costMinor && <Text size="sm">{t('rollupCost', { total: money.formatMinor(s.costMinor.total) })}</Text>}
      <Text size="sm">{t('rollupDown', { days: ROLLUP_DOWN_DAYS, total: formatMinutes(s.downMinutes.total) })}</Text>
    </Stack>
  );
}
