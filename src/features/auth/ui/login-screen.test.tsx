import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoginScreen } from './login-screen';
import { loginSchema } from '../login.schema';

afterEach(() => vi.restoreAllMocks());

describe('the login form: the password rule of spec section 5', () => {
  it('refuses a password under 8 characters with the spec message and sends nothing', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    render(
      <LoginScreen
        t={(k) => k}
        language="en"
        onLanguage={() => {}}
        themePreference="light"
        onThemePreference={() => {}}
        status="signedOut"
        onSignedIn={() => {}}
        onError={() => {}}
      />,
    );
    await userEvent.type(screen.getByTestId('login-email'), 'ann@acme.test');
    await userEvent.type(screen.getByTestId('login-password'), 'Short1!');
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    // the route reads the same schema: an empty password keeps its own message
    expect(loginSchema.safeParse({ email: 'ann@acme.test', password: '' }).error?.issues[0].message).toBe('Password is required');
  });
});
