import { useCallback, useState } from 'react';
import { Badge, Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconScan } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CameraScanner, tokenOf } from '../../../web/components/camera-scanner';
import { myWorkDb, type CachedPart, type CachedWorkOrder } from './my-work-db';
import { queueParts, useLive } from './my-work-sync';
import type { OutboxItem } from './outbox';
import { big, Section, useQueued } from './screen-kit';
import './labels-tech';

/**
 * Whether the order's parts are there (decision 081), as the server said at the last sync: "Parts ready", or
 * "Parts short: 2 × Seal kit at Main store"; nothing when the order reserves no stock.
 */
export function ReadinessBadge({ order }: { order: CachedWorkOrder }) {
  const { t } = useTranslation('techApp');
  const r = order.partsReadiness;
  if (!r || r.status === 'none') return null;
  if (r.status === 'ready')
    return (
      <Badge color="teal" variant="light" data-testid="wo-parts-readiness">
        {t('readiness.ready')}
      </Badge>
    );
  const items = r.shortages.map((s) => t('readiness.item', { quantity: s.quantity, part: s.part.name, location: s.location.name })).join(', ');
  return (
    <Badge color="red" variant="light" data-testid="wo-parts-readiness" style={{ textTransform: 'none', whiteSpace: 'normal', height: 'auto' }}>
      {t('readiness.short', { items })}
    </Badge>
  );
}

/** The part a scanned label names: its SKU code (or its exact name), case and spaces aside. */
async function partForLabel(text: string): Promise<CachedPart | undefined> {
  const code = text.trim();
  if (!code) return undefined;
  const db = myWorkDb();
  return (await db.parts.where('skuCode').equalsIgnoreCase(code).first()) ?? (await db.parts.where('name').equalsIgnoreCase(code).first());
}

export function PartsCard({ order, waiting }: { order: CachedWorkOrder; waiting: OutboxItem[] }) {
  const { t } = useTranslation('myWork');
  const [search, setSearch] = useState('');
  const [quantity, setQuantity] = useState<number | string>(1);
  const [scanning, setScanning] = useState(false);
  const [noCamera, setNoCamera] = useState(false);
  const [scanNote, setScanNote] = useState<string | null>(null);
  const queued = useQueued();
  const term = search.trim().toLowerCase();
  const matches = useLive(
    () =>
      term
        ? myWorkDb()
            .parts.filter((p) => p.name.toLowerCase().includes(term) || (p.skuCode ?? '').toLowerCase() === term)
            .limit(8)
            .toArray()
        : Promise.resolve([]),
    [term],
  );
  const add = async (p: CachedPart) => {
    // The quantity as typed: the route's schema judges it (a whole number, 1 to 1,000,000), never clamped here.
    const q = typeof quantity === 'number' ? quantity : quantity.trim() === '' ? Number.NaN : Number(quantity);
    const ok = await queued.run(() => queueParts(order.id, p.id, q, t('parts.added', { quantity: q, name: p.name })));
    if (ok) {
      setSearch('');
      setQuantity(1);
      setScanNote(null);
    }
  };
  const onScan = useCallback(
    (text: string) => {
      setScanning(false);
      void partForLabel(text).then((part) => {
        if (part) {
          setSearch(part.skuCode ?? part.name);
          setScanNote(null);
        } else setScanNote(tokenOf(text) ? t('parts.assetLabel') : t('parts.unknownLabel', { code: text.trim().slice(0, 80) }));
      });
    },
    [t],
  );
  const onNoCamera = useCallback(() => {
    setScanning(false);
    setNoCamera(true);
  }, []);
  return (
    <Section title={t('parts.title')} testId="parts">
      <Stack gap="xs">
        {order.parts.length === 0 && waiting.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('parts.none')}
          </Text>
        )}
        {order.parts.map((p) => (
          <Text key={p.id} size="sm">
            {t('parts.added', { quantity: p.quantity, name: p.Part.name })}
          </Text>
        ))}
        {waiting.map((w) => (
          <Text key={w.seq} size="sm" c="orange">
            {w.summary} · {t('waiting')}
          </Text>
        ))}
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            size="lg"
            style={{ flex: 1 }}
            placeholder={t('parts.search')}
            aria-label={t('parts.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            data-testid="parts-search"
          />
          <NumberInput
            size="lg"
            w={120}
            min={1}
            allowDecimal={false}
            value={quantity}
            onChange={setQuantity}
            aria-label={t('parts.quantity')}
            error={queued.error}
            data-testid="parts-quantity"
          />
        </Group>
        {!noCamera && (
          <Button {...big} variant="light" leftSection={<IconScan />} onClick={() => setScanning((v) => !v)} data-testid="parts-scan">
            {scanning ? t('parts.stopScan') : t('parts.scan')}
          </Button>
        )}
        {noCamera && (
          <Text size="sm" c="dimmed" data-testid="parts-no-camera">
            {t('parts.noCamera')}
          </Text>
        )}
        {scanning && <CameraScanner products onText={onScan} onUnavailable={onNoCamera} />}
        {scanNote && (
          <Text size="sm" c="orange" data-testid="parts-scan-note">
            {scanNote}
          </Text>
        )}
        {term && matches?.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('parts.noMatch')}
          </Text>
        )}
        {matches?.map((p) => (
          <Button
            key={p.id}
            {...big}
            variant="default"
            justify="space-between"
            rightSection={t('parts.add')}
            data-testid="parts-result"
            onClick={() => void add(p)}
          >
            {p.name}
          </Button>
        ))}
      </Stack>
    </Section>
  );
}
