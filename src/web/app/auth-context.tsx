import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { logout as apiLogout, refreshSession, setSessionEndHandler } from '../lib/api';
import { clearAccessToken, getAccessToken, onOtherTabAuth, setAccessToken, subscribeSession } from '../lib/session';

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

interface AuthContextValue {
  status: AuthStatus;
  /** Stores a fresh access token (after /api/login) and tells other tabs. */
  signIn(accessToken: string): void;
  /** Calls /api/logout, clears the token and the caches, goes to /login. */
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/**
 * Resolves the sign-in state once per page load: a token in sessionStorage, else one refresh through the
 * HttpOnly cookie (which also signs in a new tab). Follows other tabs' sign-in and sign-out.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<AuthStatus>(() => (getAccessToken() ? 'signedIn' : 'loading'));

  useEffect(() => {
    let cancelled = false;
    // a transition: the signed-in shell and page then mount in slices, without a long task blocking input
    if (!getAccessToken()) {
      void refreshSession().then((token) => {
        if (!cancelled) startTransition(() => setStatus(token ? 'signedIn' : 'signedOut'));
      });
    } else {
      // the boot's early refresh (boot-app.tsx) may have stored the token after the first render
      startTransition(() => setStatus('signedIn'));
    }
    const unsubscribe = subscribeSession(() => setStatus(getAccessToken() ? 'signedIn' : 'signedOut'));
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, []);

  useEffect(() => {
    setSessionEndHandler(() => {
      queryClient.clear();
      navigate('/login', { replace: true });
    });
    return onOtherTabAuth((type) => {
      if (type === 'logout') {
        clearAccessToken();
        queryClient.clear();
        navigate('/login', { replace: true });
      } else if (!getAccessToken()) {
        void refreshSession();
      }
    });
  }, [navigate, queryClient]);

  const signIn = useCallback((token: string) => setAccessToken(token, { broadcast: true }), []);
  const signOut = useCallback(async () => {
    await apiLogout();
    queryClient.clear();
    navigate('/login', { replace: true });
  }, [navigate, queryClient]);

  const value = useMemo(() => ({ status, signIn, signOut }), [status, signIn, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
