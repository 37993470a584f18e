import type { MessageCatalog } from './translate-message';
import { arCommon } from './ar/common';
import { arWorkOrders } from './ar/work-orders';
import { arPlanning } from './ar/planning';
import { arAssets } from './ar/assets';
import { arCatalog } from './ar/catalog';
import { arPeople } from './ar/people';
import { arDataTransfer } from './ar/data-transfer';
import { arAnalytics } from './ar/analytics';

/**
 * Arabic for the API's, the zod contracts' and the SPA's English messages (decision 065), keyed by the English
 * text exactly as sent. `{{name}}` marks a value taken from the English message (same name on both sides).
 * One file a group of areas under `./ar/`, as the English messages sit in their features: a message of
 * `src/features/<area>` goes into the file that lists its area; words carried as values, the SPA's and the API
 * client's own texts, and the server's and shared helpers' messages into `common.ts`.
 * `messages-catalog.test.ts` fails when a message of `src/` has no entry.
 */
export const arMessages: MessageCatalog = {
  ...arCommon,
  ...arWorkOrders,
  ...arPlanning,
  ...arAssets,
  ...arCatalog,
  ...arPeople,
  ...arDataTransfer,
  ...arAnalytics,
};
