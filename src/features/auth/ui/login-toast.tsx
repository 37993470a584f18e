import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { createRoot, type Root } from 'react-dom/client';
import { notifyError } from '../../../web/components/notify';
import { cssVariablesResolver, theme } from '../../../web/theme/theme';

let root: Root | null = null;

/** The app's red toast (top right) on the lean login screen: Mantine is loaded only when a sign-in fails. */
export function showErrorToast(message: string) {
  if (!root) {
    const el = document.createElement('div');
    document.body.appendChild(el);
    root = createRoot(el);
    const scheme = document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark' ? 'dark' : 'light';
    root.render(
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} forceColorScheme={scheme}>
        <Notifications position="top-right" zIndex={4000} />
      </MantineProvider>,
    );
  }
  // the Notifications store exists once the provider has rendered
  setTimeout(() => notifyError(message), 0);
}
