import type { ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { formDrawerProps, RecordDrawer } from './record-drawer';
import { RecordDrawerFooter, useListRecordActions, type ListRecordOptions, type RowDrawerProps } from './record-actions';

/**
 * The one-tab drawer of a list row (services, work stations): the form's fields as the Overview, the Note Logs,
 * and Delete / Save unless read-only. Save and delete are useListRecordActions' over the list the row came from.
 */
export function RowRecordDrawer<R extends { id: number }, V extends FieldValues, Out, Updated>(
  props: RowDrawerProps<R> &
    Omit<ListRecordOptions<V, Out, Updated>, 'record' | 'query' | 'onList' | 'onClose'> & {
      title: ReactNode;
      deleteLabel: ReactNode;
      testId: string;
      children: ReactNode;
    },
) {
  const { t } = useTranslation();
  const { form, record } = props;
  const { save, remove } = useListRecordActions(props);
  return (
    <RecordDrawer
      {...formDrawerProps(form, save, props.entityType, record?.id)}
      onClose={props.onClose}
      title={props.title}
      tabs={[{ value: 'overview', label: t('drawer.overview'), content: props.children }]}
      footer={!props.readOnly && <RecordDrawerFooter onDelete={record && remove} deleteLabel={props.deleteLabel} saving={form.formState.isSubmitting} />}
      testId={props.testId}
    />
  );
}
