import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { loadTimeRefresh, logout as apiLogout, refreshSession, setSessionEndHandler } from '../lib/api';
import { clearAccessToken, getAccessToken, mayHaveSession, onOtherTabAuth, setAccessToken, subscribeSession } from '../lib/session';
import { appDataQuery } from '../lib/app-data';
import { isMyWorkPath, isSignedInPath } from './signed-in-path';

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
 * A public page (login, register, invitation, the landing pages) in a browser that holds no session of this
 * host: no refresh call, which could only fail and log a 401 in the console.
 */
const publicWithoutSession = (pathname: string) => !getAccessToken() && !isSignedInPath(pathname) && !mayHaveSession();

/**
 * Resolves the sign-in state once per page load: a token in sessionStorage, else one refresh through the
 * HttpOnly cookie (which also signs in a new tab). Follows other tabs' sign-in and sign-out.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  // On a signed-in page the first render says 'loading' even with a token at hand: the shell and the page then
  // mount through the transition below. Mounted at once they would replace the spinner React shows while the
  // shell's module arrives, and React holds such a reveal back until 300 ms after that spinner appeared.
  const [status, setStatus] = useState<AuthStatus>(() =>
    getAccessToken() && !isSignedInPath(pathname) ? 'signedIn' : publicWithoutSession(pathname) ? 'signedOut' : 'loading',
  );

  useEffect(() => {
    let cancelled = false;
    // a public page of a browser without a session asks nothing (it is signed out from the first render)
    const skipRefresh = publicWithoutSession(pathname);
    let resolving = !getAccessToken() && !skipRefresh;
    // A signed-in page's shell reads the application data from its first render: asked for as soon as the
    // session is known (the shell's and page's modules are usually still arriving), not once the shell has
    // mounted, which then rendered it all a second time.
    const prefetchAppData = () => {
      // My work reads its own data (the device copy); it has no use for the manager's application data
      if (isSignedInPath(pathname) && !isMyWorkPath(pathname)) void queryClient.prefetchQuery(appDataQuery);
    };
    // a transition: the signed-in shell and page then mount in slices, without a long task blocking input
    if (skipRefresh) {
      // nothing to resolve
    } else if (resolving) {
      void loadTimeRefresh().then((token) => {
        resolving = false;
        if (cancelled) return;
        if (token) prefetchAppData();
        startTransition(() => setStatus(token ? 'signedIn' : 'signedOut'));
      });
    } else {
      // a token from this tab's session, or stored by the load-time refresh (started by the entry, main.tsx)
      prefetchAppData();
      startTransition(() => setStatus('signedIn'));
    }
    const unsubscribe = subscribeSession(() => {
      const next = getAccessToken() ? 'signedIn' : 'signedOut';
      // the load-time refresh stores its token (and tells this listener) before its promise resolves: that
      // update is the same transition; later sign-ins and sign-outs apply at once
      if (resolving) startTransition(() => setStatus(next));
      else setStatus(next);
    });
    return () => {
      cancelled = true;
      unsubscribe();
    };
    // once per page load (queryClient is the app's only one)
    // eslint-disable-next-line react-hooks/exhaustive-deps
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
