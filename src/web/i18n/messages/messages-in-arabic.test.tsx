import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { notifications } from '@mantine/notifications';
import { i18n, loadLanguage } from '..';
import { zodResolver } from '../../lib/form-resolver';
import { api, applyApiErrors, ApiError, errorMessage } from '../../lib/api';
import { notifyError, notifySuccess } from '../../components/notify';
import { stubFetch } from '../../test/render';
import { customerVendorFields } from '../../../features/customers-vendors/customers-vendors.schema';

function CustomerForm({ serverError }: { serverError?: unknown }) {
  const form = useForm({ resolver: zodResolver(customerVendorFields.pick({ name: true })), defaultValues: { name: 'ab' } });
  return (
    <form
      onSubmit={form.handleSubmit(
        () => applyApiErrors(serverError, form.setError),
        () => undefined,
      )}
    >
      <input aria-label="name" {...form.register('name')} />
      <p data-testid="error">{form.formState.errors.name?.message}</p>
      <button type="submit">go</button>
    </form>
  );
}

describe('the contract’s English messages in Arabic (decision 065)', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
    vi.restoreAllMocks();
  });

  it('a zod message under a form field', async () => {
    await loadLanguage('ar');
    await i18n.changeLanguage('ar');
    render(<CustomerForm />);
    fireEvent.click(screen.getByText('go'));
    await waitFor(() => expect(screen.getByTestId('error')).toHaveTextContent('يجب ألا يقل الاسم عن 3 أحرف'));
  });

  it('the same form in English keeps the spec’s words', async () => {
    await i18n.changeLanguage('en');
    render(<CustomerForm />);
    fireEvent.click(screen.getByText('go'));
    await waitFor(() => expect(screen.getByTestId('error')).toHaveTextContent('Name must be at least 3 characters long'));
  });

  it('a server refusal, its field issues and a toast', async () => {
    await loadLanguage('ar');
    await i18n.changeLanguage('ar');
    stubFetch({
      'POST /api/users/add-user': () => ({
        status: 409,
        body: { error: 'A user with this email already exists', issues: [{ path: 'name', message: 'Name is required' }] },
      }),
    });
    const err = await api.post('/users/add-user', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    // the API's answer stays the contract's English; the reader sees Arabic
    expect((err as ApiError).message).toBe('A user with this email already exists');
    expect(errorMessage(err)).toBe('يوجد مستخدم بهذا البريد الإلكتروني بالفعل');
    expect(errorMessage(new Error('boom'))).toBe('عذرًا، حدث خطأ ما...');

    const show = vi.spyOn(notifications, 'show').mockImplementation(() => '');
    notifySuccess('Category added successfully');
    notifyError('Failed to update user');
    expect(show.mock.calls.map(([n]) => n.message)).toEqual(['تمت إضافة الفئة بنجاح', 'تعذر تحديث المستخدم']);

    render(<CustomerForm serverError={err} />);
    fireEvent.change(screen.getByLabelText('name'), { target: { value: 'Valid name' } });
    fireEvent.click(screen.getByText('go'));
    await waitFor(() => expect(screen.getByTestId('error')).toHaveTextContent('الاسم مطلوب'));
  });
});
