import { useWatch } from 'react-hook-form';
import { Button, Select } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formDrawerProps, RecordDrawer, type TaxOption } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { ReceivePurchaseOrder } from './receive-dialog';
import { useIsManager } from '../../../web/lib/app-data';
import { documentPaths } from '../commercial-documents.schema';
import type { DocumentUiKind } from './document-strings';
import { DocumentAttachments, DocumentOverview } from './document-form-tabs';
import { useDocumentForm, useDocumentUpload, type DocumentList, type DocumentRecord } from './use-document-form';

/** A document's drawer (quotation, purchase order): overview, service and part lines with live totals, summary, attachments. */
export function DocumentDrawer({
  kind,
  id,
  onClose,
  onSelect,
  query,
  onList,
}: {
  kind: DocumentUiKind;
  id: number | null;
  onClose(): void;
  onSelect(id: number): void;
  query: Record<string, unknown>;
  onList(data: DocumentList): void;
}) {
  const { t } = useTranslation(kind.ns);
  const { plural, singularKey } = kind.api;
  const paths = documentPaths(kind.api);
  const record = useQuery({
    queryKey: [plural, 'one', id],
    queryFn: ({ signal }) => api.get<Record<string, DocumentRecord>>(`/${plural}${paths.get}${id}`, { signal }).then((r) => r[singularKey]),
    enabled: id !== null,
    meta: { errorMessage: t('failedFetch') },
  });
  const taxes = useQuery({
    queryKey: [plural, 'tax-options'],
    queryFn: ({ signal }) => api.get<TaxOption[]>(`/${plural}${paths.taxOptions}`, { signal }),
    staleTime: 60_000,
  });
  if ((id !== null && !record.data) || !taxes.data) {
    return <RecordDrawer opened onClose={onClose} title="" loading tabs={[{ value: 'overview', label: '', content: null }]} />;
  }
  return (
    <DocumentForm
      kind={kind}
      key={`${id ?? 'new'}-${record.dataUpdatedAt}`}
      record={record.data ?? null}
      taxes={taxes.data}
      onClose={onClose}
      onSelect={onSelect}
      query={query}
      onList={onList}
    />
  );
}

function DocumentForm({
  kind,
  record,
  taxes,
  onClose,
  onSelect,
  query,
  onList,
}: {
  kind: DocumentUiKind;
  record: DocumentRecord | null;
  taxes: TaxOption[];
  onClose(): void;
  onSelect(id: number): void;
  query: Record<string, unknown>;
  onList(data: DocumentList): void;
}) {
  const { t } = useTranslation(kind.ns);
  const { testId } = kind;
  const { entityType } = kind.api;
  const { t: common } = useTranslation();
  const isManager = useIsManager();
  const { form, status, staleEdit, save, changeStatus, remove, print } = useDocumentForm({ kind, record, onClose, onSelect, query, onList });
  const attachments = useWatch({ control: form.control, name: 'attachments' }) ?? [];
  const upload = useDocumentUpload(kind, form, attachments);

  return (
    <RecordDrawer
      {...formDrawerProps(form, save, entityType, record?.id)}
      alert={staleEdit.alert}
      onClose={onClose}
      title={record ? record.number : t(kind.newLabel)}
      headerRight={
        record ? (
          <Select
            aria-label={t('statusFilter')}
            w={200}
            data={kind.statuses.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            value={status}
            onChange={(v) => void changeStatus(v)}
            // Only managers change a document's status (decision 012).
            disabled={!isManager}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid={`${testId}-status`}
          />
        ) : undefined
      }
      testId={`${testId}-drawer`}
      tabs={[
        { value: 'overview', label: common('drawer.overview'), content: <DocumentOverview kind={kind} form={form} record={record} taxes={taxes} /> },
        { value: 'attachments', label: t('attachments'), content: <DocumentAttachments kind={kind} form={form} attachments={attachments} upload={upload} /> },
      ]}
      footer={
        <>
          {record && testId === 'po' && <ReceivePurchaseOrder purchaseOrderId={record.id} number={record.number} />}
          {record && (
            <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={print} data-testid={`${testId}-print`}>
              {t('print')}
            </Button>
          )}
          {record && isManager && (
            <Button color="red" variant="light" onClick={remove} data-testid={`${testId}-delete`}>
              {t('delete')}
            </Button>
          )}
          <Button type="submit" loading={form.formState.isSubmitting} data-testid={`${testId}-save`}>
            {t('save')}
          </Button>
        </>
      }
    />
  );
}
