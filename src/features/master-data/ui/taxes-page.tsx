import { Stack } from '@mantine/core';
import { useMoney } from '../../../web/components';
import { formatMoney, formatNumber } from '../../../web/lib/format';
import { useTranslation } from 'react-i18next';
import { choices } from '../../../web/lib/choices';
import { DEFAULT_TAX_SEQUENCE, TAX_COMPUTATIONS, TAX_SCOPES, taxInputSchema, type TaxDto } from '../master-data.schema';
import { MultiSelectField, NumberField, SelectField, TextField, YesNoField } from './form-fields';
import { MasterDataScreen, entityMessages, entityScreen } from './master-data-screen';

/** Value column: an amount in the organisation's currency for fixed taxes, a percent otherwise, a dash for a group. */
export function taxValue(tax: Pick<TaxDto, 'taxComputation' | 'amount'>, currency = 'USD') {
  if (tax.taxComputation === 'group' || tax.amount === null) return '-';
  if (tax.taxComputation === 'fixed') return formatMoney(tax.amount, currency);
  return `${formatNumber(tax.amount, 4)}%`;
}

/** /settings/taxes */
export default function TaxesPage() {
  const { t } = useTranslation('masterData');
  const { currency } = useMoney();
  return (
    <MasterDataScreen<TaxDto>
      {...entityScreen(t, 'taxes', 'tax')}
      messages={entityMessages('Tax', 'Taxes')}
      columns={[
        { key: 'name', header: t('fields.name'), hideable: false },
        { key: 'scope', header: t('fields.scope'), render: (r) => t(`scope.${r.scope}`) },
        { key: 'taxComputation', header: t('fields.type'), render: (r) => t(`computation.${r.taxComputation}`) },
        { key: 'amount', header: t('fields.value'), render: (r) => taxValue(r, currency) },
        { key: 'sequence', header: t('fields.sequence'), render: (r) => formatNumber(r.sequence, 0), defaultHidden: true },
        { key: 'Children', header: t('fields.children'), render: (r) => r.Children.map((c) => c.name).join(', '), defaultHidden: true },
      ]}
      searchText={(r) => `${r.name} ${r.scope} ${r.taxComputation}`}
      schema={taxInputSchema}
      defaults={(r) => ({
        name: r?.name ?? '',
        scope: r?.scope ?? null,
        taxComputation: r?.taxComputation ?? null,
        amount: r?.amount ?? '',
        isPriceIncluded: r ? r.isPriceIncluded : undefined,
        sequence: r?.sequence ?? DEFAULT_TAX_SEQUENCE,
        includeBaseAmount: r ? r.includeBaseAmount : false,
        children: r?.Children.map((c) => c.id) ?? [],
      })}
      fields={(form, { record, rows, readOnly }) => <TaxFields form={form} record={record} rows={rows} readOnly={readOnly} />}
    />
  );
}

function TaxFields({
  form,
  record,
  rows,
  readOnly,
}: {
  form: Parameters<typeof TextField>[0]['form'];
  record: TaxDto | null;
  rows: TaxDto[];
  readOnly: boolean;
}) {
  const { t } = useTranslation('masterData');
  const computation = form.watch('taxComputation') as string | null;
  const scope = form.watch('scope') as string | null;
  const { currency, digits, symbol } = useMoney();
  // child taxes: never groups, never the tax itself, and of the group's scope
  const childChoices = rows.filter((r) => r.taxComputation !== 'group' && r.id !== record?.id && (!scope || r.scope === scope));
  return (
    <Stack>
      <TextField form={form} name="name" label={t('fields.name')} required readOnly={readOnly} />
      <SelectField form={form} name="scope" label={t('fields.scope')} required readOnly={readOnly} data={choices(TAX_SCOPES, t, 'scope')} />
      <SelectField
        form={form}
        name="taxComputation"
        label={t('fields.taxComputation')}
        required
        readOnly={readOnly}
        data={choices(TAX_COMPUTATIONS, t, 'computation')}
      />
      {computation === 'group' ? (
        <MultiSelectField
          form={form}
          name="children"
          label={t('fields.children')}
          required
          readOnly={readOnly}
          data={childChoices.map((r) => ({ value: String(r.id), label: `${r.name} (${taxValue(r, currency)})` }))}
        />
      ) : (
        <NumberField
          form={form}
          name="amount"
          label={t('fields.amount')}
          required
          readOnly={readOnly}
          description={t('fields.amountHint')}
          prefix={computation === 'fixed' ? (symbol.length > 1 ? `${symbol} ` : symbol) : undefined}
          suffix={computation && computation !== 'fixed' ? '%' : undefined}
          decimalScale={computation === 'fixed' ? digits : 4}
        />
      )}
      <YesNoField form={form} name="isPriceIncluded" label={t('fields.isPriceIncluded')} readOnly={readOnly} />
      {computation !== 'group' && (
        <>
          <NumberField form={form} name="sequence" label={t('fields.sequence')} description={t('fields.sequenceHint')} readOnly={readOnly} decimalScale={0} />
          <YesNoField
            form={form}
            name="includeBaseAmount"
            label={t('fields.includeBaseAmount')}
            description={t('fields.includeBaseAmountHint')}
            required={false}
            readOnly={readOnly}
          />
        </>
      )}
    </Stack>
  );
}
