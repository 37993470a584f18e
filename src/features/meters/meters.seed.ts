import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { assets, meters } from '../../server/db/schema';
import { recordReading } from './meters.service';
import type { MeterKind } from './meters.schema';

const DAY = 86_400_000;

/**
 * Demo meters on the sample assets (looked up by name; skipped when absent), with twelve weekly readings up to
 * yesterday: running hours and starts that rise (one counter replaced on the way), temperatures and a pressure
 * that wander.
 */
export async function seedMeters(tx: Tx, orgId: number) {
  const defs: { asset: string; name: string; kind: MeterKind; unit: string; description?: string; reading: (week: number) => number; resetAt?: number }[] = [
    {
      asset: 'Air Compressor Atlas Copco GA37',
      name: 'Running hours',
      kind: 'counter',
      unit: 'h',
      description: 'Hour meter on the control panel',
      reading: (w) => 18_240 + w * 61.5,
    },
    {
      asset: 'Air Compressor Atlas Copco GA37',
      name: 'Discharge temperature',
      kind: 'gauge',
      unit: '°C',
      reading: (w) => 78 + ((w * 7) % 9) - (w === 9 ? 0 : 3),
    },
    { asset: 'Backup Generator 500 kW', name: 'Engine hours', kind: 'counter', unit: 'h', reading: (w) => 1_310 + w * 2 },
    { asset: 'Backup Generator 500 kW', name: 'Starts', kind: 'counter', unit: 'starts', reading: (w) => 402 + w },
    // The forklift's hour meter was replaced in week 7: it starts again from a few hours.
    {
      asset: 'Forklift Toyota 8FGU25',
      name: 'Hour meter',
      kind: 'counter',
      unit: 'h',
      reading: (w) => (w < 7 ? 6_120 + w * 31 : (w - 7) * 30 + 4),
      resetAt: 7,
    },
    { asset: 'Chiller CH-2', name: 'Condenser pressure', kind: 'gauge', unit: 'bar', reading: (w) => 12.4 + ((w * 5) % 7) / 10 },
  ];
  const now = Date.now();
  for (const def of defs) {
    const [asset] = await tx
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.orgId, orgId), eq(assets.name, def.asset)));
    if (!asset) continue;
    const [meter] = await tx
      .insert(meters)
      .values({ orgId, assetId: asset.id, name: def.name, kind: def.kind, unit: def.unit, description: def.description ?? null })
      .returning({ id: meters.id });
    for (let week = 0; week < 12; week++) {
      const readAt = new Date(now - (12 - week) * 7 * DAY + DAY * 6);
      await recordReading(tx, orgId, { meterId: meter.id, value: def.reading(week), readAt, source: 'manual', reset: week === def.resetAt }, null);
    }
  }
}
