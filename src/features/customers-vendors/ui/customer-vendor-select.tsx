import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AsyncSelect, notifyError, notifySuccess, rememberOption, type SelectOption } from '../../../web/components';
import { api, errorMessage } from '../../../web/lib/api';
import { registerTranslations } from '../../../web/i18n';
import { CV_MESSAGES, quickCreateTitleSchema, type CustomerVendorDto, type PartyType } from '../customers-vendors.schema';

registerTranslations('customerVendorSelect', {
  en: {
    customer: 'Customer',
    vendor: 'Vendor',
    create: 'Create "{{title}}"',
    addNew: 'Add New',
    titleInvalid: CV_MESSAGES.quickCreateTitle,
    added: '{{entity}} added successfully',
    failed: 'Failed to add {{entity}}',
  },
  ar: {
    customer: 'العميل',
    vendor: 'المورد',
    create: 'إنشاء "{{title}}"',
    addNew: 'إضافة جديد',
    titleInvalid: 'العنوان ليس بتنسيق بريد إلكتروني صالح',
    added: 'تمت إضافة {{entity}} بنجاح',
    failed: 'فشل إضافة {{entity}}',
  },
});

/** The options endpoint every customer/vendor picker uses. */
export const CUSTOMER_VENDOR_OPTIONS_PATH = '/customer-vendors/get-customer-vendor-options';
/** How long the quick-create error stays under the box (spec: 3000 ms). */
export const QUICK_CREATE_ERROR_MS = 3000;

export interface CustomerVendorSelectProps {
  value: number | null | undefined;
  onChange(value: number | null, option: SelectOption | null): void;
  /** Only customers or only vendors (options and quick create); both when left out. */
  type?: PartyType;
  label?: string;
  placeholder?: string;
  error?: string;
  /** The chosen record's label when the page loaded it (e.g. `{ value: 3, label: 'Acme' }`). */
  initialOption?: SelectOption | null;
  /** Offer the quick create (typed title used as name and e-mail, category individual). Default true. */
  quickCreate?: boolean;
  required?: boolean;
  withAsterisk?: boolean;
  disabled?: boolean;
  clearable?: boolean;
  testId?: string;
}

/**
 * A searchable customer/vendor select with the spec's quick create: type an e-mail address in the box
 * and pick `Create "…"`; the record is created with the title as name and e-mail, category individual.
 * A title that is not an e-mail shows 'Title is not in a valid email format' for 3 seconds.
 */
export function CustomerVendorSelect(props: CustomerVendorSelectProps) {
  const { t } = useTranslation('customerVendorSelect');
  const queryClient = useQueryClient();
  const [quickError, setQuickError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<SelectOption | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const type: PartyType = props.type ?? 'customer';
  const entity = t(type);

  const showError = (message: string) => {
    setQuickError(message);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setQuickError(null), QUICK_CREATE_ERROR_MS);
  };

  const quickCreate = async (title: string) => {
    const parsed = quickCreateTitleSchema.safeParse(title);
    if (!parsed.success) {
      showError(t('titleInvalid'));
      return;
    }
    setCreating(true);
    try {
      const res = await api.post<{ customerVendor: CustomerVendorDto }>('/customer-vendors/add-customer-vendor', {
        name: parsed.data,
        email: parsed.data,
        type,
        category: 'individual',
      });
      const option: SelectOption = {
        value: res.customerVendor.id,
        label: res.customerVendor.name,
        email: res.customerVendor.email,
        type: res.customerVendor.type,
      };
      rememberOption(CUSTOMER_VENDOR_OPTIONS_PATH, option);
      setCreated(option);
      void queryClient.invalidateQueries({ queryKey: ['options', CUSTOMER_VENDOR_OPTIONS_PATH] });
      void queryClient.invalidateQueries({ queryKey: ['customer-vendors'] });
      notifySuccess(t('added', { entity }));
      props.onChange(option.value, option);
    } catch (err) {
      const message = errorMessage(err, t('failed', { entity: entity.toLowerCase() }));
      showError(message);
      notifyError(message);
    } finally {
      setCreating(false);
    }
  };

  const quick = props.quickCreate !== false && !props.disabled;
  return (
    <AsyncSelect
      path={CUSTOMER_VENDOR_OPTIONS_PATH}
      value={props.value}
      onChange={(v, o) => {
        setQuickError(null);
        props.onChange(v, o);
      }}
      label={props.label}
      placeholder={props.placeholder}
      error={quickError ?? props.error}
      initialOption={created && created.value === props.value ? created : props.initialOption}
      extraQuery={props.type ? { type: props.type } : undefined}
      onAddNew={quick ? (search) => void quickCreate(search) : undefined}
      addNewLabel={(search) => (search ? t('create', { title: search }) : t('addNew'))}
      required={props.required}
      withAsterisk={props.withAsterisk}
      disabled={props.disabled || creating}
      clearable={props.clearable}
      testId={props.testId}
    />
  );
}
