import type { ReactNode } from 'react';
import { Button, Group, type MantineSpacing } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A form dialog's last row, at its end: Cancel (closes without saving), then the submit button. */
export function DialogActions(props: { onCancel(): void; submitLabel: ReactNode; loading?: boolean; testId: string; mt?: MantineSpacing }) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" mt={props.mt}>
      <Button variant="default" onClick={props.onCancel}>
        {t('actions.cancel')}
      </Button>
      <Button type="submit" loading={props.loading} data-testid={props.testId}>
        {props.submitLabel}
      </Button>
    </Group>
  );
}
