import { useState } from 'react';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FailureCodeSelect, NO_CODES, type FailureCodeChoice } from '../../failure-codes/ui/failure-code-select';
import type { WorkOrderDto } from '../../work-orders/work-orders.schema';
import { getMeta } from './my-work-db';
import { useLive, type FailureReference } from './my-work-sync';
import { big } from './screen-kit';
import './labels-tech';

/** Whether completing this order asks for failure codes first (decision 080): a reactive order on an asset. */
export const asksForCodes = (wo: Pick<WorkOrderDto, 'reactive' | 'assetId'>) => wo.reactive && wo.assetId !== null;

/** The failure codes and the organisation's rule as the device keeps them (list-my-work's reference data). */
export const useFailureReference = () =>
  useLive(async () => (await getMeta<FailureReference>('failure')) ?? { failureCodes: [], requireFailureCodes: false }, []);

/**
 * Closing a reactive work order on the phone (decisions 080, 084): problem > cause > remedy of its asset's
 * category, from the codes the device keeps (list-my-work's reference data), so it works offline. When the
 * organisation requires them the dialog does not close without the three; the server checks again when the
 * change is sent, and a refusal then is a sync notice on the order (nothing is lost).
 */
export function CloseOrderDialog({
  order,
  reference,
  onClose,
  onConfirm,
}: {
  order: WorkOrderDto;
  /** The codes and the rule as the device keeps them (`useFailureReference`); undefined while read. */
  reference: FailureReference | undefined;
  onClose(): void;
  onConfirm(codes: FailureCodeChoice | object): void;
}) {
  const { t } = useTranslation('techApp');
  const required = reference?.requireFailureCodes ?? false;
  const [value, setValue] = useState<FailureCodeChoice>({
    problemCodeId: order.problemCodeId,
    causeCodeId: order.causeCodeId,
    remedyCodeId: order.remedyCodeId,
  });
  const [error, setError] = useState<string | null>(null);
  const complete = !!(value.problemCodeId && value.causeCodeId && value.remedyCodeId);
  const confirm = () => {
    if (required && !complete) return setError(t('close.required'));
    onConfirm(value.problemCodeId ? value : NO_CODES);
  };
  return (
    // Above the order screen (z-index 200), below the pickers' dropdowns (300).
    <Modal opened onClose={onClose} title={t('close.title')} centered zIndex={250} data-testid="close-order-dialog">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('close.hint')}
        </Text>
        {reference && reference.failureCodes.length === 0 && (
          <Text size="sm" c="orange" data-testid="close-no-codes">
            {t('close.noCodes')}
          </Text>
        )}
        <FailureCodeSelect
          codes={reference?.failureCodes ?? []}
          assetCategoryId={order.assetCategoryId}
          value={value}
          size="lg"
          required={required}
          onChange={(v) => {
            setValue(v);
            setError(null);
          }}
        />
        {error && (
          <Text size="sm" c="red" role="alert" data-testid="close-codes-error">
            {error}
          </Text>
        )}
        <Button {...big} color="green" onClick={confirm} data-testid="close-order-confirm">
          {t('close.confirm')}
        </Button>
        {!required && (
          <Button {...big} variant="default" onClick={() => onConfirm({})} data-testid="close-order-without">
            {t('close.without')}
          </Button>
        )}
        <Button {...big} variant="subtle" onClick={onClose} data-testid="close-order-cancel">
          {t('close.cancel')}
        </Button>
      </Stack>
    </Modal>
  );
}
