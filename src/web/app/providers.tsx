import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { DirectionProvider, MantineProvider, useDirection } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api';
import { ModalsHost, NotificationsHost } from '../components/overlay-hosts';
import { i18n } from '../i18n';
import { cssVariablesResolver, themeWithNames } from '../theme/theme';
import { FocusKeeper } from '../components/focus-keeper';
import { ThemePreferenceProvider } from './theme-preference';

/** One query client per app: no retries on 4xx (they will not change), one on network errors. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (count, err) => count < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
        refetchOnWindowFocus: false,
        staleTime: 15_000,
      },
      mutations: { retry: false },
    },
  });
}

function DirectionSync() {
  const { i18n: instance } = useTranslation();
  const { setDirection } = useDirection();
  useEffect(() => setDirection(instance.language === 'ar' ? 'rtl' : 'ltr'), [instance.language, setDirection]);
  return null;
}

/** Mantine (theme, colour scheme, RTL), toasts top right and modals (both loaded on first use), dates, react-query and i18n. Must sit inside the router. */
export function AppProviders({ children, queryClient, env }: { children: ReactNode; queryClient: QueryClient; env?: 'default' | 'test' }) {
  return (
    <I18nextProvider i18n={i18n}>
      <ThemedProviders queryClient={queryClient} env={env}>
        {children}
      </ThemedProviders>
    </I18nextProvider>
  );
}

const onLanguageChange = (notify: () => void) => {
  i18n.on('languageChanged', notify);
  return () => i18n.off('languageChanged', notify);
};

/** The providers under i18n: the theme names the close buttons in the reader's language. */
function ThemedProviders({ children, queryClient, env }: { children: ReactNode; queryClient: QueryClient; env?: 'default' | 'test' }) {
  // Not useTranslation: it would suspend the whole app while a namespace loads. The label follows the language.
  const language = useSyncExternalStore(onLanguageChange, () => i18n.language);
  const theme = themeWithNames(i18n.t('common:actions.close', { lng: language }));
  return (
    <QueryClientProvider client={queryClient}>
      <DirectionProvider initialDirection={i18n.language === 'ar' ? 'rtl' : 'ltr'} detectDirection={false}>
        <ThemePreferenceProvider>
          {(scheme) => (
            <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} forceColorScheme={scheme} env={env}>
              <DirectionSync />
              <FocusKeeper />
              <DatesProvider settings={{ locale: i18n.language === 'ar' ? 'ar' : 'en', firstDayOfWeek: 0 }}>
                <NotificationsHost position="top-right" zIndex={4000} />
                {children}
                <ModalsHost />
              </DatesProvider>
            </MantineProvider>
          )}
        </ThemePreferenceProvider>
      </DirectionProvider>
    </QueryClientProvider>
  );
}
