import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess, useMoney, useNotifiedQuery } from '../../../web/components';
import { api, errorMessage } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { CustomerVendorSelect } from '../../customers-vendors/ui/customer-vendor-select';
import type { PartStockSettingsDto } from '../../stock/stock.schema';
import './parts-i18n';

/** The part's preferred vendor (reorders are drafted to it; managers change it) and its moving average cost (decision 081). */
export function PartStockSettings({ partId }: { partId: number }) {
  const { t } = useTranslation('parts');
  const money = useMoney();
  const isManager = useIsManager();
  const queryClient = useQueryClient();
  const settings = useNotifiedQuery(
    {
      queryKey: ['stock', 'part-settings', partId],
      queryFn: ({ signal }) => api.get<{ settings: PartStockSettingsDto }>(`/stock/get-part-stock-settings/${partId}`, { signal }),
    },
    t('stockSettings.fetchFailed'),
  );
  const current = settings.data?.settings;
  const [vendorId, setVendorId] = useState<number | null | undefined>(undefined);
  const chosen = vendorId === undefined ? (current?.preferredVendor?.id ?? null) : vendorId;
  const save = async () => {
    try {
      await api.put('/stock/update-part-stock-settings', { partId, preferredVendorId: chosen });
      notifySuccess(t('stockSettings.saved'));
      setVendorId(undefined);
      void queryClient.invalidateQueries({ queryKey: ['stock', 'part-settings', partId] });
    } catch (err) {
      notifyError(errorMessage(err, t('stockSettings.saveFailed')));
    }
  };
  if (!current) return null;
  return (
    <Group align="flex-end" gap="md" data-testid="part-stock-settings">
      <div style={{ flex: 1, minWidth: 200 }}>
        <CustomerVendorSelect
          type="vendor"
          label={t('stockSettings.preferredVendor')}
          value={chosen}
          onChange={(v) => setVendorId(v)}
          initialOption={current.preferredVendor ? { value: current.preferredVendor.id, label: current.preferredVendor.name } : null}
          quickCreate={false}
          clearable
          disabled={!isManager}
          testId="part-preferred-vendor"
        />
      </div>
      {isManager && (
        <Button variant="light" onClick={() => void save()} disabled={vendorId === undefined} data-testid="save-preferred-vendor">
          {t('stockSettings.save')}
        </Button>
      )}
      <div>
        <Text size="xs" c="dimmed">
          {t('stockSettings.averageCost')}
        </Text>
        <Text fw={600} data-testid="part-average-cost">
          {current.averageCostMinor === null ? t('stockSettings.noCost') : money.formatMinor(current.averageCostMinor)}
        </Text>
      </div>
    </Group>
  );
}
