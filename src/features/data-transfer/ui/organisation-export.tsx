import { Button } from '@mantine/core';
import { IconFileZip } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useBusyAction } from '../../../web/components';
import { downloadFile } from '../../../web/lib/api';
import { registerTranslations } from '../../../web/i18n';
import { AdminTool } from './admin-tool';

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
  const { busy, run: withBusy } = useBusyAction();
  const run = async () => {
    await withBusy(async () => {
      await downloadFile('/data-transfer/export-organisation', 'organisation.zip', { timeoutMs: 30 * 60_000 });
    }, t('failed'));
  };
  return (
    <AdminTool hint={t('hint')}>
      <Button w="fit-content" leftSection={<IconFileZip size={16} />} onClick={() => void run()} loading={busy} data-testid="export-organisation">
        {t('button')}
      </Button>
    </AdminTool>
  );
}
