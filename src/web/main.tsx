import { isOrganizationHost } from './lib/org-host';
import { isMyWorkPath, isSignedInPath } from './app/signed-in-path';
import { askFirstPageEarly } from '../features/my-work/ui/first-page';
import { loadTimeRefresh } from './lib/api';
import { getAccessToken, sessionUserHint } from './lib/session';

// Most visits start at an organisation's /login: that page boots without Mantine, the router or i18next
// (issue 9: at most 100 KB of gzipped JavaScript) and loads the full app only after signing in.
const root = document.getElementById('root')!;
const path = window.location.pathname.replace(/\/+$/, '');
if (path === '/login' && isOrganizationHost()) void import('../features/auth/ui/login-standalone').then((m) => m.bootLogin(root));
else {
  // A signed-in page opened cold: the session refresh (the refresh cookie) starts now, beside the app's
  // modules, instead of once those have arrived and run (then it queued behind the shell's and page's chunks).
  if (isSignedInPath(path) && !getAccessToken()) void loadTimeRefresh();
  // The technician's app opened cold (issue 46): its first page of work is asked beside the shell's modules
  // (the server's page already fetches the page's own chunks with the entry: src/server/spa-preloads.ts). Not
  // when the device holds this session user's copy: its cards show from it at once and the sync refreshes them
  // just after, instead of an answer landing in the middle of the first screen (decision 041).
  if (isMyWorkPath(path) && sessionUserHint() === null) askFirstPageEarly();
  void import('./boot-app').then((m) => m.mountApp(root));
}
