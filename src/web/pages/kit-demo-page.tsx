import { useState } from 'react';
import { Badge, Button, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ClientDataTable, RecordDrawer, RichTextField, confirmAction, formatMoney, notifySuccess, type Column } from '../components';
import { useAppData } from '../lib/app-data';
import type { UserDto } from '../../features/users/users.schema';

/** /dashboard/ui: the component demo page (spec section 2): the kit on the organisation's people. */
export default function KitDemoPage() {
  const { t } = useTranslation();
  const workers = useAppData().data?.workers ?? [];
  const [selected, setSelected] = useState<UserDto | null>(null);
  const [html, setHtml] = useState('<p>Rich <b>text</b></p>');
  const columns: Column<UserDto>[] = [
    { key: 'firstName', header: t('users.fields.firstName'), hideable: false },
    { key: 'lastName', header: t('users.fields.lastName') },
    { key: 'email', header: t('auth.fields.email') },
    { key: 'role', header: t('users.fields.role'), render: (u) => <Badge variant="light">{t(`roles.${u.role}`)}</Badge> },
  ];
  return (
    <Stack>
      <Title order={2} size="h3">
        {t('menu.items.ui')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Button onClick={() => notifySuccess('Demo added successfully')}>{t('kitDemo.toast')}</Button>
        <Button variant="default" onClick={() => void confirmAction({ message: t('confirm.deleteMessage') })}>
          {t('kitDemo.confirm')}
        </Button>
        <TextInput readOnly value={formatMoney(1234.5)} aria-label="money" />
      </SimpleGrid>
      <ClientDataTable
        tableId="kit-demo"
        columns={columns}
        rows={workers}
        rowKey={(u) => u.id}
        searchPlaceholder={t('kitDemo.search')}
        onRowClick={setSelected}
      />
      <RichTextField value={html} onChange={setHtml} label={t('kitDemo.richText')} />
      {selected && (
        <RecordDrawer
          opened
          onClose={() => setSelected(null)}
          title={`${selected.firstName} ${selected.lastName}`}
          activity={{ entityType: 'user', entityId: selected.id }}
          tabs={[{ value: 'overview', label: t('drawer.overview'), content: <TextInput label={t('auth.fields.email')} value={selected.email} readOnly /> }]}
        />
      )}
    </Stack>
  );
}
