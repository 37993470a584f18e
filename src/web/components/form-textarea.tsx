import { Textarea, type TextareaProps } from '@mantine/core';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

/** A Textarea that grows with its text, registered on a form field; its error is the field's. */
export function FormTextarea<V extends FieldValues>({
  form,
  name,
  testId,
  ...props
}: { form: UseFormReturn<V, any, any>; name: Path<V>; testId: string } & Omit<TextareaProps, 'form' | 'name' | 'error'>) {
  return <Textarea autosize {...props} {...form.register(name)} error={form.getFieldState(name, form.formState).error?.message} data-testid={testId} />;
}
