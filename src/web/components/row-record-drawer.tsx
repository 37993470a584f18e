import type { ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { RecordDrawer } from './record-drawer';
import { RecordDrawerFooter } from './record-actions';

/**
 * The one-tab drawer of a list row (services, work stations): the form's fields as the Overview, the Note Logs,
 * and Delete / Save unless read-only. `save` and `remove` come from useListRecordActions.
 */
export function RowRecordDrawer<V extends FieldValues>(props: {
  form: UseFormReturn<V, any, any>;
  record: { id: number } | null;
  onClose(): void;
  title: ReactNode;
  entityType: string;
  save(): void;
  remove(): void;
  readOnly?: boolean;
  deleteLabel: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { form, record } = props;
  return (
    <RecordDrawer
      dirty={form.formState.isDirty}
      opened
      onClose={props.onClose}
      title={props.title}
      errors={form.formState.errors}
      onSubmit={props.save}
      activity={{ entityType: props.entityType, entityId: record?.id }}
      tabs={[{ value: 'overview', label: t('drawer.overview'), content: props.children }]}
      footer={!props.readOnly && <RecordDrawerFooter onDelete={record && props.remove} deleteLabel={props.deleteLabel} saving={form.formState.isSubmitting} />}
      testId={props.testId}
    />
  );
}
