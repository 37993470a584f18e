import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AttachmentInput, AttachmentList, notifySuccess, removeWithConfirmation, uploadDocuments, useBusyAction } from '../../../web/components';
import { api } from '../../../web/lib/api';
import type { MaintenanceRequestDto } from '../maintenance-requests.schema';

/** The Attachments tab: the request's documents, and an upload with its own Save Changes. */
export function RequestAttachments({ request, onChanged }: { request: MaintenanceRequestDto | undefined; onChanged(): void }) {
  const { t } = useTranslation('maintenanceRequests');
  const [files, setFiles] = useState<File[]>([]);
  const { busy: saving, run } = useBusyAction();
  if (!request)
    return (
      <Text size="sm" c="dimmed">
        {t('saveFirst')}
      </Text>
    );
  const documents = [...request.documents, ...request.images];

  const save = async () => {
    if (!files.length) return;
    await run(async () => {
      await uploadDocuments(`/maintenance-requests/add-attachments/${request.id}`, files);
      notifySuccess(t('attachmentsSaved'));
      setFiles([]);
      onChanged();
    }, t('failedAttachments'));
  };

  const remove = (url: string) =>
    removeWithConfirmation({
      confirm: t('removeAttachmentConfirm'),
      remove: () => api.del(`/maintenance-requests/delete-attachment/${request.id}`, { query: { url } }),
      success: t('attachmentRemoved'),
      failure: t('failedAttachments'),
      onRemoved: onChanged,
    });

  return (
    <Stack gap="sm" data-testid="mr-attachments">
      <Text fw={600} size="sm">
        {t('documents')}
      </Text>
      <AttachmentList files={documents} emptyText={t('noDocuments')} removeLabel={t('removeAttachment')} onRemove={(url) => void remove(url)} />
      <AttachmentInput label={t('chooseFiles')} value={files} onChange={setFiles} testId="mr-files" />
      <Group justify="flex-end">
        <Button onClick={save} loading={saving} disabled={!files.length} data-testid="attachments-save">
          {t('save')}
        </Button>
      </Group>
    </Stack>
  );
}
