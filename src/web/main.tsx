import { isOrganizationHost } from './lib/org-host';

// Most visits start at an organisation's /login: that page boots without Mantine, the router or i18next
// (issue 9: at most 100 KB of gzipped JavaScript) and loads the full app only after signing in.
const root = document.getElementById('root')!;
const path = window.location.pathname.replace(/\/+$/, '');
if (path === '/login' && isOrganizationHost()) void import('../features/auth/ui/login-standalone').then((m) => m.bootLogin(root));
else void import('./boot-app').then((m) => m.mountApp(root));
