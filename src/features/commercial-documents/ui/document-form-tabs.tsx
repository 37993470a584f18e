import { Controller, useWatch } from 'react-hook-form';
import { Select, SimpleGrid, Stack, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  AttachmentInput,
  AttachmentList,
  DayField,
  DocumentSummary,
  LineItemsTable,
  liveTotals,
  useMoney,
  type LineItemValue,
  type TaxOption,
  optionOf,
} from '../../../web/components';
import { useAppData } from '../../../web/lib/app-data';
import { CustomerVendorSelect } from '../../customers-vendors/ui/customer-vendor-select';
import { ServiceSelect } from '../../service-catalog/ui/service-select';
import { PartSelect } from '../../parts/ui/part-select';
import type { StoredAttachment } from '../document-lines.schema';
import type { DocumentUiKind } from './document-strings';
import type { DocumentFormApi, DocumentRecord } from './use-document-form';

type LineErrors = (Partial<Record<string, { message?: string }>> | undefined)[];

/** The party (customer or vendor) and the person (requester or salesperson) of the document. */
function DocumentPeople({ kind, form, record }: { kind: DocumentUiKind; form: DocumentFormApi; record: DocumentRecord | null }) {
  const { t } = useTranslation(kind.ns);
  const { party, person, testId } = kind;
  const workers = useAppData().data?.workers ?? [];
  const { errors } = form.formState;
  const fieldError = (name: string) => errors[name]?.message as string | undefined;
  return (
    <>
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
    </>
  );
}

/** The overview tab: party, person, days, note, the service and part lines with live totals, the summary. */
export function DocumentOverview({
  kind,
  form,
  record,
  taxes,
}: {
  kind: DocumentUiKind;
  form: DocumentFormApi;
  record: DocumentRecord | null;
  taxes: TaxOption[];
}) {
  const { t } = useTranslation(kind.ns);
  const { dateField, testId } = kind;
  const money = useMoney();
  const { errors } = form.formState;
  const serviceDetails = useWatch({ control: form.control, name: 'serviceDetails' }) ?? [];
  const partDetails = useWatch({ control: form.control, name: 'partDetails' }) ?? [];
  const totals = liveTotals([serviceDetails, partDetails], taxes, money.engine);
  // after a Save was tried, a line's edit is checked at once: a picked tax clears "Tax is required" right away
  const setLines = (name: 'serviceDetails' | 'partDetails', lines: LineItemValue[]) =>
    form.setValue(name, lines, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  const lineErrors = (name: 'serviceDetails' | 'partDetails') => (errors[name] as unknown as LineErrors) ?? undefined;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <DocumentPeople kind={kind} form={form} record={record} />
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
}

/** The attachments tab: the stored files (removable) and the input that uploads more. */
export function DocumentAttachments({
  kind,
  form,
  attachments,
  upload,
}: {
  kind: DocumentUiKind;
  form: DocumentFormApi;
  attachments: StoredAttachment[];
  upload: { files: File[]; uploading: boolean; upload(files: File[]): Promise<void> };
}) {
  const { t } = useTranslation(kind.ns);
  const { testId } = kind;
  return (
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
      <AttachmentInput
        label={t('chooseFiles')}
        value={upload.files}
        onChange={(f) => void upload.upload(f)}
        disabled={upload.uploading}
        testId={`${testId}-files`}
      />
    </Stack>
  );
}
