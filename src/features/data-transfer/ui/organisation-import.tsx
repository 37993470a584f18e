import { useState } from 'react';
import { Alert, Button, FileButton, List } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { confirmAction, notifySuccess, useBusyAction } from '../../../web/components';
import { request } from '../../../web/lib/api';
import { registerTranslations } from '../../../web/i18n';
import { AdminTool } from './admin-tool';
import { ORGANISATION_IMPORT_KINDS, type OrganisationImportResult } from '../data-transfer.schema';

registerTranslations('organisationImport', {
  en: {
    button: 'Import an organisation archive (ZIP)',
    hint: 'Brings every record and file of an organisation ZIP into this organisation. Only an empty organisation (just signed up) can import; at most 200 MB. People come in invited: they set their password through an invitation.',
    confirmTitle: 'Import the organisation archive?',
    confirmMessage: 'Every record and file of {{name}} will be added to this organisation, in one go. This cannot be undone.',
    confirm: 'Import',
    done: 'Organisation imported',
    failed: 'Failed to import the organisation',
    summary: 'Imported: {{rows}} records',
    kinds: {
      users: 'People: {{count}}',
      teams: 'Teams: {{count}}',
      masterData: 'Master data: {{count}}',
      customersVendors: 'Customers and vendors: {{count}}',
      assets: 'Assets: {{count}}',
      meters: 'Meters: {{count}}',
      parts: 'Parts: {{count}}',
      procedures: 'Procedures: {{count}}',
      plans: 'Preventive plans: {{count}}',
      requests: 'Maintenance requests: {{count}}',
      maintenanceOrders: 'Maintenance orders: {{count}}',
      workOrders: 'Work orders: {{count}}',
      labor: 'Labour entries: {{count}}',
      workOrderParts: 'Parts used: {{count}}',
      quotations: 'Quotations: {{count}}',
      purchaseOrders: 'Purchase orders: {{count}}',
      portalRequests: 'Portal requests: {{count}}',
      history: 'History entries: {{count}}',
      files: 'Files: {{count}}',
    },
  },
  ar: {
    button: 'استيراد أرشيف مؤسسة (ZIP)',
    hint: 'يضيف كل سجلات وملفات أرشيف ZIP لمؤسسة إلى هذه المؤسسة. لا يمكن الاستيراد إلا في مؤسسة فارغة (سُجّلت للتو)؛ الحد الأقصى 200 ميغابايت. يُضاف الأشخاص كمدعوين: يعيّنون كلمة المرور عبر دعوة.',
    confirmTitle: 'استيراد أرشيف المؤسسة؟',
    confirmMessage: 'ستُضاف كل سجلات وملفات {{name}} إلى هذه المؤسسة دفعة واحدة. لا يمكن التراجع عن ذلك.',
    confirm: 'استيراد',
    done: 'تم استيراد المؤسسة',
    failed: 'تعذر استيراد المؤسسة',
    summary: 'تم استيراد {{rows}} سجل',
    kinds: {
      users: 'الأشخاص: {{count}}',
      teams: 'الفرق: {{count}}',
      masterData: 'البيانات الأساسية: {{count}}',
      customersVendors: 'العملاء والموردون: {{count}}',
      assets: 'الأصول: {{count}}',
      meters: 'العدادات: {{count}}',
      parts: 'القطع: {{count}}',
      procedures: 'الإجراءات: {{count}}',
      plans: 'خطط الصيانة الوقائية: {{count}}',
      requests: 'طلبات الصيانة: {{count}}',
      maintenanceOrders: 'أوامر الصيانة: {{count}}',
      workOrders: 'أوامر العمل: {{count}}',
      labor: 'قيود العمالة: {{count}}',
      workOrderParts: 'القطع المستخدمة: {{count}}',
      quotations: 'عروض الأسعار: {{count}}',
      purchaseOrders: 'أوامر الشراء: {{count}}',
      portalRequests: 'طلبات البوابة: {{count}}',
      history: 'سجلات السجل: {{count}}',
      files: 'الملفات: {{count}}',
    },
  },
});

/** The admin's upload for `POST /api/data-transfer/import-organisation` (decision 069); nothing for other roles. */
export function OrganisationImport() {
  const { t } = useTranslation('organisationImport');
  const queryClient = useQueryClient();
  const { busy, run: withBusy } = useBusyAction();
  const [result, setResult] = useState<OrganisationImportResult | null>(null);
  const run = async (file: File | null) => {
    if (!file) return;
    if (!(await confirmAction({ title: t('confirmTitle'), message: t('confirmMessage', { name: file.name }), confirmLabel: t('confirm') }))) return;
    setResult(null);
    await withBusy(async () => {
      const data = new FormData();
      data.append('file', file, file.name);
      const answer = await request<OrganisationImportResult>('POST', '/data-transfer/import-organisation', data, { timeoutMs: 30 * 60_000 });
      setResult(answer);
      notifySuccess(t('done'));
      await queryClient.invalidateQueries();
    }, t('failed'));
  };
  return (
    <AdminTool hint={t('hint')}>
      <FileButton
        onChange={(file) => void run(file)}
        accept="application/zip,.zip"
        inputProps={{ 'data-testid': 'import-organisation-file' } as React.ComponentPropsWithoutRef<'input'>}
      >
        {(props) => (
          <Button {...props} w="fit-content" variant="default" leftSection={<IconFileImport size={16} />} loading={busy} data-testid="import-organisation">
            {t('button')}
          </Button>
        )}
      </FileButton>
      {result && (
        <Alert color="green" title={t('summary', { rows: result.rows })} data-testid="import-organisation-result">
          <List size="sm">
            {ORGANISATION_IMPORT_KINDS.filter((k) => result.counts[k] > 0).map((k) => (
              <List.Item key={k}>{t(`kinds.${k}`, { count: result.counts[k] })}</List.Item>
            ))}
          </List>
        </Alert>
      )}
    </AdminTool>
  );
}
