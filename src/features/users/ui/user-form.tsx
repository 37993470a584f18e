import { NumberInput, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { Controller, useForm, type Control, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { useTranslation } from 'react-i18next';
import { AssetMultiSelect } from '../../assets/ui/asset-select';
import { ServiceMultiSelect } from '../../service-catalog/ui/service-select';
import { WorkStationMultiSelect } from '../../work-stations/ui/work-station-select';
import { useMoney } from '../../../web/components/money';
import { toMajor, toMinor } from '../../../shared/money';
import { userUpdateSchema, type UserDto, type UserUpdateInput } from '../users.schema';

/**
 * The edit form of a user (spec "User edit"), shared by the users drawer and the profile dialog. With `related`
 * (a manager's edit) it carries the related work stations, assets and services; without, it never sends them.
 */
export function useUserForm(user: UserDto | null | undefined, opts: { related?: boolean } = {}) {
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
          ...(opts.related
            ? {
                related_workStations: user.related_workStations.map((r) => r.id),
                related_assets: user.related_assets.map((r) => r.id),
                related_services: user.related_services.map((r) => r.id),
                hourlyRate: user.hourlyRate,
              }
            : {}),
        }
      : undefined,
  });
}

export function UserFields({
  form,
  showRole,
  allowAdmin,
  readOnly,
  related,
}: {
  form: UseFormReturn<UserUpdateInput>;
  /** Role select (hidden on one's own profile). */
  showRole: boolean;
  /** Offer "admin" (only an admin may give it). */
  allowAdmin?: boolean;
  readOnly?: boolean;
  /** The user whose related work stations, assets and services the form edits (a manager's edit only). */
  related?: UserDto;
}) {
  const { t } = useTranslation();
  const errors = form.formState.errors;
  const money = useMoney();
  const roles = [...(allowAdmin ? (['admin'] as const) : []), 'manager', 'worker'] as const;
  const text = (name: 'firstName' | 'lastName' | 'email' | 'phoneNumber' | 'jobTitle' | 'location', label: string, testId?: string, required?: boolean) => (
    <TextInput label={label} withAsterisk={required} readOnly={readOnly} {...form.register(name)} error={errors[name]?.message} data-testid={testId} />
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {text('firstName', t('users.fields.firstName'), 'user-firstName', true)}
      {text('lastName', t('users.fields.lastName'), 'user-lastName')}
      {text('email', t('auth.fields.email'), 'user-email', true)}
      {text('phoneNumber', t('users.fields.phoneNumber'), 'user-phone')}
      {text('jobTitle', t('users.fields.jobTitle'), 'user-jobTitle')}
      {text('location', t('users.fields.location'))}
      {showRole && <RoleField control={form.control} roles={roles} readOnly={readOnly} error={errors.role?.message} allowDeselect={false} testId="user-role" />}
      {related && <RelatedFields form={form} related={related} readOnly={readOnly} money={money} />}
      <LanguageField control={form.control} label={t('users.fields.language')} readOnly={readOnly} />
    </SimpleGrid>
  );
}

/** The role select of the user forms (the edit, the invitation): the roles offered, in words. */
export function RoleField<V extends FieldValues>(props: {
  control: Control<V, any, any>;
  roles: readonly ('admin' | 'manager' | 'worker')[];
  error?: string;
  readOnly?: boolean;
  allowDeselect?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={props.control}
      name={'role' as Path<V>}
      render={({ field }) => (
        <Select
          label={t('users.fields.role')}
          withAsterisk
          readOnly={props.readOnly}
          data={props.roles.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
          value={field.value ?? null}
          onChange={(v) => field.onChange(v ?? undefined)}
          error={props.error}
          allowDeselect={props.allowDeselect}
          data-testid={props.testId}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );
}

/** The language select of the user forms (English or Arabic; English when none). */
export function LanguageField<V extends FieldValues>(props: {
  control: Control<V, any, any>;
  label: string;
  description?: string;
  error?: string;
  readOnly?: boolean;
  testId?: string;
}) {
  return (
    <Controller
      control={props.control}
      name={'language' as Path<V>}
      render={({ field }) => (
        <Select
          label={props.label}
          description={props.description}
          readOnly={props.readOnly}
          data={[
            { value: 'en', label: 'English' },
            { value: 'ar', label: 'العربية' },
          ]}
          value={field.value ?? 'en'}
          onChange={(v) => field.onChange(v ?? 'en')}
          allowDeselect={false}
          error={props.error}
          data-testid={props.testId}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );
}

/** The related records a manager sets on a user: one multi-select each, alike but for the picker and its options. */
const RELATED_PICKERS = [
  {
    name: 'related_workStations',
    label: 'users.fields.relatedWorkStations',
    Picker: WorkStationMultiSelect,
    options: (u: UserDto) => u.related_workStations.map((r) => ({ value: r.id, label: r.name })),
  },
  {
    name: 'related_assets',
    label: 'users.fields.relatedAssets',
    Picker: AssetMultiSelect,
    options: (u: UserDto) => u.related_assets.map((r) => ({ value: r.id, label: r.name })),
  },
  {
    name: 'related_services',
    label: 'users.fields.relatedServices',
    Picker: ServiceMultiSelect,
    options: (u: UserDto) => u.related_services.map((r) => ({ value: r.id, label: r.title })),
  },
] as const;

/** A manager's edit: the hourly rate and the related work stations, assets and services. */
function RelatedFields({
  form,
  related,
  readOnly,
  money,
}: {
  form: UseFormReturn<UserUpdateInput>;
  related: UserDto;
  readOnly?: boolean;
  money: ReturnType<typeof useMoney>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Controller
        control={form.control}
        name="hourlyRate"
        render={({ field, fieldState }) => (
          <NumberInput
            label={t('users.fields.hourlyRate')}
            description={t('users.fields.hourlyRateHint')}
            leftSection={<Text size="xs">{money.symbol}</Text>}
            decimalScale={money.digits}
            min={0}
            readOnly={readOnly}
            value={typeof field.value === 'number' ? toMajor(field.value, money.digits) : ''}
            onChange={(v) => field.onChange(v === '' || v === null ? null : toMinor(Number(v), money.digits))}
            error={fieldState.error?.message}
            data-testid="user-hourlyRate"
          />
        )}
      />
      {RELATED_PICKERS.map(({ name, label, Picker, options }) => (
        <Controller
          key={name}
          control={form.control}
          name={name}
          render={({ field, fieldState }) => (
            <Picker
              label={t(label)}
              value={(field.value as number[] | undefined) ?? []}
              onChange={field.onChange}
              initialOptions={options(related)}
              error={fieldState.error?.message}
              disabled={readOnly}
              testId={`user-${name.replace('_', '-')}`}
            />
          )}
        />
      ))}
    </>
  );
}
