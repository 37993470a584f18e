import { AsyncSelect, type SelectOption } from '../../../web/components';

export const QUOTATION_OPTIONS_PATH = '/quotations/get-quotation-options';

/** A searchable quotation picker (by number Q-0001 or customer name), for other features' forms (a work order's quotation). */
export function QuotationSelect(props: {
  value: number | null | undefined;
  onChange(value: number | null): void;
  label?: string;
  error?: string;
  initialOption?: SelectOption | null;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <AsyncSelect
      path={QUOTATION_OPTIONS_PATH}
      pageSize={10}
      label={props.label}
      value={props.value}
      onChange={(v) => props.onChange(v)}
      error={props.error}
      initialOption={props.initialOption}
      disabled={props.disabled}
      clearable
      testId={props.testId}
    />
  );
}
