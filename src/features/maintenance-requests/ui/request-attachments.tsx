import { useState } from 'react';
import { ActionIcon, Anchor, Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { IconFileText, IconPaperclip, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { confirmDelete, notifyError, notifySuccess } from '../../../web/components';
import { api, errorMessage, request as apiRequest } from '../../../web/lib/api';
import type { MaintenanceRequestDto } from '../maintenance-requests.schema';

const ACCEPT = 'application/pdf,image/jpeg,image/png,image/webp';

/** The Attachments tab: the request's documents, and an upload with its own Save Changes. */
export function RequestAttachments({ request, onChanged }: { request: MaintenanceRequestDto | undefined; onChanged(): void }) {
  const { t } = useTranslation('maintenanceRequests');
  const [files, setFiles] = useState<File[]>([]);
  const [saving, setSaving] = useState(false);
  if (!request) return <Text size="sm" c="dimmed">{t('saveFirst')}</Text>;
  const documents = [...request.documents, ...request.images];

  const save = async () => {
    if (!files.length) return;
    setSaving(true);
    try {
      const form = new FormData();
      for (const file of files) form.append('documents', file, file.name);
      await apiRequest(`POST`, `/maintenance-requests/add-attachments/${request.id}`, form, { timeoutMs: 60_000 });
      notifySuccess(t('attachmentsSaved'));
      setFiles([]);
      onChanged();
    } catch (err) {
      notifyError(errorMessage(err, t('failedAttachments')));
    } finally {
      setSaving(false);
    }
  };

  const remove = async (url: string) => {
    if (!(await confirmDelete(t('removeAttachmentConfirm')))) return;
    try {
      await api.del(`/maintenance-requests/delete-attachment/${request.id}`, { query: { url } });
      notifySuccess(t('attachmentRemoved'));
      onChanged();
    } catch (err) {
      notifyError(errorMessage(err, t('failedAttachments')));
    }
  };

  return (
    <Stack gap="sm" data-testid="mr-attachments">
      <Text fw={600} size="sm">
        {t('documents')}
      </Text>
      {documents.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('noDocuments')}
        </Text>
      )}
      {documents.map((d) => (
        <Group key={d.url} justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <IconFileText size={16} />
            <Anchor href={d.url} target="_blank" rel="noopener noreferrer" size="sm" truncate="end">
              {d.name}
            </Anchor>
          </Group>
          <ActionIcon variant="subtle" color="red" aria-label={t('removeAttachment')} onClick={() => remove(d.url)}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <FileInput
        multiple
        clearable
        accept={ACCEPT}
        label={t('chooseFiles')}
        leftSection={<IconPaperclip size={16} />}
        value={files}
        onChange={setFiles}
        data-testid="mr-files"
      />
      <Group justify="flex-end">
        <Button onClick={save} loading={saving} disabled={!files.length} data-testid="attachments-save">
          {t('save')}
        </Button>
      </Group>
    </Stack>
  );
}
