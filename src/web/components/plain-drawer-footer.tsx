import type { ReactNode } from 'react';
import { Button, Group } from '@mantine/core';

/**
 * The last row of a drawer whose form is plain state (locations, storerooms): Delete (red, light) at the start
 * when `onDelete` is given, Save at the end; Save submits the form around it unless `onSave` is given.
 */
export function PlainDrawerFooter(props: {
  onDelete?: () => void;
  deleteLabel: ReactNode;
  deleteTestId: string;
  onSave?: () => void;
  saveLabel: ReactNode;
  saveTestId: string;
}) {
  return (
    <Group justify="space-between">
      {props.onDelete ? (
        <Button color="red" variant="light" onClick={props.onDelete} data-testid={props.deleteTestId}>
          {props.deleteLabel}
        </Button>
      ) : (
        <span />
      )}
      <Button type={props.onSave ? 'button' : 'submit'} onClick={props.onSave} data-testid={props.saveTestId}>
        {props.saveLabel}
      </Button>
    </Group>
  );
}
