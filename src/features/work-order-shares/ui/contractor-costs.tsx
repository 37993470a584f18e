import { useState, type ReactNode } from 'react';
import { ActionIcon, Button, Card, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DateTimeField, confirmAction, formatMinorMoney } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { formatDateTime, formatMinutes } from '../../../web/lib/format';
import { contractorLaborSchema, contractorPartSchema, type SharedWorkOrderDto } from '../work-order-shares.schema';
import { SHARED } from './contractor-paths';
import './labels';

const S = SHARED;
/** A moment as the date-time box holds it: local 'YYYY-MM-DD HH:mm:00' (decision 066), and back (no zone = local time). */
const toLocalInput = (d: Date) => {
  const local = new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 16)}:00`;
};
const fromLocalInput = (v: string | null) => (v ? new Date(v.replace(' ', 'T')) : undefined);

/** A line the contractor logged (time or a part): what, its cost, and the red bin when it may still be deleted. */
function CostLine({ kind, ...props }: { kind: 'labor' | 'part'; cost: string; onDelete?: false | (() => void); children: ReactNode }) {
  const { t } = useTranslation('contractor');
  return (
    <Group justify="space-between" wrap="nowrap" data-testid={`contractor-${kind}`}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {props.children}
      </Text>
      <Group gap={4} wrap="nowrap">
        <Text size="sm">{props.cost}</Text>
        {props.onDelete && (
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            aria-label={kind === 'labor' ? t('deleteTime') : t('deletePart')}
            onClick={props.onDelete}
            data-testid={`contractor-delete-${kind}`}
          >
            <IconTrash size={18} />
          </ActionIcon>
        )}
      </Group>
    </Group>
  );
}

/**
 * The time and parts the contractor logged, with their cost and the total; with the right to log (and the work
 * not accepted) the forms to add time and parts and the bins to delete them. `run` sends a change (the page's
 * action: toast, refresh).
 */
export function ContractorCosts(props: {
  dto: SharedWorkOrderDto;
  canFill: boolean;
  pending: boolean;
  run(call: () => Promise<unknown>): void;
  query: Record<string, string>;
}) {
  const { dto, canFill, run, pending, query } = props;
  const { t } = useTranslation('contractor');
  const open = dto.state !== 'accepted';
  const money = (minor: number) => formatMinorMoney(minor, dto.currency);
  const [labor, setLabor] = useState(() => ({
    start: toLocalInput(new Date(Date.now() - 3_600_000)) as string | null,
    end: toLocalInput(new Date()) as string | null,
    rate: '' as number | string,
  }));
  const [part, setPart] = useState({ name: '', quantity: 1 as number | string, unitPrice: '' as number | string });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const post = (path: string, body: unknown) => api.post(`${S}/${path}`, body, { query });
  const removeLine = async (kind: 'labor' | 'part', id: number) => {
    if (await confirmAction({ message: t('deleteConfirm') })) run(() => api.del(`${S}/delete-shared-${kind}/${id}`, { query }));
  };

  /** Checks a new line with the route's schema (its messages under `<kind>.<field>`), then posts it. */
  const addLine = (
    kind: 'labor' | 'part',
    parsed: { success: true; data: unknown } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
    after?: () => void,
  ) => {
    if (!parsed.success) return setErrors(Object.fromEntries(parsed.error.issues.map((i) => [`${kind}.${String(i.path[0])}`, i.message])));
    setErrors({});
    run(() => post(`add-shared-${kind}`, parsed.data).then(after));
  };
  const addLabor = () =>
    addLine(
      'labor',
      contractorLaborSchema.safeParse({
        startTime: fromLocalInput(labor.start),
        endTime: fromLocalInput(labor.end),
        hourlyRate: labor.rate === '' ? undefined : labor.rate,
      }),
    );
  const addPart = () =>
    addLine(
      'part',
      contractorPartSchema.safeParse({ name: part.name, quantity: part.quantity, unitPrice: part.unitPrice === '' ? undefined : part.unitPrice }),
      () => setPart({ name: '', quantity: 1, unitPrice: '' }),
    );
  const total = dto.labors.reduce((s, l) => s + l.costMinor, 0) + dto.parts.reduce((s, p) => s + p.costMinor, 0);

  return (
    <Card withBorder>
      <Stack gap="xs">
        <Text fw={600}>{t('time')}</Text>
        {dto.labors.map((l) => (
          <CostLine key={l.id} kind="labor" cost={money(l.costMinor)} onDelete={canFill && (() => void removeLine('labor', l.id))}>
            {formatDateTime(l.startDate)} · {formatMinutes(l.minutes)}
          </CostLine>
        ))}
        {open && dto.permissions.canLog && (
          <>
            <DateTimeField
              label={t('start')}
              required
              value={labor.start}
              onChange={(v) => setLabor({ ...labor, start: v })}
              error={errors['labor.startTime']}
              testId="contractor-start"
            />
            <DateTimeField
              label={t('end')}
              required
              value={labor.end}
              onChange={(v) => setLabor({ ...labor, end: v })}
              error={errors['labor.endTime']}
              testId="contractor-end"
            />
            <Group align="flex-end" grow>
              <NumberInput
                label={t('rate', { currency: dto.currency })}
                min={0}
                decimalScale={dto.digits}
                value={labor.rate}
                onChange={(v) => setLabor({ ...labor, rate: v })}
                error={errors['labor.hourlyRate']}
                data-testid="contractor-rate"
              />
              <Button onClick={addLabor} loading={pending} data-testid="contractor-add-time">
                {t('addTime')}
              </Button>
            </Group>
          </>
        )}
        <Text fw={600} mt="sm">
          {t('parts')}
        </Text>
        {dto.parts.map((p) => (
          <CostLine key={p.id} kind="part" cost={money(p.costMinor)} onDelete={canFill && (() => void removeLine('part', p.id))}>
            {p.name} × {p.quantity}
          </CostLine>
        ))}
        {open && dto.permissions.canLog && (
          <>
            <TextInput
              label={t('partName')}
              value={part.name}
              onChange={(e) => setPart({ ...part, name: e.currentTarget.value })}
              error={errors['part.name']}
              data-testid="contractor-part-name"
            />
            <Group align="flex-end" grow>
              <NumberInput
                label={t('quantity')}
                min={1}
                allowDecimal={false}
                value={part.quantity}
                onChange={(v) => setPart({ ...part, quantity: v })}
                error={errors['part.quantity']}
              />
              <NumberInput
                label={t('unitPrice', { currency: dto.currency })}
                min={0}
                decimalScale={dto.digits}
                value={part.unitPrice}
                onChange={(v) => setPart({ ...part, unitPrice: v })}
                error={errors['part.unitPrice']}
                data-testid="contractor-part-price"
              />
            </Group>
            <Button variant="default" onClick={addPart} loading={pending} data-testid="contractor-add-part">
              {t('addPart')}
            </Button>
          </>
        )}
        <Group justify="space-between" mt="xs">
          <Text fw={600}>{t('total')}</Text>
          <Text fw={600} data-testid="contractor-total">
            {money(total)}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}
