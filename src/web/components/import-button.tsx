import { Button } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useIsManager } from '../lib/app-data';

/**
 * A list's Import entry (decision 042): opens the import wizard with the list's kind chosen. Managers and admins
 * only (workers import nothing); renders nothing for others.
 */
export function ImportButton({ kind, size }: { kind: string; size?: 'xs' | 'sm' }) {
  const { t } = useTranslation();
  const isManager = useIsManager();
  if (!isManager) return null;
  return (
    <Button
      component={Link}
      to={`/settings/import-export?kind=${kind}`}
      variant="default"
      size={size}
      leftSection={<IconFileImport size={size === 'xs' ? 14 : 16} />}
      data-testid="import-list"
    >
      {t('dataTransfer.import')}
    </Button>
  );
}
