import { AsyncSelect, type AsyncSelectProps } from '../../../web/components';

export const QUOTATION_OPTIONS_PATH = '/quotations/get-quotation-options';

/** A searchable quotation picker (by number Q-0001 or customer name), for other features' forms (a work order's quotation). */
export function QuotationSelect(
  props: Pick<AsyncSelectProps, 'value' | 'label' | 'error' | 'initialOption' | 'disabled' | 'testId'> & { onChange(value: number | null): void },
) {
  return <AsyncSelect path={QUOTATION_OPTIONS_PATH} pageSize={10} clearable {...props} />;
}
