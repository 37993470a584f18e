import type { ReactNode } from 'react';
import { Button, Group, Modal, type ModalProps } from '@mantine/core';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyApiErrors, errorMessage } from '../lib/api';
import { notifyError, notifySuccess } from './notify';

export interface RecordCreateModalProps<V extends FieldValues, Out, Rec> {
  form: UseFormReturn<V, unknown, Out>;
  title: ReactNode;
  /** Sends the values and gives back the new record. */
  create(values: Out): Promise<Rec>;
  onCreated(record: Rec): void;
  onClose(): void;
  /** Success and failure toasts. */
  success: string;
  failure: string;
  /** The form fields. */
  children: ReactNode;
  opened?: boolean;
  size?: ModalProps['size'];
  testId?: string;
  saveTestId?: string;
}

/**
 * The creation dialog a picker's "Add New" entry opens: the fields, Cancel and Save Changes. The form does not
 * submit the drawer around it; field errors from the server go on the fields, other failures to a toast.
 */
export function RecordCreateModal<V extends FieldValues, Out, Rec>(props: RecordCreateModalProps<V, Out, Rec>) {
  const { t } = useTranslation();
  const { form } = props;
  const save = form.handleSubmit(async (values) => {
    try {
      const record = await props.create(values);
      notifySuccess(props.success);
      props.onCreated(record);
    } catch (err) {
      if (!applyApiErrors(err, form.setError)) notifyError(errorMessage(err, props.failure));
    }
  });
  return (
    <Modal opened={props.opened ?? true} onClose={props.onClose} title={props.title} size={props.size} data-testid={props.testId}>
      <form
        onSubmit={(e) => {
          e.stopPropagation();
          void save(e);
        }}
      >
        {props.children}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={props.onClose}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting} data-testid={props.saveTestId}>
            {t('actions.save')}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
