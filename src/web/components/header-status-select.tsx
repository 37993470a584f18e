import { Select } from '@mantine/core';

/**
 * A record drawer's status (or state) in its header (maintenance orders and requests): a small select that is
 * never empty, named by `label` (it has no visible label), each value shown as `labelOf` says.
 */
export function HeaderStatusSelect(props: {
  label: string;
  values: readonly string[];
  labelOf: (value: string) => string;
  value: string;
  onChange: (value: string | null) => void;
  w: number;
  disabled?: boolean;
  testId: string;
}) {
  return (
    <Select
      aria-label={props.label}
      size="xs"
      w={props.w}
      data={props.values.map((v) => ({ value: v, label: props.labelOf(v) }))}
      value={props.value}
      onChange={props.onChange}
      allowDeselect={false}
      disabled={props.disabled}
      data-testid={props.testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
