import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { REASON_TYPES, timeTrackingReasonInputSchema, type TimeTrackingReasonDto } from '../master-data.schema';
import { SelectField, TextField, YesNoField } from './form-fields';
import { MasterDataScreen, entityMessages } from './master-data-screen';

/** /settings/time-tracking-reason */
export default function TimeTrackingReasonsPage() {
  const { t } = useTranslation('masterData');
  return (
    <MasterDataScreen<TimeTrackingReasonDto>
      queryKey="time-tracking-reasons"
      importKind="time-tracking-reasons"
      entityType="time-tracking-reason"
      title={t('reasons.title')}
      addLabel={t('reasons.add')}
      searchPlaceholder={t('reasons.find')}
      newTitle={t('reasons.new')}
      listKey="timeTrackingReasons"
      paths={{
        list: '/time-tracking-reasons/get-time-tracking-reasons',
        add: '/time-tracking-reasons/add-time-tracking-reason',
        update: (id) => `/time-tracking-reasons/update-time-tracking-reason/${id}`,
        remove: (id) => `/time-tracking-reasons/delete-time-tracking-reason/${id}`,
      }}
      messages={entityMessages('Time tracking reason', 'Time tracking reasons')}
      columns={[
        { key: 'name', header: t('fields.name'), hideable: false },
        { key: 'type', header: t('fields.type'), render: (r) => t(`reasonType.${r.type}`) },
        { key: 'is_blocking_reason', header: t('fields.isBlockingReason'), render: (r) => (r.is_blocking_reason ? t('yes') : t('no')) },
      ]}
      searchText={(r) => `${r.name} ${r.type}`}
      schema={timeTrackingReasonInputSchema}
      defaults={(r) => ({ name: r?.name ?? '', type: r?.type ?? null, is_blocking_reason: r ? r.is_blocking_reason : undefined })}
      fields={(form, { readOnly }) => (
        <Stack>
          <TextField form={form} name="name" label={t('fields.name')} required readOnly={readOnly} />
          <SelectField
            form={form}
            name="type"
            label={t('fields.type')}
            required
            readOnly={readOnly}
            data={REASON_TYPES.map((v) => ({ value: v, label: t(`reasonType.${v}`) }))}
          />
          <YesNoField form={form} name="is_blocking_reason" label={t('fields.isBlockingReason')} readOnly={readOnly} />
        </Stack>
      )}
    />
  );
}
