import { Suspense, useState, type ComponentType } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useIsManager } from '../lib/app-data';
import { AsyncMultiSelect, AsyncSelect, rememberOption, type SelectOption } from './async-select';

export interface RecordSelectProps<O> {
  value: number | null | undefined;
  onChange(value: number | null, option: O | null): void;
  label?: string;
  error?: string;
  initialOption?: SelectOption | null;
  withAsterisk?: boolean;
  disabled?: boolean;
  /** Offer "Add New" (default true). */
  allowAddNew?: boolean;
  testId?: string;
}

export interface RecordSelectConfig<Rec, O> {
  /** The options endpoint, e.g. '/assets/get-assets-options'. */
  path: string;
  /** Options per fetch (default 10). */
  pageSize?: number;
  /** The area's react-query key, refreshed after a creation (e.g. 'assets'). */
  queryKey: string;
  /** "Add New" only for managers. */
  managersOnly?: boolean;
  /**
   * The creation dialog; it calls onCreated with the new record. Pass it `lazy(() => import(...))`: a form and
   * its fields are code a page with the picker loads only when "Add New" is chosen (issue 46: weight).
   */
  CreateModal: ComponentType<{ onClose(): void; onCreated(record: Rec): void }>;
  /** The option of a new record. */
  toOption(record: Rec): O;
}

/** What both pickers take alike. */
type PickerProps = Pick<RecordSelectProps<unknown>, 'label' | 'error' | 'withAsterisk' | 'disabled' | 'allowAddNew' | 'testId'>;

/**
 * The "Add New" wiring both pickers share: whether to offer it, and the area's creation dialog, which remembers
 * the new record's option (its label), refreshes the options and the area's lists, then hands the option on;
 * `picker` holds the props both pass to their input alike.
 */
function useAddNew<Rec, O extends { value: number; label: string }>(config: RecordSelectConfig<Rec, O>, props: PickerProps, onCreated: (option: O) => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isManager = useIsManager();
  const [creating, setCreating] = useState(false);
  const { CreateModal } = config;
  const modal = creating ? (
    <Suspense fallback={null}>
      <CreateModal
        onClose={() => setCreating(false)}
        onCreated={(record) => {
          const option = config.toOption(record);
          rememberOption(config.path, option as unknown as SelectOption);
          setCreating(false);
          void queryClient.invalidateQueries({ queryKey: ['options', config.path] });
          void queryClient.invalidateQueries({ queryKey: [config.queryKey] });
          onCreated(option);
        }}
      />
    </Suspense>
  ) : null;
  const picker = {
    path: config.path,
    pageSize: config.pageSize,
    label: props.label,
    error: props.error,
    onAddNew: props.allowAddNew !== false && (isManager || !config.managersOnly) ? () => setCreating(true) : undefined,
    addNewLabel: t('select.addNew'),
    withAsterisk: props.withAsterisk,
    disabled: props.disabled,
    testId: props.testId,
  };
  return { picker, modal };
}

/**
 * A searchable picker over an options endpoint whose "Add New" entry (value 0) opens the area's creation dialog
 * in place, then selects the new record (remembered for its label; options and lists refreshed).
 */
export function createRecordSelect<Rec, O extends { value: number; label: string }>(config: RecordSelectConfig<Rec, O>) {
  return function RecordSelect(props: RecordSelectProps<O>) {
    const [created, setCreated] = useState<SelectOption | null>(null);
    const addNew = useAddNew(config, props, (option) => {
      setCreated(option as unknown as SelectOption);
      props.onChange(option.value, option);
    });
    return (
      <>
        <AsyncSelect
          {...addNew.picker}
          value={props.value}
          onChange={(v, o) => props.onChange(v, o as unknown as O | null)}
          initialOption={created && created.value === props.value ? created : props.initialOption}
        />
        {addNew.modal}
      </>
    );
  };
}

export interface RecordMultiSelectProps {
  value: number[];
  onChange(value: number[]): void;
  label?: string;
  error?: string;
  /** Labels of the chosen values when they are not among the fetched options (e.g. from the loaded record). */
  initialOptions?: SelectOption[];
  withAsterisk?: boolean;
  disabled?: boolean;
  /** Offer "Add New" (default true). */
  allowAddNew?: boolean;
  testId?: string;
}

/**
 * The several-values form of `createRecordSelect`: its "Add New" entry (value 0) opens the area's creation
 * dialog in place, and the new record joins the chosen values.
 */
export function createRecordMultiSelect<Rec, O extends { value: number; label: string }>(config: RecordSelectConfig<Rec, O>) {
  return function RecordMultiSelect(props: RecordMultiSelectProps) {
    const [created, setCreated] = useState<SelectOption[]>([]);
    const addNew = useAddNew(config, props, (option) => {
      setCreated((list) => [option as unknown as SelectOption, ...list]);
      if (!props.value.includes(option.value)) props.onChange([...props.value, option.value]);
    });
    return (
      <>
        <AsyncMultiSelect
          {...addNew.picker}
          value={props.value}
          onChange={(v) => props.onChange(v)}
          initialOptions={[...created, ...(props.initialOptions ?? [])]}
        />
        {addNew.modal}
      </>
    );
  };
}
