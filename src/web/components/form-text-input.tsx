import { TextInput, type TextInputProps } from '@mantine/core';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

/** A TextInput registered on a form field; its error is the field's (the form's own TextInput, as FormTextarea is its Textarea). */
export function FormTextInput<V extends FieldValues>({
  form,
  name,
  testId,
  ...props
}: { form: UseFormReturn<V, any, any>; name: Path<V>; testId?: string } & Omit<TextInputProps, 'form' | 'name' | 'error'>) {
  return <TextInput {...props} {...form.register(name)} error={form.getFieldState(name, form.formState).error?.message} data-testid={testId} />;
}
