import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../web/lib/api';
import type { FailureCodeDto, FailureCodeSettings } from '../../failure-codes/failure-codes.schema';
import { FailureCodeSelect, NO_CODES, type FailureCodeChoice } from '../../failure-codes/ui/failure-code-select';
import type { WorkOrderDto } from '../work-orders.schema';

/**
 * Closing a reactive work order (decision 080): problem > cause > remedy of its asset's category. When the
 * organisation requires them the dialog refuses to close without the three (the server refuses it too).
 */
export function CloseWithCodesDialog({
  order,
  onClose,
  onConfirm,
}: {
  order: WorkOrderDto;
  onClose(): void;
  onConfirm(codes: Partial<FailureCodeChoice>): void;
}) {
  const { t } = useTranslation('failureCodes');
  const codes = useQuery({
    queryKey: ['failure-codes', 'all'],
    queryFn: ({ signal }) => api.get<{ failureCodes: FailureCodeDto[] }>('/failure-codes/get-failure-codes', { signal }),
  });
  const settings = useQuery({
    queryKey: ['failure-codes', 'settings'],
    queryFn: ({ signal }) => api.get<{ settings: FailureCodeSettings }>('/failure-codes/get-failure-code-settings', { signal }),
  });
  const required = settings.data?.settings.requireCodes ?? false;
  const [value, setValue] = useState<FailureCodeChoice>({
    problemCodeId: order.problemCodeId,
    causeCodeId: order.causeCodeId,
    remedyCodeId: order.remedyCodeId,
  });
  const [error, setError] = useState<string | null>(null);
  const complete = value.problemCodeId && value.causeCodeId && value.remedyCodeId;
  const confirm = () => {
    if (required && !complete) return setError(t('required'));
    onConfirm(value.problemCodeId ? value : NO_CODES);
  };
  return (
    <Modal opened onClose={onClose} title={t('closeTitle')} data-testid="close-with-codes">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('closeHint')}
        </Text>
        <FailureCodeSelect
          codes={codes.data?.failureCodes ?? []}
          assetCategoryId={order.assetCategoryId}
          value={value}
          onChange={(v) => {
            setValue(v);
            setError(null);
          }}
          required={required}
        />
        {error && (
          <Text size="sm" c="red" role="alert" data-testid="close-codes-error">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          {!required && (
            <Button variant="default" onClick={() => onConfirm({})} data-testid="close-without-codes">
              {t('closeWithout')}
            </Button>
          )}
          <Button color="green" onClick={confirm} data-testid="close-with-codes-confirm">
            {t('close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
