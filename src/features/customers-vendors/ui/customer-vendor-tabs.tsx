import type { ReactNode } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { Group, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AttachmentInput, AttachmentList, ImageUploadButton, InitialAvatar, optionOf } from '../../../web/components';
import { COUNTRIES } from '../../../shared/countries';
import type { CustomerVendorDto, CustomerVendorInput, StoredFile } from '../customers-vendors.schema';
import { CustomerVendorSelect } from './customer-vendor-select';

type Form = UseFormReturn<CustomerVendorInput>;

/** A text field of the form, named by its field. */
function textFieldOf(form: Form) {
  const { errors } = form.formState;
  return (name: keyof CustomerVendorInput, label: string, required = false) => (
    <TextInput label={label} withAsterisk={required} {...form.register(name)} error={errors[name]?.message as string | undefined} data-testid={`cv-${name}`} />
  );
}

/** The address and contact fields. */
function AddressAndContact({ form, text }: { form: Form; text: ReturnType<typeof textFieldOf> }) {
  const { t } = useTranslation('customerVendors');
  const { errors } = form.formState;
  return (
    <>
      <Text fw={600} size="sm" mt="xs">
        {t('address')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {text('street', t('street'))}
        {text('street2', t('street2'))}
        {text('city', t('city'))}
        {text('state', t('state'))}
        {text('zipCode', t('zipCode'))}
        <Controller
          control={form.control}
          name="country"
          render={({ field }) => (
            <Select
              label={t('country')}
              searchable
              clearable
              data={COUNTRIES.map((c) => c.name)}
              value={(field.value as string) || null}
              onChange={(v) => field.onChange(v ?? '')}
              error={errors.country?.message}
              comboboxProps={{ withinPortal: true }}
              data-testid="cv-country"
            />
          )}
        />
        {text('tinVat', t('tinVat'))}
      </SimpleGrid>
      <Text fw={600} size="sm" mt="xs">
        {t('contact')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {text('phone', t('phone'))}
        {text('mobile', t('mobile'))}
        {text('website', t('website'))}
      </SimpleGrid>
    </>
  );
}

/** The overview tab: picture, type, name and email, parent, category, address and contact. */
export function CustomerVendorOverview({
  form,
  record,
  picture,
  uploadPicture,
}: {
  form: Form;
  record: CustomerVendorDto | null;
  picture: string | null;
  uploadPicture(file: File | null): Promise<void>;
}) {
  const { t } = useTranslation('customerVendors');
  const { errors } = form.formState;
  const text = textFieldOf(form);
  return (
    <Stack gap="sm">
      {record && (
        <Group gap="md">
          <InitialAvatar src={picture} name={record.name} size={64} />
          <ImageUploadButton
            onFile={uploadPicture}
            label={t('uploadPicture')}
            variant="light"
            size="xs"
            leftSection={<IconUpload size={14} />}
            testId="cv-picture"
          />
        </Group>
      )}
      <Controller
        control={form.control}
        name="type"
        render={({ field }) => (
          <SegmentedControl
            value={String(field.value ?? 'customer')}
            onChange={field.onChange}
            data={[
              { value: 'customer', label: t('customer') },
              { value: 'vendor', label: t('vendor') },
            ]}
            data-testid="cv-type"
          />
        )}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {text('name', t('name'), true)}
        {text('email', t('email'), true)}
        <Controller
          control={form.control}
          name="parentId"
          render={({ field }) => (
            <CustomerVendorSelect
              label={t('parent')}
              value={(field.value as number | undefined) ?? null}
              onChange={(v) => field.onChange(v ?? undefined)}
              initialOption={optionOf(record?.Parent)}
              quickCreate={false}
              clearable
              error={errors.parentId?.message}
              testId="cv-parent"
            />
          )}
        />
        <Controller
          control={form.control}
          name="category"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('category')} <span style={{ color: 'var(--mantine-color-error)' }}>*</span>
              </Text>
              <SegmentedControl
                value={String(field.value ?? 'company')}
                onChange={field.onChange}
                data={[
                  { value: 'individual', label: t('individual') },
                  { value: 'company', label: t('company') },
                ]}
                data-testid="cv-category"
              />
            </Stack>
          )}
        />
      </SimpleGrid>
      <AddressAndContact form={form} text={text} />
    </Stack>
  );
}

/** The documents tab: the stored documents (removable) and the input that uploads more. */
export function CustomerVendorDocuments({
  form,
  documents,
  files,
  uploading,
  onFiles,
}: {
  form: Form;
  documents: StoredFile[];
  files: File[];
  uploading: boolean;
  onFiles(files: File[]): void;
}): ReactNode {
  const { t } = useTranslation('customerVendors');
  return (
    <Stack gap="sm" data-testid="cv-documents">
      <AttachmentList
        files={documents}
        emptyText={t('noDocuments')}
        removeLabel={t('delete')}
        onRemove={(url) =>
          form.setValue(
            'customerDocuments',
            documents.filter((x) => x.url !== url),
            { shouldDirty: true },
          )
        }
      />
      <AttachmentInput label={t('chooseFiles')} value={files} onChange={onFiles} disabled={uploading} testId="cv-files" />
    </Stack>
  );
}
