import { Avatar, Button, FileButton, Modal, PasswordInput, Stack, Tabs, Text } from '@mantine/core';
import { DialogActions } from '../../../web/components/dialog-actions';
import { IconUpload } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { useTranslation } from 'react-i18next';
import { z } from '../../../shared/zod-setup';
import { api, applyApiErrors, ApiError, errorMessage } from '../../../web/lib/api';
import { useAppData } from '../../../web/lib/app-data';
import { notifyError, notifySuccess } from '../../../web/components/notify';
import { useImageUpload } from '../../../web/components/attachments';
import { setLanguage } from '../../../web/i18n';
import { resetPasswordSchema, verifyPasswordSchema } from '../../auth/auth.schema';
import type { UserDto } from '../users.schema';
import { AVATAR_RULE } from '../../../web/lib/image-rules';
import { UserFields, useUserForm } from './user-form';
import { useRefreshUsers } from './use-users';
import { SecurityTab } from './security-tab';

export const PASSWORD_UPDATED = 'Password has been updated successfully';
export const PASSWORD_FAILED = 'Oops something went wrong...';

/** The form of the password tab: the two calls' schemas joined (same messages). */
const passwordFormSchema = z
  .object({
    currentPassword: verifyPasswordSchema.shape.currentPassword,
    newPassword: z.string({ error: 'Password is required' }).min(1, 'Password is required').min(8, 'Password must be at least 8 characters'),
    confirmPassword: z.string({ error: "Passwords don't match" }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });
type PasswordForm = z.infer<typeof passwordFormSchema>;

function DetailsTab({ user, onDone }: { user: UserDto; onDone(): void }) {
  const { t } = useTranslation();
  const refresh = useRefreshUsers();
  const form = useUserForm(user);
  const save = form.handleSubmit(async (values) => {
    try {
      await api.put(`/user/updateUser/${user.id}`, values);
      if (values.language) setLanguage(values.language);
      notifySuccess('Profile updated successfully');
      await refresh();
      onDone();
    } catch (err) {
      applyApiErrors(err, form.setError);
      notifyError(errorMessage(err, 'Failed to update profile'));
    }
  });
  return (
    <form onSubmit={save} noValidate>
      <UserFields form={form} showRole={false} />
      <DialogActions submitLabel={t('actions.save')} loading={form.formState.isSubmitting} testId="profile-save" mt="md" />
    </form>
  );
}

function AvatarTab({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const refresh = useRefreshUsers();
  const messages = { success: 'Profile picture updated successfully', failure: 'Failed to upload profile picture' };
  const { error, busy, upload } = useImageUpload('/user/addProfilePicture', AVATAR_RULE, messages, refresh);
  return (
    <Stack align="center" gap="md" py="md">
      <Avatar src={user.profilePicture ?? undefined} size={120} radius={120} data-testid="profile-avatar">
        {(user.firstName || user.email).slice(0, 1).toUpperCase()}
      </Avatar>
      <FileButton onChange={(f) => void upload(f)} accept="image/png,image/jpeg,image/webp">
        {(props) => (
          <Button {...props} leftSection={<IconUpload size={16} />} loading={busy} data-testid="avatar-upload">
            {t('profile.uploadAvatar')}
          </Button>
        )}
      </FileButton>
      <Text size="xs" c="dimmed">
        {t('profile.avatarRule')}
      </Text>
      {error && (
        <Text size="sm" c="red" data-testid="avatar-error">
          {error}
        </Text>
      )}
    </Stack>
  );
}

function PasswordTab() {
  const { t } = useTranslation();
  const form = useForm<PasswordForm>({
    resolver: zodResolver(passwordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const errors = form.formState.errors;
  const save = form.handleSubmit(async (values) => {
    try {
      await api.post('/user/verify-password', { currentPassword: values.currentPassword });
    } catch (err) {
      const message = err instanceof ApiError ? (err.issues.find((i) => i.path === 'currentPassword')?.message ?? err.message) : PASSWORD_FAILED;
      form.setError('currentPassword', { type: 'server', message });
      return;
    }
    try {
      const body = resetPasswordSchema.parse({ newPassword: values.newPassword, confirmPassword: values.confirmPassword });
      await api.post('/user/reset-password', body);
      notifySuccess(PASSWORD_UPDATED);
      form.reset();
    } catch {
      notifyError(PASSWORD_FAILED);
    }
  });
  return (
    <form onSubmit={save} noValidate>
      <Stack gap="sm">
        {/* [field, label, what the browser may fill in, test id] */}
        {(
          [
            ['currentPassword', t('profile.currentPassword'), 'current-password', 'current-password'],
            ['newPassword', t('profile.newPassword'), 'new-password', 'new-password'],
            ['confirmPassword', t('auth.fields.confirmPassword'), 'new-password', 'confirm-password'],
          ] as const
        ).map(([name, label, autoComplete, testId]) => (
          <PasswordInput
            key={name}
            label={label}
            autoComplete={autoComplete}
            withAsterisk
            {...form.register(name)}
            error={errors[name]?.message}
            data-testid={testId}
          />
        ))}
        <DialogActions submitLabel={t('profile.changePassword')} loading={form.formState.isSubmitting} testId="password-save" />
      </Stack>
    </form>
  );
}

/** The profile dialog of the user menu: details, avatar, password, security (two-factor and devices). */
export function ProfileDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const user = useAppData().data?.loggedInUser;
  return (
    <Modal opened={opened} onClose={onClose} title={t('shell.profile')} size="lg" centered data-testid="profile-dialog">
      {user && (
        <Tabs defaultValue="details">
          <Tabs.List mb="md">
            <Tabs.Tab value="details">{t('profile.details')}</Tabs.Tab>
            <Tabs.Tab value="avatar" data-testid="tab-avatar">
              {t('profile.picture')}
            </Tabs.Tab>
            <Tabs.Tab value="password" data-testid="tab-password">
              {t('profile.password')}
            </Tabs.Tab>
            <Tabs.Tab value="security" data-testid="tab-security">
              {t('security.tab')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="details">
            <DetailsTab user={user} onDone={onClose} />
          </Tabs.Panel>
          <Tabs.Panel value="avatar">
            <AvatarTab user={user} />
          </Tabs.Panel>
          <Tabs.Panel value="password">
            <PasswordTab />
          </Tabs.Panel>
          <Tabs.Panel value="security">
            <SecurityTab />
          </Tabs.Panel>
        </Tabs>
      )}
    </Modal>
  );
}
