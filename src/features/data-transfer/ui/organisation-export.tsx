import { Button, Stack, Text } from '@mantine/core';
import { IconFileZip } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useBusyAction } from '../../../web/components';
import { downloadFile } from '../../../web/lib/api';
import { useCurrentUser } from '../../../web/lib/app-data';
import { registerTranslations } from '../../../web/i18n';

registerTranslations('organisationExport', {
  en: {
    button: 'Download the whole organisation (ZIP)',
    hint: 'A CSV of every list and every uploaded file, in one archive. Admins only.',
    failed: 'Failed to export the organisation',
  },
  ar: {
    button: 'تنزيل بيانات المؤسسة كاملة (ZIP)',
    hint: 'ملف CSV لكل قائمة وكل الملفات المرفوعة في أرشيف واحد. للمسؤولين فقط.',
    failed: 'تعذر تصدير بيانات المؤسسة',
  },
});

/** The admin's button for `GET /api/data-transfer/export-organisation` (decision 042); nothing for other roles. */
export function OrganisationExport() {
  const { t } = useTranslation('organisationExport');
  const isAdmin = useCurrentUser()?.role === 'admin';
  const { busy, run: withBusy } = useBusyAction();
  if (!isAdmin) return null;
  const run = async () => {
    await withBusy(async () => {
      await downloadFile('/data-transfer/export-organisation', 'organisation.zip', { timeoutMs: 30 * 60_000 });
    }, t('failed'));
  };
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed">
        {t('hint')}
      </Text>
      <Button w="fit-content" leftSection={<IconFileZip size={16} />} onClick={() => void run()} loading={busy} data-testid="export-organisation">
        {t('button')}
      </Button>
    </Stack>
  );
}
