import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { InviteUserDialog } from './invite-user-dialog';

describe('Add User: the e-mail confirmation', () => {
  it('says "Emails do not match" when the confirmation is left with another address, before any role is chosen', async () => {
    stubFetch({});
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
});
