import { Badge, Button, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { zodResolver } from '../../../web/lib/form-resolver';
import { useQueryClient } from '@tanstack/react-query';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ImageUploadButton, activityQueryKey, notifyError, notifySuccess, runWithToasts, FormTextInput } from '../../../web/components';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { formatNumber } from '../../../web/lib/format';
import { stockAdjustmentSchema, type PartDto, type StockAdjustment } from '../parts.schema';
import './parts-i18n';
import { PartStockLevels } from './part-stock-levels';
import { PartStockMoves } from './part-stock-moves';
import { PartStockSettings } from './part-stock-settings';

const qty = (n: number) => formatNumber(n);

/** The Stock tab: quantity on hand against the minimum, an adjustment with its reason, the move history. */
export function PartStock({ part, onChanged }: { part: PartDto; onChanged(part: PartDto): void }) {
  const { t } = useTranslation('parts');
  const queryClient = useQueryClient();
  const form = useForm<{ quantity: string; reason: string }, unknown, StockAdjustment>({
    resolver: zodResolver(stockAdjustmentSchema as never) as unknown as Resolver<{ quantity: string; reason: string }, unknown, StockAdjustment>,
    defaultValues: { quantity: '', reason: '' },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      const res = await api.post<{ part: PartDto }>(`/parts/adjust-stock/${part.id}`, values);
      notifySuccess(t('adjusted'));
      form.reset({ quantity: '', reason: '' });
      onChanged(res.part);
      void queryClient.invalidateQueries({ queryKey: ['parts'] });
      void queryClient.invalidateQueries({ queryKey: ['stock'] });
      void queryClient.invalidateQueries({ queryKey: activityQueryKey('part', part.id) });
    } catch (err) {
      if (!applyApiErrors(err, form.setError)) notifyError(errorMessage(err, t('adjustFailed')));
    }
  });
  if (part.type !== 'stockable') return <Text c="dimmed">{t('consumableNoStock')}</Text>;
  return (
    <Stack gap="md">
      <Group gap="xl">
        <div>
          <Text size="xs" c="dimmed">
            {t('quantityOnHand')}
          </Text>
          <Group gap="xs">
            <Text fw={700} size="xl" data-testid="part-quantity-on-hand">
              {qty(part.quantityOnHand)} {part.unitOfMeasure?.name ?? ''}
            </Text>
            {part.isLowStock && (
              <Badge color="red" data-testid="part-low-stock-badge">
                {t('lowStock')}
              </Badge>
            )}
          </Group>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('minimumQuantity')}
          </Text>
          <Text fw={600}>{qty(part.minimumQuantity)}</Text>
        </div>
      </Group>
      <PartStockLevels partId={part.id} />
      <PartStockSettings partId={part.id} />
      <Paper withBorder p="sm">
        {/* Not a nested <form>: the drawer already wraps its tabs in one. */}
        <Stack gap="xs">
          <Text fw={600} size="sm">
            {t('adjust')}
          </Text>
          <Group align="flex-start" grow>
            <FormTextInput form={form} name="quantity" label={t('adjustQuantity')} inputMode="decimal" testId="adjust-quantity" />
            <FormTextInput form={form} name="reason" label={t('adjustReason')} testId="adjust-reason" />
          </Group>
          <Group justify="flex-end">
            <Button onClick={() => void submit()} loading={form.formState.isSubmitting} data-testid="adjust-submit">
              {t('adjust')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <PartStockMoves partId={part.id} />
    </Stack>
  );
}

/** The part's picture with an upload button (generic image rule: JPEG/PNG/WebP, 5 MB). */
export function PartImage({ part, onChanged }: { part: PartDto; onChanged(part: PartDto): void }) {
  const { t } = useTranslation('parts');
  const queryClient = useQueryClient();
  const upload = async (file: File | null) => {
    if (!file) return;
    await runWithToasts(
      () => api.upload<{ part: PartDto }>(`/parts/add-image/${part.id}`, file, { field: 'image' }),
      t('imageUpdated'),
      t('imageFailed'),
      (res) => {
        onChanged(res.part);
        void queryClient.invalidateQueries({ queryKey: ['parts'] });
      },
    );
  };
  return (
    <Group align="center">
      {part.image ? <Image src={part.image} alt={part.name} w={96} h={96} radius="sm" fit="cover" /> : null}
      <ImageUploadButton onFile={(f) => void upload(f)} label={t('uploadImage')} variant="light" testId="part-image-upload" />
    </Group>
  );
}
