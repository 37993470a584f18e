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

/** What every field takes: its form, its name (dotted for nested values), its label, and how it is shown. */
interface FieldProps {
  form: AnyForm;
  name: string;
  label: string;
  required?: boolean;
  readOnly?: boolean;
  description?: string;
}

/** The input props every field shares: label, asterisk, read-only, description, the error and the test id. */
const common = ({ form, name, label, required, readOnly, description }: FieldProps, testId?: string) => ({
  label,
  withAsterisk: required,
  readOnly,
  description,
  error: errorOf(form, name),
  'data-testid': testId ?? `field-${name}`,
});

export function TextField(props: Omit<FieldProps, 'description'> & { testId?: string }) {
  return <TextInput {...common(props, props.testId)} {...props.form.register(props.name)} />;
}

/** A number typed as text: the schema says 'Only numbers are allowed' rather than the input refusing keystrokes. */
export function NumberField({ prefix, suffix, decimalScale = 6, ...props }: FieldProps & { prefix?: string; suffix?: string; decimalScale?: number }) {
  return (
    <Controller
      control={props.form.control}
      name={props.name}
      render={({ field }) => (
        <NumberInput
          {...common(props)}
          value={field.value ?? ''}
          onChange={(v) => field.onChange(v === '' ? '' : v)}
          onBlur={field.onBlur}
          prefix={prefix}
          suffix={suffix}
          decimalScale={decimalScale}
          hideControls
        />
      )}
    />
  );
}

export function SelectField({
  data,
  clearable,
  numeric,
  searchable,
  onPicked,
  ...props
}: FieldProps & {
  data: { value: string; label: string; disabled?: boolean }[];
  clearable?: boolean;
  /** The form value is a number (an id) or a boolean ('true'/'false'). */
  numeric?: boolean | 'boolean';
  searchable?: boolean;
  onPicked?: (value: unknown) => void;
}) {
  const fromForm = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
  const toForm = (v: string | null) => (v === null ? null : numeric === 'boolean' ? v === 'true' : numeric ? Number(v) : v);
  return (
    <Controller
      control={props.form.control}
      name={props.name}
      render={({ field }) => (
        <Select
          {...common(props)}
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
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );
}

/** A required yes/no choice stored as a boolean ('Yes' / 'No' of the masterData namespace). */
export function YesNoField({ required = true, ...props }: FieldProps) {
  const { t } = useTranslation('masterData');
  return (
    <SelectField
      {...props}
      required={required}
      numeric="boolean"
      data={[
        { value: 'true', label: t('yes') },
        { value: 'false', label: t('no') },
      ]}
    />
  );
}

export function MultiSelectField({ data, ...props }: Omit<FieldProps, 'description'> & { data: { value: string; label: string }[] }) {
  return (
    <Controller
      control={props.form.control}
      name={props.name}
      render={({ field }) => (
        <MultiSelect
          {...common(props)}
          data={data}
          value={((field.value as number[] | undefined) ?? []).map(String)}
          onChange={(v) => field.onChange(v.map(Number))}
          onBlur={field.onBlur}
          searchable
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );
}
