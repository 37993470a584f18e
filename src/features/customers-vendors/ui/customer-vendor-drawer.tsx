import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { Group, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  AttachmentInput,
  AttachmentList,
  ImageUploadButton,
  InitialAvatar,
  RecordDrawer,
  RecordDrawerFooter,
  activityQueryKey,
  notifyError,
  removeWithConfirmation,
  runWithToasts,
  textValues,
  uploadDocuments,
  useDrawerRecord,
  useSaveHandler,
  optionOf,
} from '../../../web/components';
import { api, errorMessage } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { COUNTRIES } from '../../../shared/countries';
import { customerVendorFields, type CustomerVendorDto, type CustomerVendorInput, type CustomerVendorList, type StoredFile } from '../customers-vendors.schema';
import { CustomerVendorSelect } from './customer-vendor-select';
import { QUERY_KEY } from './customers-vendors-i18n';

const EMPTY: CustomerVendorInput = {
  name: '',
  email: '',
  type: 'customer',
  category: 'company',
  parentId: undefined,
  street: '',
  street2: '',
  city: '',
  state: '',
  zipCode: '',
  country: '',
  tinVat: '',
  phone: '',
  mobile: '',
  website: '',
  customerDocuments: [],
};

function toForm(r: CustomerVendorDto): CustomerVendorInput {
  return {
    name: r.name,
    email: r.email,
    type: r.type,
    category: r.category,
    parentId: r.parentId ?? undefined,
    ...textValues(r, ['street', 'street2', 'city', 'state', 'zipCode', 'country', 'tinVat', 'phone', 'mobile', 'website']),
    customerDocuments: r.customerDocuments,
  };
}

export function CustomerVendorDrawer({
  id,
  onClose,
  query,
  onList,
}: {
  id: number | null;
  onClose(): void;
  query: Record<string, unknown>;
  onList(data: CustomerVendorList): void;
}) {
  const { record } = useDrawerRecord<CustomerVendorDto>({
    queryKey: QUERY_KEY,
    id,
    path: (n) => `/customer-vendors/get-customer-vendor/${n}`,
    itemKey: 'customerVendor',
  });
  if (id !== null && !record) {
    return <RecordDrawer opened onClose={onClose} title="" loading tabs={[{ value: 'overview', label: '', content: null }]} />;
  }
  return <CustomerVendorForm key={id ?? 'new'} record={record ?? null} onClose={onClose} query={query} onList={onList} />;
}

function CustomerVendorForm({
  record,
  onClose,
  query,
  onList,
}: {
  record: CustomerVendorDto | null;
  onClose(): void;
  query: Record<string, unknown>;
  onList(data: CustomerVendorList): void;
}) {
  const { t } = useTranslation('customerVendors');
  const { t: common } = useTranslation();
  const queryClient = useQueryClient();
  const isManager = useIsManager();
  const form = useForm<CustomerVendorInput>({
    resolver: zodResolver(customerVendorFields) as never,
    defaultValues: record ? toForm(record) : EMPTY,
  });
  const { errors } = form.formState;
  const type = useWatch({ control: form.control, name: 'type' });
  const documents = (useWatch({ control: form.control, name: 'customerDocuments' }) ?? []) as StoredFile[];
  const [files, setFiles] = useState<File[]>([]);
  const [uploading, setUploading] = useState(false);
  const [picture, setPicture] = useState<string | null>(record?.profilePicture ?? null);
  const entity = t(type === 'vendor' ? 'vendor' : 'customer');

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: [QUERY_KEY] });
    void queryClient.invalidateQueries({ queryKey: ['options', '/customer-vendors/get-customer-vendor-options'] });
    if (record) void queryClient.invalidateQueries({ queryKey: activityQueryKey('customer-vendor', record.id) });
  };

  const save = useSaveHandler({
    form,
    id: record?.id,
    // spec: the server's message is shown when an add fails
    alwaysToast: true,
    messages: { added: t('added', { entity }), updated: t('updated', { entity }), addFailed: t('failedAdd'), updateFailed: t('failedUpdate') },
    update: async (id, values) => {
      await api.put(`/customer-vendors/update-customer-vendor/${id}`, values);
      refresh();
    },
    add: async (values) => {
      onList(
        await api.post<CustomerVendorList & { customerVendor: CustomerVendorDto }>('/customer-vendors/add-customer-vendor', values, { query: query as never }),
      );
      refresh();
      onClose();
    },
  });

  const remove = (r: CustomerVendorDto) =>
    removeWithConfirmation({
      confirm: t('deleteConfirm'),
      remove: () => api.del<CustomerVendorList>(`/customer-vendors/delete-customer-vendor/${r.id}`, { query: query as never }),
      success: t('deleted', { entity: t(r.type) }),
      failure: t('failedDelete'),
      onRemoved: (list) => {
        onList(list);
        refresh();
        onClose();
      },
    });

  const uploadPicture = async (file: File | null) => {
    if (!file || !record) return;
    await runWithToasts(
      () =>
        api.upload<{ customerVendor: CustomerVendorDto }>(`/customer-vendors/add-profile-picture/${record.id}`, file, { field: 'image', timeoutMs: 60_000 }),
      t('pictureSaved'),
      t('pictureFailed'),
      (res) => {
        setPicture(res.customerVendor.profilePicture);
        refresh();
      },
    );
  };

  const addDocuments = async (chosen: File[]) => {
    setFiles(chosen);
    if (!chosen.length) return;
    setUploading(true);
    try {
      const res = await uploadDocuments<{ documents: StoredFile[] }>('/customer-vendors/upload-documents', chosen);
      form.setValue('customerDocuments', [...documents, ...res.documents], { shouldDirty: true });
      setFiles([]);
    } catch (err) {
      notifyError(errorMessage(err, t('uploadFailed')));
    } finally {
      setUploading(false);
    }
  };

  const text = (name: keyof CustomerVendorInput, label: string, required = false) => (
    <TextInput label={label} withAsterisk={required} {...form.register(name)} error={errors[name]?.message as string | undefined} data-testid={`cv-${name}`} />
  );

  const overview = (
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
    </Stack>
  );

  const documentsTab = (
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
      <AttachmentInput label={t('chooseFiles')} value={files} onChange={(f) => void addDocuments(f)} disabled={uploading} testId="cv-files" />
    </Stack>
  );

  return (
    <RecordDrawer
      dirty={form.formState.isDirty}
      opened
      onClose={onClose}
      title={record ? record.name : t('newRecord')}
      errors={errors}
      onSubmit={save}
      activity={{ entityType: 'customer-vendor', entityId: record?.id }}
      testId="cv-drawer"
      tabs={[
        { value: 'overview', label: common('drawer.overview'), content: overview },
        { value: 'documents', label: t('documents'), content: documentsTab },
      ]}
      footer={
        <RecordDrawerFooter
          onDelete={record && isManager && (() => void remove(record))}
          deleteLabel={t('delete')}
          saving={form.formState.isSubmitting}
          saveLabel={t('save')}
          deleteTestId="cv-delete"
          saveTestId="cv-save"
        />
      }
    />
  );
}
