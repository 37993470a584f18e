import { useEffect, useState } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { zodResolver } from '../../../web/lib/form-resolver';
import { activityQueryKey, confirmDelete, isStaleEdit, notifyError, notifySuccess, useStaleEdit, type LineItemValue } from '../../../web/components';
import { api, applyApiErrors, errorMessage, request as apiRequest } from '../../../web/lib/api';
import { openPdf } from '../../../web/lib/open-pdf';
import { useAppData } from '../../../web/lib/app-data';
import type { DocumentLineDto, StoredAttachment } from '../document-lines.schema';
import { documentPaths, type DocumentDetail, type DocumentDtoBase } from '../commercial-documents.schema';
import { dayValue, type DocumentUiKind } from './document-strings';

/** The form: the kind's party, person and date fields (named by `DocumentUiKind`), then the shared ones. */
export type FormValues = Record<string, any> & {
  expirationDate: string;
  note: string;
  attachments: StoredAttachment[];
  serviceDetails: LineItemValue[];
  partDetails: LineItemValue[];
};
export type DocumentRecord = DocumentDetail<DocumentDtoBase<string> & { expirationDate: string | null } & Record<string, any>>;
export type DocumentList = { pagination: unknown } & Record<string, unknown>;
export type DocumentFormApi = UseFormReturn<FormValues>;

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

/** The form's values: the document's, or a new one's (today, expiring in 30 days, requested by the signed-in user). */
const defaultValues = (kind: DocumentUiKind, record: DocumentRecord | null, signedInId: number | null): FormValues => {
  const { party, person, dateField } = kind;
  return record
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
        [person.field]: signedInId,
        [dateField]: today(),
        expirationDate: inDays(30),
        note: '',
        attachments: [],
        serviceDetails: [],
        partDetails: [],
      };
};

type Props = {
  kind: DocumentUiKind;
  record: DocumentRecord | null;
  onClose(): void;
  onSelect(id: number): void;
  query: Record<string, unknown>;
  onList(data: DocumentList): void;
};

/** A document's form and its calls: save (with the stale-edit check, decision 025), status, delete, print. */
export function useDocumentForm({ kind, record, onClose, onSelect, query, onList }: Props) {
  const { t } = useTranslation(kind.ns);
  const { party, person, dateField } = kind;
  const { plural, singularKey, entityType } = kind.api;
  const paths = documentPaths(kind.api);
  const url = (path: string) => `/${plural}${path}`;
  const queryClient = useQueryClient();
  const appData = useAppData();
  const [status, setStatus] = useState(record?.status ?? 'draft');
  // The copy this edit is made from (decision 025); a status change here moves it on.
  const [loadedAt, setLoadedAt] = useState(record?.updatedAt);
  // Reload fetches the document again: the form is rebuilt from it.
  const staleEdit = useStaleEdit(() => queryClient.refetchQueries({ queryKey: [plural, 'one', record?.id], exact: true }));

  const form = useForm<FormValues>({
    resolver: zodResolver(kind.inputSchema as never) as never,
    defaultValues: defaultValues(kind, record, appData.data?.loggedInUser.id ?? null),
  });
  // A new document's requester/salesperson is the signed-in user: when the app's data came after the drawer
  // opened (the form's defaults are read once), fill it then, unless the user picked someone meanwhile.
  const signedInId = appData.data?.loggedInUser.id;
  useEffect(() => {
    if (record || signedInId == null) return;
    if (form.getValues(person.field as never) == null) form.setValue(person.field as never, signedInId as never);
  }, [record, signedInId, person.field, form]);

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

  return { form, status, staleEdit, save, changeStatus, remove, print };
}

/** The attachments chosen and uploaded at once; the stored files join the form's attachments. */
export function useDocumentUpload(kind: DocumentUiKind, form: DocumentFormApi, attachments: StoredAttachment[]) {
  const { t } = useTranslation(kind.ns);
  const paths = documentPaths(kind.api);
  const [files, setFiles] = useState<File[]>([]);
  const [uploading, setUploading] = useState(false);
  const upload = async (chosen: File[]) => {
    setFiles(chosen);
    if (!chosen.length) return;
    setUploading(true);
    try {
      const data = new FormData();
      for (const file of chosen) data.append('attachments', file, file.name);
      const res = await apiRequest<{ attachments: StoredAttachment[] }>('POST', `/${kind.api.plural}${paths.upload}`, data, { timeoutMs: 60_000 });
      form.setValue('attachments', [...attachments, ...res.attachments], { shouldDirty: true });
      setFiles([]);
    } catch (err) {
      notifyError(errorMessage(err, t('uploadFailed')));
    } finally {
      setUploading(false);
    }
  };
  return { files, uploading, upload };
}
