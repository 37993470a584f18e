import type { ComponentType, ReactNode } from 'react';
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

/**
 * An area's creation dialog for its picker's "Add New" (createRecordSelect's `CreateModal`): the area's form (new)
 * and fields, its texts from the namespace `ns` (`newTitle`, then the toasts `added` and `addFailed`), and `create`,
 * which posts the values and gives back the new record.
 */
export function areaCreateModal<V extends FieldValues, Out, Rec>(
  ns: string,
  useAreaForm: (record: null) => UseFormReturn<V, unknown, Out>,
  Fields: ComponentType<{ form: UseFormReturn<V, unknown, Out> }>,
  dialog: { size: ModalProps['size']; testId: string; create(values: Out): Promise<Rec> },
) {
  return function AreaCreateModal({ onClose, onCreated }: { onClose(): void; onCreated(record: Rec): void }) {
    const { t } = useTranslation(ns);
    const form = useAreaForm(null);
    return (
      <RecordCreateModal {...dialog} form={form} title={t('newTitle')} success={t('added')} failure={t('addFailed')} onClose={onClose} onCreated={onCreated}>
        <Fields form={form} />
      </RecordCreateModal>
    );
  };
}
