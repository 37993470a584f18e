import { Stack } from '@mantine/core';
import { choices } from '../../../web/lib/choices';
import { REASON_TYPES, timeTrackingReasonInputSchema, type TimeTrackingReasonDto } from '../master-data.schema';
import { SelectField, TextField, YesNoField } from './form-fields';
import { entityMessages, masterDataPage } from './master-data-screen';

/** /settings/time-tracking-reason */
export default masterDataPage<TimeTrackingReasonDto>(['time-tracking-reasons', 'time-tracking-reason', 'reasons'], (t) => ({
  messages: entityMessages('Time tracking reason', 'Time tracking reasons'),
  columns: [
    { key: 'name', header: t('fields.name'), hideable: false },
    { key: 'type', header: t('fields.type'), render: (r) => t(`reasonType.${r.type}`) },
    { key: 'is_blocking_reason', header: t('fields.isBlockingReason'), render: (r) => (r.is_blocking_reason ? t('yes') : t('no')) },
  ],
  searchText: (r) => `${r.name} ${r.type}`,
  schema: timeTrackingReasonInputSchema,
  defaults: (r) => ({ name: r?.name ?? '', type: r?.type ?? null, is_blocking_reason: r ? r.is_blocking_reason : undefined }),
  fields: (form, { readOnly }) => (
    <Stack>
      <TextField form={form} name="name" label={t('fields.name')} required readOnly={readOnly} />
      <SelectField form={form} name="type" label={t('fields.type')} required readOnly={readOnly} data={choices(REASON_TYPES, t, 'reasonType')} />
      <YesNoField form={form} name="is_blocking_reason" label={t('fields.isBlockingReason')} readOnly={readOnly} />
    </Stack>
  ),
}));
