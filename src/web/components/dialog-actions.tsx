import type { ReactNode } from 'react';
import { Button, Group, type MantineColor, type MantineSpacing } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * A dialog's last row, at its end: Cancel (closes without saving) when `onCancel` is given, then the form's submit
 * button, or with `onSubmit` a plain button that calls it (a dialog without a form).
 */
export function DialogActions(props: {
  onCancel?(): void;
  submitLabel: ReactNode;
  onSubmit?: () => void;
  loading?: boolean;
  disabled?: boolean;
  testId?: string;
  /** The submit button's colour (red for a destructive confirmation). */
  color?: MantineColor;
  mt?: MantineSpacing;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" mt={props.mt}>
      {props.onCancel && (
        <Button variant="default" onClick={props.onCancel}>
          {t('actions.cancel')}
        </Button>
      )}
      <Button
        type={props.onSubmit ? undefined : 'submit'}
        onClick={props.onSubmit}
        color={props.color}
        loading={props.loading}
        disabled={props.disabled}
        data-testid={props.testId}
      >
        {props.submitLabel}
      </Button>
    </Group>
  );
}
