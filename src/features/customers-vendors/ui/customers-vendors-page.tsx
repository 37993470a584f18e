import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  badgeColumn,
  InitialAvatar,
  ListMultiFilter,
  ListTextFilter,
  ServerListScreen,
  drawerListProps,
  useServerList,
  type Column,
  openById,
  useOpenRecord,
} from '../../../web/components';
import { type CustomerVendorDto } from '../customers-vendors.schema';
import { QUERY_KEY } from './customers-vendors-i18n';
import { CustomerVendorDrawer } from './customer-vendor-drawer';

/** /dashboard/customer-vendors: the list (name and type filters) and the customer/vendor drawer. */
export default function CustomersVendorsPage() {
  const { t } = useTranslation('customerVendors');
  const list = useServerList<CustomerVendorDto, { name: 'text'; type: 'multi' }>({
    queryKey: QUERY_KEY,
    path: '/customer-vendors/get-customer-vendors',
    listKey: 'customerVendors',
    filters: { name: 'text', type: 'multi' },
    errorMessage: t('failedFetch'),
  });
  // undefined: closed; null: a new record; a number: that record
  const [selected, setSelected] = useOpenRecord();

  const columns: Column<CustomerVendorDto>[] = [
    {
      key: 'name',
      header: t('col.name'),
      hideable: false,
      render: (r) => (
        <Group gap="xs" wrap="nowrap">
          <InitialAvatar src={r.profilePicture} name={r.name} size={24} />
          <Text size="sm">{r.name}</Text>
        </Group>
      ),
    },
    { key: 'email', header: t('col.email') },
    { key: 'mobile', header: t('col.mobile'), render: (r) => r.mobile ?? r.phone ?? '' },
    badgeColumn<CustomerVendorDto>('type', t('col.type'), (r) => ({ color: r.type === 'vendor' ? 'grape' : 'blue', label: t(r.type) })),
  ];

  return (
    <ServerListScreen
      list={list}
      records={{ name: 'customer-vendors', importable: true, open: openById(setSelected), title: t('title'), addLabel: t('add') }}
      columns={columns}
      filters={
        <>
          <ListTextFilter state={list.state} name="name" placeholder={t('filter')} debounceMs={500} />
          <ListMultiFilter state={list.state} name="type" placeholder={t('typeFilter')} values={['customer', 'vendor']} label={(type) => t(type)} />
        </>
      }
    >
      {selected !== undefined && <CustomerVendorDrawer id={selected} onClose={() => setSelected(undefined)} {...drawerListProps(list)} />}
    </ServerListScreen>
  );
}
