import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  drawerListProps,
  ListMultiFilter,
  ListTextFilter,
  openById,
  ServerListScreen,
  useMoney,
  useOpenRecord,
  useServerList,
  type Column,
} from '../../../web/components';
import { documentPaths, type DocumentDtoBase } from '../commercial-documents.schema';
import { DocumentDrawer } from './document-drawer';
import { formatDay, type DocumentUiKind } from './document-strings';

type Row = DocumentDtoBase<string> & Record<string, any>;
type Person = { firstName: string; lastName: string } | null;

/**
 * A kind's list screen (/dashboard/<plural>): number, party, status, total, a date and the person; the text
 * (500 ms) and status filters; the document drawer. Each feature's `*-page.tsx` renders it with its kind.
 */
export function DocumentsList({ kind }: { kind: DocumentUiKind }) {
  const { t } = useTranslation(kind.ns);
  const money = useMoney();
  const { plural, listKey } = kind.api;
  const list = useServerList<Row, Record<string, 'text' | 'multi'>>({
    queryKey: plural,
    path: `/${plural}${documentPaths(kind.api).list}`,
    listKey,
    filters: { [kind.listFilter]: 'text', status: 'multi' },
    errorMessage: t('failedFetchAll'),
  });
  // undefined: closed; null: a new document; a number: that document
  const [selected, setSelected] = useOpenRecord();

  const person = kind.person.dto;
  const columns: Column<Row>[] = [
    { key: 'number', header: t('col.number'), hideable: false },
    { key: kind.party.type, header: t(`col.${kind.party.type}`), render: (r) => r.CustomerVendor?.name ?? '' },
    {
      key: 'status',
      header: t('col.status'),
      render: (r) => (
        <Badge variant="light" color={kind.statusColors[r.status]}>
          {t(`status.${r.status}`)}
        </Badge>
      ),
    },
    { key: 'total', header: t('col.total'), render: (r) => money.format(r.total) },
    { key: kind.listDate, header: t(`col.${kind.listDate}`), render: (r) => formatDay(r[kind.listDate]) },
    { key: person, header: t(`col.${person}`), render: (r) => ((r[person] as Person) ? `${r[person].firstName} ${r[person].lastName}`.trim() : '') },
  ];

  return (
    <ServerListScreen
      list={list}
      records={{ name: plural, open: openById(setSelected), title: t('title'), addLabel: t('add') }}
      columns={columns}
      filters={
        <>
          <ListTextFilter state={list.state} name={kind.listFilter} placeholder={t('filter')} debounceMs={500} />
          <ListMultiFilter state={list.state} name="status" placeholder={t('statusFilter')} values={kind.statuses} label={(s) => t(`status.${s}`)} />
        </>
      }
    >
      {selected !== undefined && (
        <DocumentDrawer kind={kind} id={selected} onClose={() => setSelected(undefined)} onSelect={setSelected} {...drawerListProps(list)} />
      )}
    </ServerListScreen>
  );
}
