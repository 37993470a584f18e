import { optionsPageSize } from './pagination';
import { textFilter } from './reference-fields';
import { z } from './zod-setup';

/** A picker's (`get-…-options`) query: `pageSize` from 1 to 100 (10 unless asked) and `name` (contains). */
export const nameOptionsQuerySchema = z.object({
  pageSize: optionsPageSize(),
  name: textFilter,
});
