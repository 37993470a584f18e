import type { ReactNode } from 'react';
import { Button, Code, CopyButton, Group, Modal, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * A secret shown once (an API key, a webhook's signing secret): the text above it, the value, Copy and Done.
 * Open while `value` is not null. `ns`: the feature's namespace, which has `copy`, `copied` and `done`.
 */
export function SecretShownModal(props: {
  ns: string;
  title: ReactNode;
  value: string | null;
  onClose(): void;
  valueTestId: string;
  doneTestId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation(props.ns);
  return (
    <Modal opened={props.value !== null} onClose={props.onClose} title={props.title} centered size="lg">
      <Stack>
        {props.children}
        <Code block data-testid={props.valueTestId} style={{ wordBreak: 'break-all' }}>
          {props.value}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={props.value ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                {copied ? t('copied') : t('copy')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={props.onClose} data-testid={props.doneTestId}>
            {t('done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
