import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, NumberInput, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DialogActions, notifySuccess, useBusyAction, TableHead } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { registerTranslations } from '../../../web/i18n';
import { formatNumber } from '../../../web/lib/format';
import { StoreroomSelect, useStoreroomOptions } from '../../stock/ui/storeroom-select';
import type { ReceivingDto, ReceivingStatus } from '../../stock/stock.schema';

registerTranslations('receiving', {
  en: {
    receive: 'Receive',
    title: 'Receive {{number}}',
    status: { 'not-received': 'Not received', 'partly-received': 'Partly received', 'fully-received': 'Fully received' },
    part: 'Part',
    ordered: 'Ordered',
    received: 'Received',
    outstanding: 'Left',
    toReceive: 'Receive now',
    storeroom: 'Into storeroom',
    noPartLines: 'This purchase order has no part lines to receive.',
    nothingEntered: 'Enter a quantity on at least one line',
    done: 'Received into stock successfully',
    failed: 'Failed to receive the purchase order',
    cancel: 'Cancel',
  },
  ar: {
    receive: 'استلام',
    title: 'استلام {{number}}',
    status: { 'not-received': 'لم يُستلم', 'partly-received': 'مستلم جزئيًا', 'fully-received': 'مستلم بالكامل' },
    part: 'القطعة',
    ordered: 'المطلوب',
    received: 'المستلم',
    outstanding: 'المتبقي',
    toReceive: 'استلام الآن',
    storeroom: 'إلى المخزن',
    noPartLines: 'لا توجد بنود قطع للاستلام في أمر الشراء هذا.',
    nothingEntered: 'أدخل كمية في بند واحد على الأقل',
    done: 'تم الاستلام في المخزون بنجاح',
    failed: 'فشل استلام أمر الشراء',
    cancel: 'إلغاء',
  },
});

const COLORS: Record<ReceivingStatus, string> = { 'not-received': 'gray', 'partly-received': 'yellow', 'fully-received': 'green' };
const receivingKey = (id: number) => ['stock', 'receiving', id] as const;

/** A purchase order's receiving status and its Receive dialog (decision 081): partial receipts, into a storeroom. */
export function ReceivePurchaseOrder({ purchaseOrderId, number }: { purchaseOrderId: number; number: string }) {
  const { t } = useTranslation('receiving');
  const [opened, setOpened] = useState(false);
  const receiving = useQuery({
    queryKey: receivingKey(purchaseOrderId),
    queryFn: ({ signal }) => api.get<{ receiving: ReceivingDto }>(`/stock/get-receiving/${purchaseOrderId}`, { signal }).then((r) => r.receiving),
  });
  const r = receiving.data;
  if (!r || !r.lines.length) return null;
  return (
    <Group gap="xs">
      <Badge color={COLORS[r.receivingStatus]} variant="light" data-testid="po-receiving-status">
        {t(`status.${r.receivingStatus}`)}
      </Badge>
      {r.receivingStatus !== 'fully-received' && (
        <Button variant="light" onClick={() => setOpened(true)} data-testid="po-receive">
          {t('receive')}
        </Button>
      )}
      {opened && <ReceiveDialog receiving={r} number={number} onClose={() => setOpened(false)} />}
    </Group>
  );
}

function ReceiveDialog({ receiving, number, onClose }: { receiving: ReceivingDto; number: string; onClose(): void }) {
  const { t } = useTranslation('receiving');
  const queryClient = useQueryClient();
  const open = receiving.lines.filter((l) => l.outstanding > 0);
  const [quantities, setQuantities] = useState<Record<number, number | string>>(Object.fromEntries(open.map((l) => [l.partId, l.outstanding])));
  const [chosenLocation, setLocationId] = useState<number | null>(null);
  const storerooms = useStoreroomOptions();
  // the default storeroom until another is chosen
  const locationId = chosenLocation ?? storerooms.data?.find((o) => o.isDefault)?.value ?? null;
  // a refusal stays above the lines, e.g. "Cannot receive more than ordered: Seal kit has 2 left to receive on PO-0001"
  const { busy, run, error, setError } = useBusyAction();
  const submit = async () => {
    const lines = open.map((l) => ({ partId: l.partId, quantity: Number(quantities[l.partId]) || 0 })).filter((l) => l.quantity > 0);
    if (!lines.length) {
      setError(t('nothingEntered'));
      return;
    }
    await run(async () => {
      await api.post(`/stock/receive-purchase-order/${receiving.purchaseOrderId}`, { locationId, lines });
      notifySuccess(t('done'));
      void queryClient.invalidateQueries({ queryKey: ['stock'] });
      void queryClient.invalidateQueries({ queryKey: ['parts'] });
      onClose();
    }, t('failed'));
  };
  return (
    <Modal opened onClose={onClose} title={t('title', { number })} centered size="lg">
      <Stack gap="sm" data-testid="receive-dialog">
        {error && (
          <Alert color="red" data-testid="receive-error">
            {error}
          </Alert>
        )}
        {!open.length ? (
          <Text c="dimmed">{t('noPartLines')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table>
              <TableHead labels={[t('part'), t('ordered'), t('received'), t('outstanding'), t('toReceive')]} />
              <Table.Tbody>
                {open.map((l) => (
                  <Table.Tr key={l.partId} data-testid={`receive-line-${l.partId}`}>
                    <Table.Td>{l.part.name}</Table.Td>
                    <Table.Td>{formatNumber(l.ordered)}</Table.Td>
                    <Table.Td>{formatNumber(l.received)}</Table.Td>
                    <Table.Td>{formatNumber(l.outstanding)}</Table.Td>
                    <Table.Td>
                      <NumberInput
                        aria-label={`${t('toReceive')}: ${l.part.name}`}
                        value={quantities[l.partId] ?? ''}
                        onChange={(v) => setQuantities({ ...quantities, [l.partId]: v })}
                        min={0}
                        w={110}
                        data-testid={`receive-quantity-${l.partId}`}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <StoreroomSelect value={locationId} onChange={setLocationId} label={t('storeroom')} testId="receive-storeroom" />
        <DialogActions
          onCancel={onClose}
          submitLabel={t('receive')}
          onSubmit={() => void submit()}
          loading={busy}
          disabled={!open.length}
          testId="receive-submit"
        />
      </Stack>
    </Modal>
  );
}
