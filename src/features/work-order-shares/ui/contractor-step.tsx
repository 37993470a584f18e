import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../../web/lib/api';
import { StepControl, useStepAnswer } from '../../../web/components/procedure-step-control';
import { isAnswered, stepImageFields } from '../../procedures/procedures.schema';
import type { ContractorStepDto } from '../work-order-shares.schema';
import { SHARED } from './contractor-paths';

/**
 * One step of the work order's procedure: with the share's right to log (and the work not accepted) the control
 * of its kind, the Procedure tab's own; otherwise its label and whether it is done.
 */
export function ContractorStep({
  step,
  editable,
  query,
  onSaved,
}: {
  step: ContractorStepDto;
  editable: boolean;
  query: Record<string, string>;
  onSaved(): Promise<unknown>;
}) {
  const { t } = useTranslation('contractor');
  // A stale answer (answered by someone else since the page read it): the page reads itself again to show theirs.
  const { busy, error, send: sendAnswer } = useStepAnswer<unknown>(onSaved, t('failed'), onSaved);
  // A 404 (the link was revoked or expired meanwhile, or the step is gone): the page reads itself again and says so (issue 45).
  const send = (call: () => Promise<unknown>) =>
    sendAnswer(async () => {
      try {
        return await call();
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) void onSaved();
        throw err;
      }
    });
  const testId = `contractor-step-${step.position}`;
  const done = isAnswered(step.kind, step.value);
  return (
    <Stack gap={6} data-testid={testId}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere', flex: 1, minWidth: 0 }}>
          {step.label}
          {step.required ? ` (${t('required')})` : ''}
        </Text>
        <Badge variant="light" color={step.flagged ? 'red' : done ? 'green' : 'gray'} style={{ flexShrink: 0 }} data-testid={`${testId}-state`}>
          {done ? t('answered') : t('open')}
        </Badge>
      </Group>
      {editable && (
        <StepControl
          step={step}
          busy={busy}
          testId={testId}
          answer={(value) => void send(() => api.post(`${SHARED}/answer-shared-step`, { stepId: step.id, value, answeredAt: step.answeredAt }, { query }))}
          uploadImage={(file, fileName) => {
            if (file)
              void send(() =>
                api.upload(`${SHARED}/add-shared-step-image/${step.id}`, file, {
                  field: 'image',
                  fileName,
                  fields: stepImageFields(step.answeredAt),
                  query,
                  timeoutMs: 60_000,
                }),
              );
          }}
        />
      )}
      {error && (
        <Text size="sm" c="red" role="alert" data-testid={`${testId}-error`}>
          {error}
        </Text>
      )}
    </Stack>
  );
}
