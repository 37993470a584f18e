import { useState } from 'react';
import { Badge, Button, Drawer, Group, Select, Stack, Table, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { confirmDelete, ExportButton, PlainDrawerFooter, useNotifiedQuery, TableHead, usePlainFormActions } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { LocationSelect } from '../../locations/ui/location-select';
import { LOCATION_KINDS, type LocationDto, type LocationKind, type LocationList } from '../stock.schema';
import './stock-i18n';
import { CountSheetButton, DraftReordersButton, StockValuation } from './storerooms-stock';

/** /dashboard/storerooms: the organisation's stock locations (decision 071); a row opens its drawer. */
export default function StoreroomsPage() {
  const { t } = useTranslation('stock');
  const isManager = useIsManager();
  // A place of the location tree: the storerooms in it and under it (issue 42).
  const [place, setPlace] = useState<number | null>(null);
  const list = useNotifiedQuery(
    {
      queryKey: ['stock', 'locations', place],
      queryFn: ({ signal }) => api.get<LocationList>(`/stock/get-locations?pageSize=100${place ? `&locationId=${place}` : ''}`, { signal }),
    },
    t('fetchFailed'),
  );
  // undefined = closed, null = new
  const [selected, setSelected] = useState<LocationDto | null | undefined>(undefined);
  const rows = list.data?.locations ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('title')}</Title>
        {isManager && (
          <Group gap="xs">
            <DraftReordersButton />
            <ExportButton list="storerooms" query={place ? { locationId: String(place) } : {}} columns={[]} />
            <Button onClick={() => setSelected(null)} data-testid="add-storeroom">
              {t('add')}
            </Button>
          </Group>
        )}
      </Group>
      <div style={{ maxWidth: 320 }}>
        <LocationSelect value={place} onChange={(v) => setPlace(v)} label={t('locationFilter')} testId="filter-locationId" />
      </div>
      {list.data && !rows.length ? (
        <Text c="dimmed">{place ? t('noMatch') : t('empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={280}>
          <Table data-testid="storeroom-list">
            <TableHead labels={[t('name'), t('kind'), t('location')]} />
            <Table.Tbody>
              {rows.map((l) => (
                <Table.Tr key={l.id} data-testid={`storeroom-${l.id}`}>
                  <Table.Td>
                    <UnstyledButton onClick={() => setSelected(l)} fw={500}>
                      {l.name}
                    </UnstyledButton>{' '}
                    {l.isDefault && (
                      <Badge size="sm" variant="light">
                        {t('isDefault')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{t(`kinds.${l.kind}`)}</Table.Td>
                  <Table.Td data-testid={`storeroom-${l.id}-location`}>{l.location?.path ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {isManager && <StockValuation />}
      {selected !== undefined && <StoreroomDrawer key={selected?.id ?? 'new'} location={selected} canEdit={isManager} onClose={() => setSelected(undefined)} />}
    </Stack>
  );
}

function StoreroomDrawer({ location, canEdit, onClose }: { location: LocationDto | null; canEdit: boolean; onClose(): void }) {
  const { t } = useTranslation('stock');
  const [form, setForm] = useState<{ name: string; kind: LocationKind; locationId: number | null }>({
    name: location?.name ?? '',
    kind: location?.kind ?? 'storeroom',
    locationId: location?.locationId ?? null,
  });
  const { errors, setErrors, run } = usePlainFormActions('stock', onClose);
  const save = async () => {
    if (!form.name.trim()) {
      setErrors({ name: t('nameRequired') });
      return;
    }
    const send = () => (location === null ? api.post('/stock/add-location', form) : api.put(`/stock/update-location/${location.id}`, form));
    await run(send, location === null ? t('added') : t('updated'), t('saveFailed'));
  };
  const remove = async () => {
    if (!location || !(await confirmDelete(t('confirmDelete', { name: location.name })))) return;
    await run(() => api.del(`/stock/delete-location/${location.id}`), t('deleted'), t('deleteFailed'));
  };
  return (
    <Drawer opened onClose={onClose} position="right" title={location ? location.name : t('newTitle')} data-testid="storeroom-drawer">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack>
          <TextInput
            label={t('name')}
            withAsterisk
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
            error={errors.name}
            disabled={!canEdit}
            data-testid="field-name"
          />
          <Select
            label={t('kind')}
            value={form.kind}
            onChange={(v) => v && setForm({ ...form, kind: v as LocationKind })}
            data={LOCATION_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
            allowDeselect={false}
            error={errors.kind}
            disabled={!canEdit}
            data-testid="field-kind"
          />
          <LocationSelect
            value={form.locationId}
            onChange={(v) => setForm({ ...form, locationId: v })}
            label={t('location')}
            initialOption={location?.location ? { value: location.location.id, label: location.location.name } : null}
            error={errors.locationId}
            disabled={!canEdit}
            testId="field-locationId"
          />
          {location?.isDefault && <Text size="sm">{t('defaultNote')}</Text>}
          {location && <CountSheetButton locationId={location.id} />}
          {canEdit && (
            <PlainDrawerFooter
              onDelete={location && !location.isDefault ? remove : undefined}
              deleteLabel={t('delete')}
              deleteTestId="delete-storeroom"
              saveLabel={t('save')}
              saveTestId="save-storeroom"
            />
          )}
        </Stack>
      </form>
    </Drawer>
  );
}
