import { useState } from 'react';
import { Badge, Button, Group, Modal, Select, Stack, Textarea, Tooltip } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../web/components';
import { api, ApiError } from '../../../web/lib/api';
import { formatDateTime } from '../../../web/lib/format';
import { HOLD_REASONS, type HoldReason } from '../../failure-codes/failure-code-values';
import type { WorkOrderDto } from '../work-orders.schema';
import '../../failure-codes/ui/failure-code-select';

/** The "on hold" badge of a work order (decision 080): its reason, the note and since when in the tooltip. */
export function HoldBadge({ order }: { order: Pick<WorkOrderDto, 'onHold' | 'holdReason' | 'holdNote' | 'heldAt'> }) {
  const { t } = useTranslation('failureCodes');
  if (!order.onHold) return null;
  const label = `${t('onHold')}: ${t(`reason.${order.holdReason ?? 'other'}`)}`;
  return (
    <Tooltip label={[order.heldAt ? t('heldSince', { when: formatDateTime(order.heldAt) }) : '', order.holdNote ?? ''].filter(Boolean).join(' · ') || label}>
      <Badge color="orange" variant="light" data-testid="wo-on-hold">
        {label}
      </Badge>
    </Tooltip>
  );
}

/** Put on hold (reason and note) and Resume, in the work order drawer. */
export function HoldControl({ order, onChanged }: { order: WorkOrderDto; onChanged(order: WorkOrderDto): void }) {
  const { t } = useTranslation('failureCodes');
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState<HoldReason>('parts');
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  if (order.status === 'completed' || order.status === 'cancelled') return null;
  const run = async (path: string, body: object, success: string) => {
    try {
      const res = await api.put<{ workOrder: WorkOrderDto }>(path, { ...body, updatedAt: order.updatedAt });
      notifySuccess(success);
      setAsking(false);
      onChanged(res.workOrder);
    } catch (err) {
      if (err instanceof ApiError && err.issues?.length) setNoteError(err.issues.find((i) => i.path === 'note')?.message);
      notifyError(err instanceof ApiError ? err.message : t('holdFailed'));
    }
  };
  if (order.onHold)
    return (
      <Button
        variant="light"
        color="orange"
        leftSection={<IconPlayerPlay size={16} />}
        onClick={() => void run(`/work-orders/resume-work-order/${order.id}`, {}, t('resumed'))}
        data-testid="wo-resume"
      >
        {t('resume')}
      </Button>
    );
  return (
    <>
      <Button variant="default" leftSection={<IconPlayerPause size={16} />} onClick={() => setAsking(true)} data-testid="wo-hold">
        {t('hold')}
      </Button>
      <Modal opened={asking} onClose={() => setAsking(false)} title={t('holdTitle')} data-testid="hold-dialog">
        <Stack>
          <Select
            label={t('holdReason')}
            data={HOLD_REASONS.map((r) => ({ value: r, label: t(`reason.${r}`) }))}
            value={reason}
            onChange={(v) => v && setReason(v as HoldReason)}
            allowDeselect={false}
            data-testid="hold-reason"
          />
          <Textarea
            label={t('holdNote')}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            error={noteError}
            maxLength={500}
            data-testid="hold-note"
          />
          <Group justify="flex-end">
            <Button onClick={() => void run(`/work-orders/hold-work-order/${order.id}`, { reason, note: note || null }, t('held'))} data-testid="hold-confirm">
              {t('hold')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
