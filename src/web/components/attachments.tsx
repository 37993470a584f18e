import { ActionIcon, Anchor, Avatar, Button, FileButton, FileInput, Group, Text, type ButtonProps } from '@mantine/core';
import { IconFileText, IconPaperclip, IconTrash } from '@tabler/icons-react';
import { api, request } from '../lib/api';
import { checkImage, type AVATAR_RULE, type IMAGE_RULE } from '../lib/image-rules';
import { notifySuccess } from './notify';
import { useBusyAction } from './use-busy-action';
import { translateMessage } from '../i18n/messages/translate-message';

/** The documents an upload accepts: PDF and the web image types. */
export const DOCUMENT_ACCEPT = 'application/pdf,image/jpeg,image/png,image/webp';
/** The pictures an image upload accepts. */
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp';

/** Sends files as multipart `documents` parts (60 s timeout) and gives back the server's answer. */
export function uploadDocuments<T>(path: string, files: File[]): Promise<T> {
  const data = new FormData();
  for (const file of files) data.append('documents', file, file.name);
  return request<T>('POST', path, data, { timeoutMs: 60_000 });
}

/** Stored files as links (new tab) with a remove button each; `emptyText` when there are none. */
export function AttachmentList({
  files,
  emptyText,
  removeLabel,
  onRemove,
}: {
  files: { url: string; name: string }[];
  emptyText: string;
  removeLabel: string;
  onRemove(url: string): void;
}) {
  return (
    <>
      {files.length === 0 && (
        <Text size="sm" c="dimmed">
          {emptyText}
        </Text>
      )}
      {files.map((d) => (
        <Group key={d.url} justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <IconFileText size={16} />
            <Anchor href={d.url} target="_blank" rel="noopener noreferrer" size="sm" truncate="end">
              {d.name}
            </Anchor>
          </Group>
          <ActionIcon variant="subtle" color="red" aria-label={removeLabel} onClick={() => onRemove(d.url)}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
    </>
  );
}

/** A multi-file picker for documents (PDF, JPEG, PNG, WebP) with a paper-clip icon. */
export function AttachmentInput(props: { label: string; value: File[]; onChange(files: File[]): void; disabled?: boolean; testId?: string }) {
  return (
    <FileInput
      multiple
      clearable
      accept={DOCUMENT_ACCEPT}
      label={props.label}
      leftSection={<IconPaperclip size={16} />}
      value={props.value}
      onChange={props.onChange}
      disabled={props.disabled}
      data-testid={props.testId}
    />
  );
}

/** A button that picks one picture (JPEG, PNG, WebP) and hands it to `onFile`. */
export function ImageUploadButton({ onFile, label, testId, ...button }: { onFile(file: File | null): void; label: string; testId?: string } & ButtonProps) {
  return (
    <FileButton onChange={onFile} accept={IMAGE_ACCEPT}>
      {(props) => (
        <Button {...button} {...props} data-testid={testId}>
          {label}
        </Button>
      )}
    </FileButton>
  );
}

/**
 * A picture picked for `path` (multipart field `image`): checked against `rule` first (its message shown, nothing
 * sent), then uploaded through `useBusyAction`; success toasts `messages.success` and runs `after`. A refusal stays
 * in `error` and is toasted (the server's message for a 4xx, else `messages.failure`), in the reader's language.
 */
export function useImageUpload(
  path: string,
  rule: typeof AVATAR_RULE | typeof IMAGE_RULE,
  messages: { success: string; failure: string },
  after: () => Promise<unknown>,
) {
  const { busy, run, error, setError } = useBusyAction();
  const upload = async (file: File | null) => {
    if (!file) return;
    const problem = checkImage(file, rule);
    if (problem) return setError(translateMessage(problem));
    await run(async () => {
      await api.upload(path, file, { field: 'image' });
      notifySuccess(messages.success);
      await after();
    }, messages.failure);
  };
  return { error, busy, upload };
}

/** A round picture with the name's first letter when there is none. */
export function InitialAvatar({ src, name, size, radius = 'xl' }: { src?: string | null; name: string; size: number; radius?: string }) {
  return (
    <Avatar src={src ?? undefined} size={size} radius={radius}>
      {name.slice(0, 1).toUpperCase()}
    </Avatar>
  );
}
