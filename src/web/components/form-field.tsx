import type { ComponentType, ReactNode } from 'react';
import { Controller, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';

/** What a control bound by FormField takes: a value, a change, an error. */
type Bindable = { value?: any; onChange?: any; error?: ReactNode };

/**
 * A control bound to a form field (react-hook-form's Controller): `value` and `onChange` come from the field,
 * `error` from its message unless given. Any control with value / onChange / error: Mantine's Select and
 * MultiSelect, the record pickers, DateTimeField, RichTextField. The other props go to the control.
 */
export function FormField<V extends FieldValues, P extends Bindable>({
  form,
  name,
  component: Control,
  ...props
}: { form: UseFormReturn<V, any, any>; name: Path<V>; component: ComponentType<P> } & Omit<P, 'value' | 'onChange' | 'form' | 'name' | 'component'>) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => {
        const bound = {
          ...props,
          value: field.value,
          onChange: (value: unknown) => field.onChange(value),
          error: (props as Bindable).error ?? fieldState.error?.message,
        };
        return <Control {...(bound as unknown as P)} />;
      }}
    />
  );
}
