import { Alert, Badge, Card, Group, Stack, Text, Title, TypographyStylesProvider } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../web/lib/format';
import { isBlankHtml } from '../../../web/components';
import type { SharedWorkOrderDto } from '../work-order-shares.schema';

/** The top of the contractor's page: the work order, the share's state, on hold and why, sent back, due date, asset, instructions. */
export function ContractorOrderHead({ dto }: { dto: SharedWorkOrderDto }) {
  const { t } = useTranslation('contractor');
  return (
    <>
      <Stack gap={2}>
        <Text size="xs" c="dimmed">
          {dto.organization} · {dto.workOrder.code}
        </Text>
        <Title order={2} size="h3" data-testid="contractor-title">
          {dto.workOrder.title}
        </Title>
        <Group gap="xs">
          <Badge data-testid="contractor-state">{t(`state.${dto.state}`)}</Badge>
          <Text size="xs" c="dimmed">
            {t('expires', { date: formatDateTime(dto.expiresAt) })}
          </Text>
        </Group>
      </Stack>
      {dto.workOrder.onHold && (
        <Alert color="orange" title={t('onHold')} data-testid="contractor-on-hold">
          {dto.workOrder.holdReason ? t(`holdReason.${dto.workOrder.holdReason}`) : null}
          {dto.workOrder.holdNote ? ` · ${dto.workOrder.holdNote}` : ''}
        </Alert>
      )}
      {dto.state === 'sent-back' && dto.reviewComment && (
        <Alert color="grape" title={t('sentBack')}>
          {dto.reviewComment}
        </Alert>
      )}
      <Card withBorder>
        <Stack gap="xs">
          {dto.workOrder.dueDate && (
            <Text size="sm">
              <b>{t('due')}:</b> {formatDateTime(dto.workOrder.dueDate)}
            </Text>
          )}
          {dto.workOrder.asset && (
            <Text size="sm">
              <b>{t('asset')}:</b> {dto.workOrder.asset.name}
              {dto.workOrder.asset.code ? ` (${dto.workOrder.asset.code})` : ''}
            </Text>
          )}
          {!isBlankHtml(dto.workOrder.instructions) && (
            <>
              <Text size="sm" fw={600}>
                {t('instructions')}
              </Text>
              {/* Sanitised by the server when it was saved (work-orders/sanitize-html.ts). */}
              <TypographyStylesProvider fz="sm">
                <div dangerouslySetInnerHTML={{ __html: dto.workOrder.instructions ?? '' }} />
              </TypographyStylesProvider>
            </>
          )}
        </Stack>
      </Card>
    </>
  );
}
