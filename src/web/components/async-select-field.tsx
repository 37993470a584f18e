import { Controller, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { AsyncSelect, type AsyncSelectProps } from './async-select';

/** An AsyncSelect bound to a form field (its value and its error). */
export function AsyncSelectField<V extends FieldValues>({
  form,
  name,
  ...props
}: { form: UseFormReturn<V, any, any>; name: Path<V> } & Omit<AsyncSelectProps, 'value' | 'onChange' | 'error'>) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => <AsyncSelect {...props} value={field.value} onChange={(v) => field.onChange(v)} error={fieldState.error?.message} />}
    />
  );
}
