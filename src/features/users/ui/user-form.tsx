import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { userUpdateSchema, type UserDto, type UserUpdateInput } from '../users.schema';

/** The edit form of a user (spec "User edit"), shared by the users drawer and the profile dialog. */
export function useUserForm(user: UserDto | null | undefined) {
  return useForm<UserUpdateInput>({
    resolver: zodResolver(userUpdateSchema),
    values: user
      ? {
          firstName: user.firstName,
          lastName: user.lastName ?? '',
          email: user.email,
          phoneNumber: user.phoneNumber ?? '',
          jobTitle: user.jobTitle ?? '',
          role: user.role,
          language: user.language,
          location: user.location ?? '',
        }
      : undefined,
  });
}

export function UserFields({
  form,
  showRole,
  allowAdmin,
  readOnly,
}: {
  form: UseFormReturn<UserUpdateInput>;
  /** Role select (hidden on one's own profile). */
  showRole: boolean;
  /** Offer "admin" (only an admin may give it). */
  allowAdmin?: boolean;
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const errors = form.formState.errors;
  const roles = [...(allowAdmin ? (['admin'] as const) : []), 'manager', 'worker'] as const;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <TextInput label={t('users.fields.firstName')} withAsterisk readOnly={readOnly} {...form.register('firstName')} error={errors.firstName?.message} data-testid="user-firstName" />
      <TextInput label={t('users.fields.lastName')} readOnly={readOnly} {...form.register('lastName')} error={errors.lastName?.message} data-testid="user-lastName" />
      <TextInput label={t('auth.fields.email')} withAsterisk readOnly={readOnly} {...form.register('email')} error={errors.email?.message} data-testid="user-email" />
      <TextInput label={t('users.fields.phoneNumber')} readOnly={readOnly} {...form.register('phoneNumber')} error={errors.phoneNumber?.message} data-testid="user-phone" />
      <TextInput label={t('users.fields.jobTitle')} readOnly={readOnly} {...form.register('jobTitle')} error={errors.jobTitle?.message} data-testid="user-jobTitle" />
      <TextInput label={t('users.fields.location')} readOnly={readOnly} {...form.register('location')} error={errors.location?.message} />
      {showRole && (
        <Controller
          control={form.control}
          name="role"
          render={({ field }) => (
            <Select
              label={t('users.fields.role')}
              withAsterisk
              readOnly={readOnly}
              data={roles.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
              value={field.value ?? null}
              onChange={(v) => field.onChange(v ?? undefined)}
              error={errors.role?.message}
              allowDeselect={false}
              data-testid="user-role"
              comboboxProps={{ withinPortal: true }}
            />
          )}
        />
      )}
      <Controller
        control={form.control}
        name="language"
        render={({ field }) => (
          <Select
            label={t('users.fields.language')}
            readOnly={readOnly}
            data={[
              { value: 'en', label: 'English' },
              { value: 'ar', label: 'العربية' },
            ]}
            value={field.value ?? 'en'}
            onChange={(v) => field.onChange(v ?? 'en')}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
    </SimpleGrid>
  );
}
