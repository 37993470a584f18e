import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { Button, Select, SimpleGrid, Stack, Textarea } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  AttachmentInput,
  AttachmentList,
  DayField,
  DocumentSummary,
  LineItemsTable,
  RecordDrawer,
  activityQueryKey,
  confirmDelete,
  liveTotals,
  notifyError,
  notifySuccess,
  isStaleEdit,
  useMoney,
  useStaleEdit,
  type LineItemValue,
  type TaxOption,
  optionOf,
} from '../../../web/components';
import { api, applyApiErrors, errorMessage, request as apiRequest } from '../../../web/lib/api';
import { openPdf } from '../../../web/lib/open-pdf';
import { ReceivePurchaseOrder } from './receive-dialog';
import { useAppData, useIsManager } from '../../../web/lib/app-data';
import { CustomerVendorSelect } from '../../customers-vendors/ui/customer-vendor-select';
import { ServiceSelect } from '../../service-catalog/ui/service-select';
import { PartSelect } from '../../parts/ui/part-select';
import type { DocumentLineDto, StoredAttachment } from '../document-lines.schema';
import { documentPaths, type DocumentDetail, type DocumentDtoBase } from '../commercial-documents.schema';
import { dayValue, type DocumentUiKind } from './document-strings';

/** The form: the kind's party, person and date fields (named by `DocumentUiKind`), then the shared ones. */
type FormValues = Record<string, any> & {
  expirationDate: string;
  note: string;
  attachments: StoredAttachment[];
  serviceDetails: LineItemValue[];
  partDetails: LineItemValue[];
};
type DocumentRecord = DocumentDetail<DocumentDtoBase<string> & { expirationDate: string | null } & Record<string, any>>;
type DocumentList = { pagination: unknown } & Record<string, unknown>;

const line = (l: DocumentLineDto, idKey: 'serviceId' | 'partId'): LineItemValue => ({
  [idKey]: idKey === 'serviceId' ? l.serviceId : l.partId,
  name: l.name,
  quantity: l.quantity,
  unitPrice: l.unitPrice,
  discount: l.discount,
  taxId: l.taxId,
  ...(idKey === 'partId' ? { uomId: l.uomId } : {}),
});

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

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
  const { party, person, dateField, testId } = kind;
  const { plural, singularKey, entityType } = kind.api;
  const paths = documentPaths(kind.api);
  const url = (path: string) => `/${plural}${path}`;
  const { t: common } = useTranslation();
  const queryClient = useQueryClient();
  const money = useMoney();
  const isManager = useIsManager();
  const appData = useAppData();
  const workers = appData.data?.workers ?? [];
  const [status, setStatus] = useState(record?.status ?? 'draft');
  // The copy this edit is made from (decision 025); a status change here moves it on.
  const [loadedAt, setLoadedAt] = useState(record?.updatedAt);
  // Reload fetches the document again: the form is rebuilt from it.
  const staleEdit = useStaleEdit(() => queryClient.refetchQueries({ queryKey: [plural, 'one', record?.id], exact: true }));
  const [files, setFiles] = useState<File[]>([]);
  const [uploading, setUploading] = useState(false);

  const form = useForm<FormValues>({
    resolver: zodResolver(kind.inputSchema as never) as never,
    defaultValues: record
      ? {
          [party.field]: record[party.field],
          [person.field]: record[person.field],
          [dateField]: dayValue(record[dateField]),
          expirationDate: dayValue(record.expirationDate),
          note: record.note ?? '',
          attachments: record.attachments,
          serviceDetails: record.serviceDetails.map((l) => line(l, 'serviceId')),
          partDetails: record.partDetails.map((l) => line(l, 'partId')),
        }
      : {
          [party.field]: null,
          [person.field]: appData.data?.loggedInUser.id ?? null,
          [dateField]: today(),
          expirationDate: inDays(30),
          note: '',
          attachments: [],
          serviceDetails: [],
          partDetails: [],
        },
  });
  // A new document's requester/salesperson is the signed-in user: when the app's data came after the drawer
  // opened (the form's defaults are read once), fill it then, unless the user picked someone meanwhile.
  const signedInId = appData.data?.loggedInUser.id;
  useEffect(() => {
    if (record || signedInId == null) return;
    if (form.getValues(person.field as never) == null) form.setValue(person.field as never, signedInId as never);
  }, [record, signedInId, person.field, form]);
  const { errors } = form.formState;
  const serviceDetails = useWatch({ control: form.control, name: 'serviceDetails' }) ?? [];
  const partDetails = useWatch({ control: form.control, name: 'partDetails' }) ?? [];
  const attachments = useWatch({ control: form.control, name: 'attachments' }) ?? [];
  const totals = liveTotals([serviceDetails, partDetails], taxes, money.engine);

  const refresh = (id: number) => {
    void queryClient.invalidateQueries({ queryKey: [plural] });
    void queryClient.invalidateQueries({ queryKey: activityQueryKey(entityType, id) });
  };

  const save = form.handleSubmit(async (values) => {
    const v = values as unknown as Record<string, unknown>;
    const body = {
      overview: {
        [party.field]: v[party.field],
        [person.field]: v[person.field],
        [dateField]: v[dateField],
        expirationDate: kind.expirationRequired ? v.expirationDate : v.expirationDate || undefined,
        note: v.note,
        attachments: v.attachments,
      },
      serviceDetails: v.serviceDetails,
      partDetails: v.partDetails,
      ...(record ? { updatedAt: loadedAt } : {}),
    };
    try {
      if (record) {
        const res = await api.put<DocumentList>(url(`${paths.update}${record.id}`), body, { query: query as never });
        onList(res);
        notifySuccess(t('updated'));
        refresh(record.id);
      } else {
        const res = await api.post<DocumentList>(url(paths.add), body, { query: query as never });
        const added = res[singularKey] as DocumentRecord;
        onList(res);
        notifySuccess(t('added'));
        refresh(added.id);
        onSelect(added.id);
      }
    } catch (err) {
      if (isStaleEdit(err)) return staleEdit.onStale();
      applyApiErrors(err, form.setError);
      notifyError(errorMessage(err, record ? t('failedUpdate') : t('failedAdd')));
    }
  });

  const changeStatus = async (next: string | null) => {
    if (!record || !next || next === status) return;
    try {
      const res = await api.put<Record<string, DocumentRecord | undefined>>(url(`${paths.status}${record.id}`), { status: next });
      setStatus(next as typeof status);
      setLoadedAt(res[singularKey]?.updatedAt ?? loadedAt);
      notifySuccess(t('statusUpdated'));
      void queryClient.invalidateQueries({ queryKey: [plural], exact: false, predicate: (q) => q.queryKey[1] !== 'one' });
      void queryClient.invalidateQueries({ queryKey: activityQueryKey(entityType, record.id) });
    } catch (err) {
      notifyError(errorMessage(err, t('failedStatus')));
    }
  };

  const remove = async () => {
    if (!record || !(await confirmDelete(t('deleteConfirm')))) return;
    try {
      onList(await api.del<DocumentList>(url(`${paths.remove}${record.id}`), { query: query as never }));
      notifySuccess(t('deleted'));
      onClose();
    } catch (err) {
      notifyError(errorMessage(err, t('failedDelete')));
    }
  };

  const print = async () => {
    if (!record) return;
    try {
      await openPdf(url(`${paths.pdf}${record.id}`));
    } catch {
      notifyError(t('printFailed'));
    }
  };

  const upload = async (chosen: File[]) => {
    setFiles(chosen);
    if (!chosen.length) return;
    setUploading(true);
    try {
      const data = new FormData();
      for (const file of chosen) data.append('attachments', file, file.name);
      const res = await apiRequest<{ attachments: StoredAttachment[] }>('POST', url(paths.upload), data, { timeoutMs: 60_000 });
      form.setValue('attachments', [...attachments, ...res.attachments], { shouldDirty: true });
      setFiles([]);
    } catch (err) {
      notifyError(errorMessage(err, t('uploadFailed')));
    } finally {
      setUploading(false);
    }
  };

  // after a Save was tried, a line's edit is checked at once: a picked tax clears "Tax is required" right away
  const setLines = (name: 'serviceDetails' | 'partDetails', lines: LineItemValue[]) =>
    form.setValue(name, lines, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  const lineErrors = (name: 'serviceDetails' | 'partDetails') => (errors[name] as unknown as LineErrors) ?? undefined;
  const fieldError = (name: string) => errors[name]?.message as string | undefined;

  const overview = (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={form.control}
          name={party.field}
          render={({ field }) => (
            <CustomerVendorSelect
              type={party.type}
              label={t(party.type)}
              withAsterisk
              value={field.value}
              onChange={(v) => field.onChange(v)}
              initialOption={optionOf(record?.CustomerVendor)}
              error={fieldError(party.field)}
              testId={`${testId}-${party.testId}`}
            />
          )}
        />
        <Controller
          control={form.control}
          name={person.field}
          render={({ field }) => (
            <Select
              label={t(person.label)}
              withAsterisk
              searchable
              data={workers.map((w) => ({ value: String(w.id), label: `${w.firstName} ${w.lastName}`.trim() || w.email }))}
              value={field.value ? String(field.value) : null}
              onChange={(v) => field.onChange(v ? Number(v) : null)}
              error={fieldError(person.field)}
              comboboxProps={{ withinPortal: true }}
              data-testid={`${testId}-${person.testId}`}
            />
          )}
        />
        {/* the day as every list writes it (DD/MM/YYYY), typed or picked, in both languages (no browser-locale date box) */}
        <DayField form={form} name={dateField} label={t(dateField)} testId={`${testId}-date`} />
        <DayField form={form} name="expirationDate" label={t('expirationDate')} required={kind.expirationRequired} testId={`${testId}-expiration`} />
      </SimpleGrid>
      <Textarea label={t('note')} autosize minRows={2} {...form.register('note')} error={errors.note?.message} data-testid={`${testId}-note`} />
      <LineItemsTable
        title={t('services')}
        idKey="serviceId"
        itemLabel={t('service')}
        itemPath="/services/get-services-options"
        priceKey="price"
        renderItemSelect={(p) => <ServiceSelect {...p} />}
        lines={serviceDetails}
        onChange={(lines) => setLines('serviceDetails', lines)}
        taxes={taxes}
        errors={lineErrors('serviceDetails')}
        formatMinor={money.formatMinor}
        engine={money.engine}
        testId={`${testId}-services`}
      />
      <LineItemsTable
        title={t('parts')}
        idKey="partId"
        itemLabel={t('part')}
        itemPath="/parts/get-parts-options"
        priceKey="salesPrice"
        renderItemSelect={(p) => <PartSelect {...p} onChange={(v, o) => p.onChange(v, o as never)} />}
        lines={partDetails}
        onChange={(lines) => setLines('partDetails', lines)}
        fromOption={(o) => ({ uomId: (o.unitOfMeasure as { id?: number } | undefined)?.id ?? null })}
        taxes={taxes}
        errors={lineErrors('partDetails')}
        formatMinor={money.formatMinor}
        engine={money.engine}
        testId={`${testId}-parts`}
      />
      <DocumentSummary title={t('summary')} totals={totals} formatMinor={money.formatMinor} testId={`${testId}-summary`} />
    </Stack>
  );

  const attachmentsTab = (
    <Stack gap="sm" data-testid={`${testId}-attachments`}>
      <AttachmentList
        files={attachments}
        emptyText={t('noAttachments')}
        removeLabel={t('delete')}
        onRemove={(url) =>
          form.setValue(
            'attachments',
            attachments.filter((x) => x.url !== url),
            { shouldDirty: true },
          )
        }
      />
      <AttachmentInput label={t('chooseFiles')} value={files} onChange={(f) => void upload(f)} disabled={uploading} testId={`${testId}-files`} />
    </Stack>
  );

  return (
    <RecordDrawer
      dirty={form.formState.isDirty}
      opened
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
      errors={errors}
      onSubmit={save}
      activity={{ entityType, entityId: record?.id }}
      testId={`${testId}-drawer`}
      tabs={[
        { value: 'overview', label: common('drawer.overview'), content: overview },
        { value: 'attachments', label: t('attachments'), content: attachmentsTab },
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

type LineErrors = (Partial<Record<string, { message?: string }>> | undefined)[];
