import { z } from '../../shared/zod-setup';
import { dayRangeSchema } from './analytics.schema';

/**
 * Parts usage per asset (issue 41): stock consumed by work orders on each asset in the range (consumption moves less
 * returns, by the move's time), and its value at the part's average cost (minor units; parts without one count 0).
 * The twenty assets of highest value, then quantity.
 */
export const partsUsageSchema = z.object({
  range: dayRangeSchema,
  assets: z.array(z.object({ assetId: z.number(), name: z.string(), quantity: z.number(), valueMinor: z.number(), orders: z.number() })),
  totalValueMinor: z.number(),
});
export type PartsUsage = z.infer<typeof partsUsageSchema>;
