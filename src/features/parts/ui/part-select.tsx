import { lazy } from 'react';
import { createRecordSelect } from '../../../web/components';
import type { PartDto, PartOption } from '../parts.schema';

// The creation form loads when "Add New" is chosen, not with every page that shows the picker.
const PartCreateModal = lazy(() => import('./part-form').then((m) => ({ default: m.PartCreateModal })));

export const PART_OPTIONS_PATH = '/parts/get-parts-options';
export type { PartOption };

/**
 * A searchable part picker (10 at a time, fetched as you type); options carry salesPrice, SKU, stock and
 * unit. Its "Add New" entry (value 0) opens the creation dialog in place and selects the new part.
 */
export const PartSelect = createRecordSelect<PartDto, PartOption>({
  path: PART_OPTIONS_PATH,
  queryKey: 'parts',
  CreateModal: PartCreateModal,
  toOption: (part) => ({
    value: part.id,
    label: part.name,
    salesPrice: part.salesPrice,
    skuCode: part.skuCode,
    type: part.type,
    quantityOnHand: part.quantityOnHand,
    unitOfMeasure: part.unitOfMeasure,
  }),
});
