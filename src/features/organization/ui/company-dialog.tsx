import { Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { DialogActions } from '../../../web/components/dialog-actions';
import { FormTextInput } from '../../../web/components/form-text-input';
import { IconUpload } from '@tabler/icons-react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { APP_DATA_KEY, useAppData, useIsManager } from '../../../web/lib/app-data';
import { notifyError, notifySuccess } from '../../../web/components/notify';
import { ImageUploadButton, InitialAvatar, useImageUpload } from '../../../web/components/attachments';
import { textValues } from '../../../web/components/form-values';
import { IMAGE_RULE } from '../../../web/lib/image-rules';
import { companyUpdateSchema, type CompanyDto, type CompanyUpdateInput } from '../organization.schema';
import { SecuritySettings } from './security-settings';

const toForm = (c: CompanyDto): CompanyUpdateInput => ({
  organization: c.organization,
  ...textValues(c, ['addressStreet1', 'addressStreet2', 'city', 'zipCode', 'country', 'website', 'phoneNumber']),
  currency: c.currency ?? 'USD',
  taxRounding: c.taxRounding ?? 'round_per_line',
  timeZone: c.timeZone ?? 'UTC',
});

/** The IANA zones this browser knows (UTC first), with the organisation's own even when it is not listed. */
function timeZoneOptions(current: string | undefined): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', ...(current ? [current] : []), ...known])];
}

/** The company profile dialog: details and logo (managers and admins change them); numberOfWorkers read only. */
export function CompanyDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const company = useAppData().data?.company;
  const canEdit = useIsManager();
  const isAdmin = useAppData().data?.loggedInUser?.role === 'admin';
  const queryClient = useQueryClient();
  const logo = useLogoUpload();
  const form = useForm<CompanyUpdateInput>({ resolver: zodResolver(companyUpdateSchema), values: company ? toForm(company) : undefined });

  const save = form.handleSubmit(async (values) => {
    if (!company) return;
    try {
      await api.put(`/company/update-company/${company.id}`, values);
      notifySuccess('Company updated successfully');
      await queryClient.invalidateQueries({ queryKey: APP_DATA_KEY });
      onClose();
    } catch (err) {
      applyApiErrors(err, form.setError);
      notifyError(errorMessage(err, 'Failed to update company'));
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('shell.companyProfile')} size="lg" centered data-testid="company-dialog">
      {company && (
        <form onSubmit={save} noValidate>
          <Stack gap="sm">
            <CompanyLogo company={company} canEdit={canEdit} logo={logo} />
            <CompanyFields form={form} company={company} canEdit={canEdit} />
            {canEdit && <DialogActions submitLabel={t('actions.save')} loading={form.formState.isSubmitting} testId="company-save" mt="sm" />}
          </Stack>
        </form>
      )}
      {company && isAdmin && <SecuritySettings />}
    </Modal>
  );
}

/** The logo's upload: the image checked first, the app data refreshed after, the refusal shown beside the button. */
function useLogoUpload() {
  const queryClient = useQueryClient();
  const messages = { success: 'Company logo updated successfully', failure: 'Failed to upload company logo' };
  return useImageUpload('/company/add-profile-picture', IMAGE_RULE, messages, () => queryClient.invalidateQueries({ queryKey: APP_DATA_KEY }));
}

/** The company's logo and, for a manager, the button that uploads a new one. */
function CompanyLogo({ company, canEdit, logo }: { company: CompanyDto; canEdit: boolean; logo: ReturnType<typeof useLogoUpload> }) {
  const { t } = useTranslation();
  const { error, busy, upload } = logo;
  return (
    <Group>
      <InitialAvatar src={company.profilePicture} name={company.organization} size={72} radius="md" />
      {canEdit && (
        <ImageUploadButton
          onFile={(f) => void upload(f)}
          label={t('company.uploadLogo')}
          variant="default"
          leftSection={<IconUpload size={16} />}
          loading={busy}
        />
      )}
      {error && (
        <Text size="sm" c="red">
          {error}
        </Text>
      )}
    </Group>
  );
}

/** The company's details (the subdomain and the number of workers read only). */
function CompanyFields({ form, company, canEdit }: { form: UseFormReturn<CompanyUpdateInput>; company: CompanyDto; canEdit: boolean }) {
  const { t } = useTranslation();
  const errors = form.formState.errors;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <FormTextInput form={form} name="organization" label={t('auth.fields.organization')} withAsterisk readOnly={!canEdit} testId="company-organization" />
      <TextInput label={t('company.subdomain')} value={company.subdomain} readOnly disabled />
      <FormTextInput form={form} name="addressStreet1" label={t('company.street1')} readOnly={!canEdit} />
      <FormTextInput form={form} name="addressStreet2" label={t('company.street2')} readOnly={!canEdit} />
      <FormTextInput form={form} name="city" label={t('company.city')} readOnly={!canEdit} />
      <FormTextInput form={form} name="zipCode" label={t('company.zipCode')} readOnly={!canEdit} testId="company-zip" />
      <FormTextInput form={form} name="country" label={t('company.country')} readOnly={!canEdit} />
      <FormTextInput form={form} name="website" label={t('company.website')} readOnly={!canEdit} testId="company-website" />
      <FormTextInput form={form} name="phoneNumber" label={t('users.fields.phoneNumber')} readOnly={!canEdit} />
      <FormTextInput
        form={form}
        name="currency"
        label={t('company.currency')}
        description={t('company.currencyHint')}
        readOnly={!canEdit}
        testId="company-currency"
      />
      <Controller
        control={form.control}
        name="taxRounding"
        render={({ field }) => (
          <Select
            label={t('company.taxRounding')}
            description={t('company.taxRoundingHint')}
            data={[
              { value: 'round_per_line', label: t('company.roundPerLine') },
              { value: 'round_globally', label: t('company.roundGlobally') },
            ]}
            value={(field.value as string | undefined) ?? 'round_per_line'}
            onChange={(v) => field.onChange(v ?? 'round_per_line')}
            allowDeselect={false}
            readOnly={!canEdit}
            error={errors.taxRounding?.message}
            data-testid="company-tax-rounding"
          />
        )}
      />
      <Controller
        control={form.control}
        name="timeZone"
        render={({ field }) => (
          <Select
            label={t('company.timeZone')}
            description={t('company.timeZoneHint')}
            data={timeZoneOptions(company.timeZone)}
            value={(field.value as string | undefined) ?? 'UTC'}
            onChange={(v) => field.onChange(v ?? 'UTC')}
            searchable
            allowDeselect={false}
            limit={50}
            readOnly={!canEdit}
            error={errors.timeZone?.message}
            comboboxProps={{ withinPortal: true }}
            data-testid="company-time-zone"
          />
        )}
      />
      <TextInput label={t('auth.fields.numberOfWorkers')} value={String(company.numberOfWorkers)} readOnly disabled data-testid="company-workers" />
    </SimpleGrid>
  );
}
