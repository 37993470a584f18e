import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { AppProviders, createQueryClient } from './providers';
import { AuthProvider } from './auth-context';
import { AppRoutes } from './app-routes';
import { UpdatePrompt } from '../pwa/update-prompt';

/** The whole SPA. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <BrowserRouter>
      <AppProviders queryClient={queryClient}>
        <AuthProvider>
          <AppRoutes />
          <UpdatePrompt />
        </AuthProvider>
      </AppProviders>
    </BrowserRouter>
  );
}
