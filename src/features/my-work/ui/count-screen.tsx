import { useState } from 'react';
import { Alert, Box, Button, Center, Group, Loader, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, ApiError, errorMessage } from '../../../web/lib/api';
import { notifyError, notifySuccess } from '../../../web/components/notify';
import type { StockLevelDto } from '../../stock/stock.schema';
import { newIdempotencyKey } from './outbox';
import { SubScreen } from './sub-screen';
import { big, Section } from './screen-kit';
import './labels-tech';

/** get-location-options: `{ value, label }` with the location's kind. */
type LocationOption = { value: number; label: string; kind: string; isDefault: boolean };

/** Every stock level of one storeroom (100 a page, every page): what the books expect there. */
async function levelsOf(locationId: number, signal?: AbortSignal) {
  const levels: StockLevelDto[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get<{ stockLevels: StockLevelDto[]; pagination: { totalPages: number } }>('/stock/get-stock-levels', {
      query: { locationId, page, pageSize: 100 },
      signal,
    });
    levels.push(...res.stockLevels);
    if (page >= res.pagination.totalPages) return levels;
  }
}

/**
 * The technician's count (issue 41, decision 084): pick a storeroom, see its parts with the quantity the books
 * expect, type what is on the shelf, post the counts (count-stock, one per counted part: the difference becomes
 * a count move). Online only: the counts are posted at once, never kept on the phone (a count is a snapshot of
 * the shelf; sent hours later it would overwrite the moves made since).
 */
export function CountScreen({ onBack }: { onBack(): void }) {
  const { t } = useTranslation('techApp');
  const [locationId, setLocationId] = useState<number | null>(null);
  const [counted, setCounted] = useState<Record<number, number | string>>({});
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);
  const locations = useQuery({
    queryKey: ['stock', 'location-options'],
    queryFn: ({ signal }) => api.get<LocationOption[]>('/stock/get-location-options', { signal }),
  });
  const levels = useQuery({
    queryKey: ['stock', 'count-levels', locationId],
    queryFn: ({ signal }) => levelsOf(locationId!, signal),
    enabled: locationId !== null,
  });
  const entered = Object.entries(counted).filter(([, v]) => v !== '' && v !== undefined);
  const post = async () => {
    if (locationId === null) return;
    setBusy(true);
    const failed: Record<number, string> = {};
    let posted = 0;
    // One part at a time, each with its own Idempotency-Key: a lost answer is never counted twice.
    for (const [partId, value] of entered) {
      try {
        await api.post(
          '/stock/count-stock',
          { partId: Number(partId), locationId, countedQuantity: value },
          { headers: { 'idempotency-key': newIdempotencyKey() } },
        );
        posted++;
      } catch (err) {
        failed[Number(partId)] = err instanceof ApiError ? (err.issues[0]?.message ?? err.message) : errorMessage(err);
      }
    }
    setBusy(false);
    setErrors(failed);
    setCounted((c) => Object.fromEntries(Object.entries(c).filter(([id]) => failed[Number(id)] !== undefined)));
    if (posted) notifySuccess(t('count.posted', { count: posted }));
    const firstFailure = Object.values(failed)[0];
    if (firstFailure) notifyError(t('count.failed', { message: firstFailure }));
    void levels.refetch();
  };
  return (
    <SubScreen testId="count-screen" titleId="count-screen-title" title={t('count.title')} onBack={onBack} backLabel={t('count.back')} backTestId="count-back">
      <Text size="sm" c="dimmed" data-testid="count-online-only">
        {t('count.online')}
      </Text>
      {locations.isError && <Alert color="red">{t('count.loadFailed')}</Alert>}
      <Select
        size="lg"
        label={t('count.storeroom')}
        placeholder={t('count.pick')}
        data={(locations.data ?? []).map((l) => ({ value: String(l.value), label: l.label }))}
        value={locationId === null ? null : String(locationId)}
        onChange={(v) => {
          setLocationId(v ? Number(v) : null);
          setCounted({});
          setErrors({});
        }}
        searchable
        comboboxProps={{ zIndex: 400 }}
        data-testid="count-storeroom"
      />
      {locationId !== null && levels.isLoading && (
        <Center>
          <Loader />
        </Center>
      )}
      {levels.isError && <Alert color="red">{t('count.loadFailed')}</Alert>}
      {levels.data && levels.data.length === 0 && (
        <Text c="dimmed" data-testid="count-empty">
          {t('count.empty')}
        </Text>
      )}
      {levels.data && levels.data.length > 0 && (
        <Section title={locations.data?.find((l) => l.value === locationId)?.label ?? ''} testId="count-lines">
          <Stack gap="sm">
            {levels.data.map((l) => (
              <Group key={l.partId} gap="xs" wrap="nowrap" align="flex-start" data-testid={`count-line-${l.partId}`}>
                <Box style={{ flex: 1, minWidth: 0 }}>
                  <Text fw={500} dir="auto">
                    {l.part.name}
                  </Text>
                  <Text size="sm" c="dimmed" data-testid={`count-expected-${l.partId}`}>
                    {t('count.expected', { quantity: l.quantity })}
                  </Text>
                </Box>
                <NumberInput
                  size="lg"
                  w={130}
                  min={0}
                  inputMode="decimal"
                  aria-label={`${t('count.counted')}: ${l.part.name}`}
                  value={counted[l.partId] ?? ''}
                  onChange={(v) => setCounted((c) => ({ ...c, [l.partId]: v }))}
                  error={errors[l.partId]}
                  data-testid={`count-input-${l.partId}`}
                />
              </Group>
            ))}
            <Button {...big} disabled={entered.length === 0} loading={busy} onClick={() => void post()} data-testid="count-post">
              {t('count.post', { count: entered.length })}
            </Button>
          </Stack>
        </Section>
      )}
    </SubScreen>
  );
}
