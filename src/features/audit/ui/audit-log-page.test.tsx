import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import AuditLogPage from './audit-log-page';

const server = realServer();

describe('audit log page: checking the chain (on the real server)', () => {
  it("says the chain is intact; a failed check is the button's toast; not busy after either", async () => {
    const session = await server.signIn('admin');
    renderWithProviders(<AuditLogPage />);
    const button = await screen.findByTestId('audit-check');
    await userEvent.click(button);
    expect(await screen.findByTestId('audit-check-result')).toHaveTextContent(/^The chain is intact: \d+ rows? checked\.$/);
    await waitFor(() => expect(button).toBeEnabled());

    session.fail('GET /api/audit-log/check-audit-chain', { status: 500, body: { error: 'Internal Server Error' } });
    await userEvent.click(button);
    expect(await screen.findByText('The check failed')).toBeInTheDocument();
    await waitFor(() => expect(button).toBeEnabled());
    expect(session.calls.filter((c) => c.url.pathname === '/api/audit-log/check-audit-chain').map((c) => c.status)).toEqual([200, 500]);
  });
});
