import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  RecordDrawer,
  formDrawerProps,
  RecordDrawerFooter,
  activityQueryKey,
  removeWithConfirmation,
  runWithToasts,
  textValues,
  uploadDocuments,
  useBusyAction,
  useDrawerRecord,
  useSaveHandler,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { customerVendorFields, type CustomerVendorDto, type CustomerVendorInput, type CustomerVendorList, type StoredFile } from '../customers-vendors.schema';
import { CustomerVendorDocuments, CustomerVendorOverview } from './customer-vendor-tabs';
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
  const type = useWatch({ control: form.control, name: 'type' });
  const documents = (useWatch({ control: form.control, name: 'customerDocuments' }) ?? []) as StoredFile[];
  const [files, setFiles] = useState<File[]>([]);
  const { busy: uploading, run } = useBusyAction();
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
    await run(async () => {
      const res = await uploadDocuments<{ documents: StoredFile[] }>('/customer-vendors/upload-documents', chosen);
      form.setValue('customerDocuments', [...documents, ...res.documents], { shouldDirty: true });
      setFiles([]);
    }, t('uploadFailed'));
  };

  return (
    <RecordDrawer
      {...formDrawerProps(form, save, 'customer-vendor', record?.id)}
      onClose={onClose}
      title={record ? record.name : t('newRecord')}
      testId="cv-drawer"
      tabs={[
        {
          value: 'overview',
          label: common('drawer.overview'),
          content: <CustomerVendorOverview form={form} record={record} picture={picture} uploadPicture={uploadPicture} />,
        },
        {
          value: 'documents',
          label: t('documents'),
          content: <CustomerVendorDocuments form={form} documents={documents} files={files} uploading={uploading} onFiles={(f) => void addDocuments(f)} />,
        },
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
