import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Loader, Progress, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconSubtask } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState, notifyError, notifySuccess, removeWithConfirmation, runWithToasts, useNotifiedQuery } from '../../../web/components';
import { api, errorMessage } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { formatDateTime } from '../../../web/lib/format';
import { stepImageFields, type IssuedStepDto, type WorkOrderProcedureDto } from '../../procedures/procedures.schema';
import { progressOf } from '../../procedures/procedure-progress';
import { ProcedureSelect } from '../../procedures/ui/procedure-select';
import { workOrderDisplayId, type WorkOrderDto } from '../work-orders.schema';
import { SignOffStep } from '../../../web/components/sign-off-step';
import { StepControl, useStepAnswer } from '../../../web/components/procedure-step-control';
import './procedure-labels';

type ProcedureAnswer = { procedure: WorkOrderProcedureDto | null };

/** The procedure with one step as the server holds it now (a stale answer's 409 `current`). */
const withStep = (procedure: WorkOrderProcedureDto, current: IssuedStepDto): WorkOrderProcedureDto => {
  const steps = procedure.steps.map((s) => (s.id === current.id ? current : s));
  return { ...procedure, steps, progress: progressOf(steps) };
};
export const procedureKey = (workOrderId: number) => ['work-orders', 'procedure', workOrderId] as const;

/**
 * The work order's Procedure tab, phone width first: progress "7 of 12", one card per step with a big control
 * of its kind, flagged answers in red with the follow-up button, photos and drawn signatures as uploads.
 */
export function ProcedureTab({ workOrderId, onChanged }: { workOrderId: number; onChanged(): void }) {
  const { t } = useTranslation('workOrderProcedure');
  const queryClient = useQueryClient();
  const isManager = useIsManager();
  const [picked, setPicked] = useState<number | null>(null);
  const key = procedureKey(workOrderId);
  const query = useNotifiedQuery(
    { queryKey: key, queryFn: ({ signal }) => api.get<ProcedureAnswer>(`/work-orders/get-work-order-procedure/${workOrderId}`, { signal }) },
    t('toast.failedFetch'),
  );
  const procedure = query.data?.procedure ?? null;
  const changed = (next: WorkOrderProcedureDto | null) => {
    queryClient.setQueryData(key, { procedure: next });
    onChanged();
  };

  if (query.isLoading) return <Loader size="sm" />;
  if (query.isError) return <Alert color="red">{t('toast.failedFetch')}</Alert>;

  if (!procedure) {
    const attach = () =>
      picked &&
      runWithToasts(
        () => api.post<ProcedureAnswer>(`/work-orders/attach-procedure/${workOrderId}`, { procedureId: picked }),
        t('toast.attached'),
        t('toast.failedAttach'),
        (res) => {
          setPicked(null);
          changed(res.procedure);
        },
      );
    return (
      <Stack data-testid="procedure-tab">
        <EmptyState title={t('none')} description={isManager ? t('noneHint') : t('noneWorker')} />
        {isManager && (
          <Group align="flex-end" wrap="wrap">
            <div style={{ flex: '1 1 220px' }}>
              <ProcedureSelect value={picked} onChange={setPicked} testId="procedure-pick" />
            </div>
            <Button onClick={() => void attach()} disabled={!picked} data-testid="procedure-attach">
              {t('attach')}
            </Button>
          </Group>
        )}
      </Stack>
    );
  }

  const p = procedure.progress;
  const detach = () =>
    removeWithConfirmation({
      confirm: t('confirmDetach'),
      remove: () => api.del<ProcedureAnswer>(`/work-orders/detach-procedure/${workOrderId}`),
      success: t('toast.detached'),
      failure: t('toast.failedDetach'),
      onRemoved: () => changed(null),
    });
  return (
    <Stack gap="sm" data-testid="procedure-tab">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Title order={4} style={{ overflowWrap: 'anywhere' }}>
            {procedure.name}
          </Title>
          {procedure.description && (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
              {procedure.description}
            </Text>
          )}
        </div>
        {isManager && (
          <Button variant="subtle" color="red" size="compact-sm" onClick={() => void detach()} data-testid="procedure-detach">
            {t('detach')}
          </Button>
        )}
      </Group>
      <Stack gap={4}>
        <Group justify="space-between">
          <Text size="sm">{t('progressLabel')}</Text>
          <Text fw={700} data-testid="procedure-progress" aria-live="polite">
            {t('progress', { answered: p.answered, total: p.total })}
          </Text>
        </Group>
        <Progress value={p.total ? (100 * p.answered) / p.total : 0} size="lg" aria-label={t('progressLabel')} />
        <Group gap="xs">
          {p.requiredLeft > 0 && (
            <Badge color="yellow" variant="light" data-testid="procedure-required-left">
              {t('requiredLeft', { count: p.requiredLeft })}
            </Badge>
          )}
          {p.flagged > 0 && (
            <Badge color="red" variant="light" leftSection={<IconAlertTriangle size={12} />} data-testid="procedure-flagged">
              {t('flagged', { count: p.flagged })}
            </Badge>
          )}
        </Group>
      </Stack>
      {procedure.steps.map((step) =>
        step.kind === 'heading' ? (
          <Title order={5} key={step.id} mt="sm" data-testid="procedure-heading">
            {step.label}
          </Title>
        ) : (
          <StepCard
            key={step.id}
            workOrderId={workOrderId}
            step={step}
            onChanged={changed}
            onStale={(current) => changed(withStep(procedure, current as IssuedStepDto))}
          />
        ),
      )}
    </Stack>
  );
}

/** One step: its label, its control, who answered and when, its flag and follow-up. */
function StepCard({
  workOrderId,
  step,
  onChanged,
  onStale,
}: {
  workOrderId: number;
  step: IssuedStepDto;
  onChanged(next: WorkOrderProcedureDto | null): void;
  onStale(current: unknown): void;
}) {
  const { t } = useTranslation('workOrderProcedure');
  const { busy, setBusy, error, send } = useStepAnswer<{ procedure: WorkOrderProcedureDto | null }>(
    (res) => onChanged(res.procedure),
    t('toast.failedAnswer'),
    onStale,
  );
  // Made from the step as shown: answered by someone else since, the server refuses it (409) with the step now.
  const answer = (value: unknown) =>
    send(() =>
      api.put<{ procedure: WorkOrderProcedureDto }>(`/work-orders/answer-procedure-step/${workOrderId}`, {
        stepId: step.id,
        value,
        answeredAt: step.answeredAt,
      }),
    );
  const uploadImage = (file: Blob | null, fileName?: string) =>
    file &&
    send(() =>
      api.upload<{ procedure: WorkOrderProcedureDto }>(`/work-orders/add-step-image/${workOrderId}/step/${step.id}`, file, {
        field: 'image',
        fileName,
        fields: stepImageFields(step.answeredAt),
        timeoutMs: 60_000,
      }),
    );
  const followUp = async () => {
    setBusy(true);
    try {
      const res = await api.post<{ procedure: WorkOrderProcedureDto; followUp: WorkOrderDto }>(`/work-orders/create-follow-up/${workOrderId}`, {
        stepId: step.id,
      });
      notifySuccess(t('toast.followUpCreated', { id: res.followUp.workOrderId }));
      onChanged(res.procedure);
    } catch (err) {
      notifyError(errorMessage(err, t('toast.failedFollowUp')));
    } finally {
      setBusy(false);
    }
  };

  const answered = step.value !== null && step.value !== undefined;
  const testId = `procedure-step-${step.position}`;
  return (
    <Card
      withBorder
      padding="sm"
      data-testid={testId}
      data-flagged={step.flagged || undefined}
      style={step.flagged ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ overflowWrap: 'anywhere', flex: 1, minWidth: 0 }}>
            {step.label}
            {step.required && (
              <Text span c="red" aria-label={t('required')}>
                {' *'}
              </Text>
            )}
          </Text>
          {step.flagged && (
            <Badge color="red" leftSection={<IconAlertTriangle size={12} />} style={{ flexShrink: 0, overflow: 'visible' }} data-testid={`${testId}-flag`}>
              {step.kind === 'number' ? t('outOfRange') : t('flaggedBadge')}
            </Badge>
          )}
        </Group>
        {step.kind === 'sign-off' ? (
          <SignOffStep workOrderId={workOrderId} step={step} testId={testId} onSigned={(p) => p && onChanged(p)} />
        ) : (
          <StepControl step={step} busy={busy} answer={(v) => void answer(v)} uploadImage={(f, n) => void uploadImage(f, n)} testId={testId} />
        )}
        {error && (
          <Text size="sm" c="red" role="alert" data-testid={`${testId}-error`}>
            {error}
          </Text>
        )}
        {answered && step.answeredBy && (
          <Text size="xs" c="dimmed">
            {t('answeredBy', { name: `${step.answeredBy.firstName} ${step.answeredBy.lastName}`.trim(), when: formatDateTime(step.answeredAt) })}
          </Text>
        )}
        {step.flagged && step.followUpOnFailure && !step.followUpWorkOrderId && (
          <Button
            color="red"
            variant="light"
            size="md"
            leftSection={<IconSubtask size={18} />}
            onClick={() => void followUp()}
            loading={busy}
            data-testid={`${testId}-follow-up`}
          >
            {t('createFollowUp')}
          </Button>
        )}
        {step.followUpWorkOrderId && (
          <Badge variant="outline" color="red" data-testid={`${testId}-follow-up-link`}>
            {t('followUp', { id: workOrderDisplayId(step.followUpWorkOrderId) })}
          </Badge>
        )}
      </Stack>
    </Card>
  );
}
