import { useEffect, useState } from 'react';
import { ActionIcon, Button, Group, Loader, NumberInput, Stack, Table, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AsyncSelect, confirmDelete, notifyError, notifySuccess, useMoney } from '../../../web/components';
import { api, errorMessage } from '../../../web/lib/api';
import type { WorkOrderPartDto } from '../work-orders.schema';

type PartList = { workOrderParts: WorkOrderPartDto[] };
const partsKey = (workOrderId: number) => ['work-orders', 'parts', workOrderId] as const;

/** Parts tab: pick a part from the options, a quantity, add; name, sales price, quantity, line total; total cost. */
export function PartsTab({ workOrderId, onChanged }: { workOrderId: number; onChanged(): void }) {
  const { t } = useTranslation('workOrders');
  const money = useMoney();
  const queryClient = useQueryClient();
  const [partId, setPartId] = useState<number | null>(null);
  const [quantity, setQuantity] = useState<number>(1);
  const [busy, setBusy] = useState(false);
  const query = useQuery({
    queryKey: partsKey(workOrderId),
    queryFn: ({ signal }) => api.get<PartList>(`/work-orders/get-parts/${workOrderId}`, { signal }),
  });
  useEffect(() => {
    if (query.isError) notifyError(t('toast.failedParts'));
  }, [query.isError, t]);
  const rows = query.data?.workOrderParts ?? [];
  const total = rows.reduce((sum, p) => sum + p.Part.salesPrice * p.quantity, 0);

  const add = async () => {
    if (!partId) return;
    setBusy(true);
    try {
      const res = await api.post<PartList>(`/work-orders/add-parts/${workOrderId}`, { parts: [{ partId, quantity: Math.max(1, Math.round(quantity || 1)) }] });
      queryClient.setQueryData(partsKey(workOrderId), { workOrderParts: res.workOrderParts });
      notifySuccess(t('toast.partAdded'));
      setPartId(null);
      setQuantity(1);
      onChanged();
    } catch (err) {
      notifyError(errorMessage(err, t('toast.failedAddPart')));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (row: WorkOrderPartDto) => {
    if (!(await confirmDelete(t('parts.confirmDelete')))) return;
    try {
      const res = await api.del<PartList>(`/work-orders/delete-part/${workOrderId}/part/${row.partId}`);
      queryClient.setQueryData(partsKey(workOrderId), { workOrderParts: res.workOrderParts });
      notifySuccess(t('toast.partDeleted'));
      onChanged();
    } catch (err) {
      notifyError(errorMessage(err, t('toast.failedDeletePart')));
    }
  };

  if (query.isLoading) return <Loader size="sm" />;
  return (
    <Stack gap="sm" data-testid="parts-tab">
      <Group align="flex-end" wrap="wrap">
        <div style={{ flex: '1 1 240px' }}>
          <AsyncSelect path="/parts/get-parts-options" label={t('parts.pick')} value={partId} onChange={(v) => setPartId(v)} testId="part-select" />
        </div>
        <NumberInput label={t('parts.quantity')} value={quantity} onChange={(v) => setQuantity(Number(v) || 1)} min={1} allowDecimal={false} w={110} data-testid="part-quantity" />
        <Button leftSection={<IconPlus size={16} />} onClick={() => void add()} disabled={!partId} loading={busy} data-testid="add-part">
          {t('parts.add')}
        </Button>
      </Group>
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('parts.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('parts.name')}</Table.Th>
                <Table.Th>{t('parts.price')}</Table.Th>
                <Table.Th>{t('parts.quantity')}</Table.Th>
                <Table.Th>{t('parts.lineTotal')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <Table.Tr key={p.id} data-testid="part-row">
                  <Table.Td>{p.Part.name}</Table.Td>
                  <Table.Td>{money.format(p.Part.salesPrice)}</Table.Td>
                  <Table.Td>{p.quantity}</Table.Td>
                  <Table.Td>{money.format(p.Part.salesPrice * p.quantity)}</Table.Td>
                  <Table.Td>
                    <ActionIcon variant="subtle" color="red" aria-label="Delete" onClick={() => void remove(p)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="flex-end">
        <Text fw={600} data-testid="parts-total">
          {t('parts.total')}: {money.format(total)}
        </Text>
      </Group>
    </Stack>
  );
}
