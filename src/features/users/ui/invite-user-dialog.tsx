import { useState } from 'react';
import { Alert, Modal, Stack } from '@mantine/core';
import { FormTextInput } from '../../../web/components/form-text-input';
import { IconAlertCircle } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { useTranslation } from 'react-i18next';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { DialogActions } from '../../../web/components/dialog-actions';
import { notifyError, notifySuccess } from '../../../web/components/notify';
import { inviteUserSchema, type InviteUserInput } from '../users.schema';
import { useRefreshUsers } from './use-users';
import { LanguageField, RoleField } from './user-form';

/** "Add User": e-mail twice and a role; the server e-mails the invitation. */
export function InviteUserDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const refresh = useRefreshUsers();
  const [backendError, setBackendError] = useState<string | null>(null);
  const form = useForm<InviteUserInput>({
    resolver: zodResolver(inviteUserSchema),
    // a field is checked when left, then at each change: a mismatch shows before a role is chosen
    mode: 'onTouched',
    // The invitation's language: the admin chooses it; the admin's own by default (decision 065).
    defaultValues: { email: '', confirmEmail: '', role: undefined as unknown as 'worker', language: i18n.language === 'ar' ? 'ar' : 'en' },
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (values) => {
    setBackendError(null);
    try {
      await api.post('/auth/addUser', values);
      notifySuccess('User added successfully');
      await refresh();
      form.reset();
      onClose();
    } catch (err) {
      notifyError('Failed to add user');
      setBackendError(errorMessage(err, t('errors.generic')));
      applyApiErrors(err, form.setError);
    }
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('users.invite.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {backendError && (
            <Alert color="red" icon={<IconAlertCircle />} data-testid="backend-error">
              {backendError}
            </Alert>
          )}
          <FormTextInput form={form} name="email" label={t('auth.fields.email')} withAsterisk testId="invite-email" />
          <FormTextInput form={form} name="confirmEmail" label={t('users.invite.confirmEmail')} withAsterisk testId="invite-confirm-email" />
          <RoleField control={form.control} roles={['manager', 'worker']} error={errors.role?.message} testId="invite-role" />
          <LanguageField
            control={form.control}
            label={t('users.invite.language')}
            description={t('users.invite.languageHint')}
            error={errors.language?.message}
            testId="invite-language"
          />
          <DialogActions onCancel={onClose} submitLabel={t('users.invite.send')} loading={form.formState.isSubmitting} testId="invite-send" mt="sm" />
        </Stack>
      </form>
    </Modal>
  );
}
