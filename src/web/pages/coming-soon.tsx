import { useTranslation } from 'react-i18next';
import { EmptyState } from '../components/empty-state';

/** Shown by a route whose feature page is not in place yet. */
export function ComingSoon({ title }: { title: string }) {
  const { t } = useTranslation();
  return <EmptyState title={title} description={t('shell.beingSetUp')} />;
}
