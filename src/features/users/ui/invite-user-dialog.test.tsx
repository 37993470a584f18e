import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import { InviteUserDialog } from './invite-user-dialog';

const server = realServer();

// A loaded machine (several runs on two cores) took over the project's 60 s for the app and the dialog.
describe('Add User: the e-mail confirmation', { timeout: 180_000 }, () => {
  it('says "Emails do not match" when the confirmation is left with another address, before any role is chosen', async () => {
    await server.signIn('admin');
    renderWithProviders(<InviteUserDialog opened onClose={() => {}} />);
    await userEvent.type(await screen.findByTestId('invite-email'), 'ann@acme.test');
    await userEvent.type(screen.getByTestId('invite-confirm-email'), 'anne@acme.test');
    await userEvent.tab();
    expect(await screen.findByText('Emails do not match')).toBeInTheDocument();
    // no role is chosen and the role's message waits for Save
    expect(screen.queryByText('Role is required')).toBeNull();
    // fixing the address clears it at once
    await userEvent.clear(screen.getByTestId('invite-confirm-email'));
    await userEvent.type(screen.getByTestId('invite-confirm-email'), 'ann@acme.test');
    await waitFor(() => expect(screen.queryByText('Emails do not match')).toBeNull());
  });

  it("sends the invitation in the language the admin chooses, the admin's own by default (issue 46)", async () => {
    const { org, calls } = await server.signIn('admin');
    renderWithProviders(<InviteUserDialog opened onClose={() => {}} />);
    const language = await screen.findByTestId('invite-language');
    expect(language).toHaveValue('English');
    await userEvent.type(screen.getByTestId('invite-email'), 'ann@acme.test');
    await userEvent.type(screen.getByTestId('invite-confirm-email'), 'ann@acme.test');
    await userEvent.click(screen.getByTestId('invite-role'));
    await userEvent.click(await screen.findByRole('option', { name: 'Worker' }));
    await userEvent.click(language);
    await userEvent.click(await screen.findByRole('option', { name: 'العربية' }));
    await userEvent.click(screen.getByTestId('invite-send'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({
      email: 'ann@acme.test',
      confirmEmail: 'ann@acme.test',
      role: 'worker',
      language: 'ar',
    });
    expect(post.status).toBe(201);
    const users = (await org.admin.get('/api/user/getCompanyUsers?pageSize=100')).body.users as { email: string; role: string }[];
    expect(users.find((u) => u.email === 'ann@acme.test')).toMatchObject({ role: 'worker', language: 'ar' });
  });
});
