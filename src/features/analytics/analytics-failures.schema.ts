import { z } from '../../shared/zod-setup';
import { dayRangeSchema } from './analytics.schema';

/**
 * Failures by problem code (decision 080): reactive work orders completed in the range with a problem code,
 * counted per problem, most first, with each one's share and the running (cumulative) share: a Pareto.
 */
export const failureParetoSchema = z.object({
  range: dayRangeSchema,
  total: z.number(),
  problems: z.array(
    z.object({
      problemCodeId: z.number(),
      code: z.string(),
      name: z.string(),
      count: z.number(),
      /** Share of all coded failures of the range, percent (two decimals). */
      percent: z.number(),
      cumulativePercent: z.number(),
    }),
  ),
});
export type FailurePareto = z.infer<typeof failureParetoSchema>;

/**
 * MTBF by failure mode (decision 080): per asset and problem code, over its reactive orders closed with that
 * problem and created in the range, the mean hours from the completion of one to the creation of the next
 * (as the insights' MTBF, decision 038). The twenty shortest.
 */
export const failureModeMtbfSchema = z.object({
  range: dayRangeSchema,
  modes: z.array(
    z.object({
      assetId: z.number(),
      asset: z.string(),
      problemCodeId: z.number(),
      problem: z.string(),
      failures: z.number(),
      intervals: z.number(),
      mtbfHours: z.number(),
    }),
  ),
});
export type FailureModeMtbf = z.infer<typeof failureModeMtbfSchema>;
