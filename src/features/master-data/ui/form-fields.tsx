import { MultiSelect, NumberInput, Select, TextInput } from '@mantine/core';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

// Small react-hook-form bindings for Mantine inputs, used by the master-data and team drawers.

type AnyForm = UseFormReturn<any, any, any>;
const errorOf = (form: AnyForm, name: string) => {
  const parts = name.split('.');
  let e: any = form.formState.errors;
  for (const p of parts) e = e?.[p];
  return e?.message as string | undefined;
};

export function TextField({
  form,
  name,
  label,
  required,
  readOnly,
  testId,
}: {
  form: AnyForm;
  name: string;
  label: string;
  required?: boolean;
  readOnly?: boolean;
  testId?: string;
}) {
  return (
    <TextInput
      label={label}
      withAsterisk={required}
      readOnly={readOnly}
      {...form.register(name)}
      error={errorOf(form, name)}
      data-testid={testId ?? `field-${name}`}
    />
  );
}

/** A number typed as text: the schema says 'Only numbers are allowed' rather than the input refusing keystrokes. */
export function NumberField({
  form,
  name,
  label,
  required,
  readOnly,
  prefix,
  suffix,
  description,
  decimalScale = 6,
}: {
  form: AnyForm;
  name: string;
  label: string;
  required?: boolean;
  readOnly?: boolean;
  prefix?: string;
  suffix?: string;
  description?: string;
  decimalScale?: number;
}) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <NumberInput
          label={label}
          withAsterisk={required}
          readOnly={readOnly}
          value={field.value ?? ''}
          onChange={(v) => field.onChange(v === '' ? '' : v)}
          onBlur={field.onBlur}
          prefix={prefix}
          suffix={suffix}
          description={description}
          decimalScale={decimalScale}
          hideControls
          error={errorOf(form, name)}
          data-testid={`field-${name}`}
        />
      )}
    />
  );
}

export function SelectField({
  form,
  name,
  label,
  data,
  required,
  readOnly,
  clearable,
  numeric,
  searchable,
  onPicked,
  description,
}: {
  form: AnyForm;
  name: string;
  label: string;
  data: { value: string; label: string; disabled?: boolean }[];
  required?: boolean;
  readOnly?: boolean;
  clearable?: boolean;
  /** The form value is a number (an id) or a boolean ('true'/'false'). */
  numeric?: boolean | 'boolean';
  searchable?: boolean;
  onPicked?: (value: unknown) => void;
  description?: string;
}) {
  const fromForm = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
  const toForm = (v: string | null) => (v === null ? null : numeric === 'boolean' ? v === 'true' : numeric ? Number(v) : v);
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Select
          label={label}
          description={description}
          withAsterisk={required}
          readOnly={readOnly}
          data={data}
          value={fromForm(field.value)}
          onChange={(v) => {
            const next = toForm(v);
            field.onChange(next);
            onPicked?.(next);
          }}
          onBlur={field.onBlur}
          clearable={clearable}
          searchable={searchable}
          allowDeselect={clearable ?? false}
          error={errorOf(form, name)}
          data-testid={`field-${name}`}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );
}

/** A required yes/no choice stored as a boolean ('Yes' / 'No' of the masterData namespace). */
export function YesNoField({
  form,
  name,
  label,
  readOnly,
  required = true,
  description,
}: {
  form: AnyForm;
  name: string;
  label: string;
  readOnly?: boolean;
  required?: boolean;
  description?: string;
}) {
  const { t } = useTranslation('masterData');
  return (
    <SelectField
      form={form}
      name={name}
      label={label}
      description={description}
      required={required}
      numeric="boolean"
      readOnly={readOnly}
      data={[
        { value: 'true', label: t('yes') },
        { value: 'false', label: t('no') },
      ]}
    />
  );
}

export function MultiSelectField({
  form,
  name,
  label,
  data,
  required,
  readOnly,
}: {
  form: AnyForm;
  name: string;
  label: string;
  data: { value: string; label: string }[];
  required?: boolean;
  readOnly?: boolean;
}) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <MultiSelect
          label={label}
          withAsterisk={required}
          readOnly={readOnly}
          data={data}
          value={((field.value as number[] | undefined) ?? []).map(String)}
          onChange={(v) => field.onChange(v.map(Number))}
          onBlur={field.onBlur}
          searchable
          error={errorOf(form, name)}
          data-testid={`field-${name}`}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );
}
