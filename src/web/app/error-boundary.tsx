import { Component, type ReactNode } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { i18n } from '../i18n';

/** Keeps the shell alive when one page throws: the page shows the error and a Reload button. */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error) {
    console.error(error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Alert color="red" icon={<IconAlertTriangle />} title={i18n.t('common:errors.pageTitle')} data-testid="page-error">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{i18n.t('common:errors.pageText')}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => window.location.reload()}>
            {i18n.t('common:errors.reload')}
          </Button>
        </Stack>
      </Alert>
    );
  }
}
