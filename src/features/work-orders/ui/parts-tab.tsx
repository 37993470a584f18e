import { useState } from 'react';
import { Button, Group, Loader, NumberInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AsyncSelect, DetailTable, notifySuccess, removeWithConfirmation, useBusyAction, useMoney, useNotifiedQuery } from '../../../web/components';
import { api } from '../../../web/lib/api';
import type { WorkOrderPartDto } from '../work-orders.schema';
import type { PartsReadiness } from '../../stock/stock.schema';
import { PartsReadinessBadge } from './parts-readiness';
import { StoreroomSelect, useStoreroomOptions } from '../../stock/ui/storeroom-select';

type PartList = { workOrderParts: WorkOrderPartDto[]; partsReadiness?: PartsReadiness };
const partsKey = (workOrderId: number) => ['work-orders', 'parts', workOrderId] as const;

/** Parts tab: pick a part from the options, a quantity, add; name, sales price, quantity, line total; total cost. */
export function PartsTab({ workOrderId, onChanged }: { workOrderId: number; onChanged(): void }) {
  const { t } = useTranslation('workOrders');
  const money = useMoney();
  const queryClient = useQueryClient();
  const [partId, setPartId] = useState<number | null>(null);
  const [quantity, setQuantity] = useState<number>(1);
  // The storeroom the part comes from (decision 071): the default one unless chosen.
  const [locationId, setLocationId] = useState<number | null>(null);
  const storerooms = useStoreroomOptions();
  const storeroomName = (id: number | null) => storerooms.data?.find((o) => o.value === id)?.label ?? '';
  const { busy, run: withBusy } = useBusyAction();
  const query = useNotifiedQuery(
    { queryKey: partsKey(workOrderId), queryFn: ({ signal }) => api.get<PartList>(`/work-orders/get-parts/${workOrderId}`, { signal }) },
    t('toast.failedParts'),
  );
  const rows = query.data?.workOrderParts ?? [];
  /** Keeps the order's parts and their readiness as an add, use or delete answered them. */
  const keep = (res: PartList) => queryClient.setQueryData(partsKey(workOrderId), { workOrderParts: res.workOrderParts, partsReadiness: res.partsReadiness });
  // A contractor's price is null for a worker (amounts are for managers): not counted, shown empty.
  const total = rows.reduce((sum, p) => sum + (p.Part.salesPrice ?? 0) * p.quantity, 0);

  const add = async () => {
    if (!partId) return;
    await withBusy(async () => {
      const res = await api.post<PartList>(`/work-orders/add-parts/${workOrderId}`, {
        parts: [{ partId, quantity: Math.max(1, Math.round(quantity || 1)), ...(locationId ? { locationId } : {}) }],
      });
      keep(res);
      notifySuccess(t('toast.partAdded'));
      setPartId(null);
      setQuantity(1);
      onChanged();
    }, t('toast.failedAddPart'));
  };

  const takeReserved = async () => {
    await withBusy(async () => {
      const res = await api.post<PartList>(`/work-orders/use-parts/${workOrderId}`, {});
      keep(res);
      notifySuccess(t('parts.used'));
      onChanged();
    }, t('parts.failedUse'));
  };

  const remove = (row: WorkOrderPartDto) =>
    removeWithConfirmation({
      confirm: t('parts.confirmDelete'),
      remove: () => api.del<PartList>(`/work-orders/delete-part/${workOrderId}/part/${row.partId}`),
      success: t('toast.partDeleted'),
      failure: t('toast.failedDeletePart'),
      onRemoved: (res) => {
        keep(res);
        onChanged();
      },
    });

  if (query.isLoading) return <Loader size="sm" />;
  return (
    <DetailTable
      testId="parts-tab"
      before={
        <Group align="flex-end" wrap="wrap">
          <div style={{ flex: '1 1 240px' }}>
            <AsyncSelect path="/parts/get-parts-options" label={t('parts.pick')} value={partId} onChange={(v) => setPartId(v)} testId="part-select" />
          </div>
          <div style={{ flex: '1 1 200px' }}>
            <StoreroomSelect value={locationId} onChange={setLocationId} partId={partId} testId="part-storeroom" />
          </div>
          <NumberInput
            label={t('parts.quantity')}
            value={quantity}
            onChange={(v) => setQuantity(Number(v) || 1)}
            min={1}
            allowDecimal={false}
            w={110}
            data-testid="part-quantity"
          />
          <Button leftSection={<IconPlus size={16} />} onClick={() => void add()} disabled={!partId} loading={busy} data-testid="add-part">
            {t('parts.add')}
          </Button>
          <PartsReadinessBadge readiness={query.data?.partsReadiness} />
          {query.data?.partsReadiness && query.data.partsReadiness.status !== 'none' ? (
            <Button variant="light" onClick={() => void takeReserved()} loading={busy} data-testid="use-reserved-parts">
              {t('parts.use')}
            </Button>
          ) : null}
        </Group>
      }
      rows={rows}
      rowKey={(p) => p.id}
      rowTestId="part-row"
      minWidth={480}
      emptyText={t('parts.empty')}
      columns={[
        { header: t('parts.name'), cell: (p) => (p.external ? t('shares.asContractor', { ns: 'translation', name: p.Part.name }) : p.Part.name) },
        { header: t('parts.price'), cell: (p) => (p.Part.salesPrice === null ? '' : money.format(p.Part.salesPrice)) },
        { header: t('parts.quantity'), cell: (p) => p.quantity },
        { header: t('parts.storeroom'), cell: (p) => storeroomName(p.locationId) },
        { header: t('parts.lineTotal'), cell: (p) => (p.Part.salesPrice === null ? '' : money.format(p.Part.salesPrice * p.quantity)) },
      ]}
      onRemove={(p) => void remove(p)}
      // A contractor's part (shared work order) is theirs: it stays in the cost.
      canRemove={(p) => !p.external}
      total={`${t('parts.total')}: ${money.format(total)}`}
      totalTestId="parts-total"
    />
  );
}
