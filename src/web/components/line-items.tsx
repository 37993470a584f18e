import type { ReactNode } from 'react';
import { ActionIcon, Button, Group, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useElementSize, useMediaQuery } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { computeLine, computeTotals, type DocumentTotals, type EngineOptions, type LineInput, type TaxRule } from '../../shared/tax';
import { toMinor } from '../../shared/money';
import { registerTranslations } from '../i18n';
import { AsyncSelect, type SelectOption } from './async-select';

registerTranslations('lineItems', {
  en: {
    addLine: 'Add line',
    quantity: 'Quantity',
    unitPrice: 'Unit price',
    discount: 'Disc. %',
    tax: 'Tax',
    noTax: 'No tax',
    taxAmount: 'Tax amount',
    subtotal: 'Subtotal',
    remove: 'Remove line',
    noLines: 'No lines yet',
    rawSubtotal: 'Raw subtotal',
    totalDiscount: 'Total discount',
    untaxed: 'Untaxed price',
    totalTax: 'Total tax',
    total: 'Total price',
  },
  ar: {
    addLine: 'إضافة بند',
    quantity: 'الكمية',
    unitPrice: 'سعر الوحدة',
    discount: 'الخصم %',
    tax: 'الضريبة',
    noTax: 'بدون ضريبة',
    taxAmount: 'مبلغ الضريبة',
    subtotal: 'المجموع الفرعي',
    remove: 'حذف البند',
    noLines: 'لا توجد بنود بعد',
    rawSubtotal: 'المجموع قبل الخصم',
    totalDiscount: 'إجمالي الخصم',
    untaxed: 'السعر بدون ضريبة',
    totalTax: 'إجمالي الضريبة',
    total: 'السعر الإجمالي',
  },
});

/** A tax a line may take, as the documents' `get-tax-options` return it (the engine's form, with children). */
export interface TaxOption {
  value: number;
  label: string;
  taxComputation: TaxRule['taxComputation'];
  amount: number | null;
  isPriceIncluded: boolean;
  sequence?: number;
  includeBaseAmount?: boolean;
  children?: Omit<TaxRule, 'children'>[];
}

/** One line of a line-items table as a form holds it (text inputs keep strings while typing). */
export interface LineItemValue {
  name?: string;
  quantity: number | string;
  unitPrice?: number | string;
  discount: number | string;
  taxId?: number | null;
  uomId?: number | null;
  [idKey: string]: unknown;
}

const num = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
};

/** The shared engine's input for a form line (invalid text counts as 0 while the user types). */
export function toEngineLine(line: LineItemValue, taxes: TaxOption[], digits: number): LineInput {
  const tax = line.taxId ? taxes.find((t) => t.value === line.taxId) : undefined;
  return {
    quantity: num(line.quantity),
    unitPrice: toMinor(num(line.unitPrice), digits),
    discount: num(line.discount),
    tax: tax
      ? {
          taxComputation: tax.taxComputation,
          amount: tax.amount,
          isPriceIncluded: tax.isPriceIncluded,
          includeBaseAmount: tax.includeBaseAmount,
          children: tax.children,
        }
      : null,
  };
}

/** Live totals of several line lists, computed by the same engine as the server. */
export function liveTotals(lists: LineItemValue[][], taxes: TaxOption[], engine: EngineOptions): DocumentTotals {
  const { lines: _lines, ...totals } = computeTotals(
    lists.flat().map((l) => toEngineLine(l, taxes, engine.digits)),
    engine,
  );
  return totals;
}

/** What a line's item picker gets (a feature's own `*-select.tsx` can be plugged in with `renderItemSelect`). */
export interface ItemSelectProps {
  value: number | null;
  onChange(value: number | null, option: SelectOption | null): void;
  error?: string;
  initialOption: SelectOption | null;
  disabled?: boolean;
  testId?: string;
}

export interface LineItemsTableProps {
  title: string;
  /** The line's reference field: 'serviceId' or 'partId'. */
  idKey: string;
  lines: LineItemValue[];
  onChange(lines: LineItemValue[]): void;
  /** Options endpoint of the items, e.g. '/services/get-services-options'. */
  itemPath: string;
  /** Which option field carries the price: 'price' (services) or 'salesPrice' (parts). */
  priceKey: string;
  itemLabel: string;
  taxes: TaxOption[];
  /** Messages per line and field, e.g. errors[0].quantity. */
  errors?: (Partial<Record<string, { message?: string }>> | undefined)[];
  /** Money formatter for minor units (useMoney().formatMinor). */
  formatMinor(minor: number): string;
  /** The engine's options: the currency's decimals and the tax rounding (useMoney().engine). */
  engine: EngineOptions;
  /** Shapes a new line from a picked option (price, name, unit…). */
  fromOption?(option: SelectOption): Partial<LineItemValue>;
  testId?: string;
  readOnly?: boolean;
  /** The item picker; the kit's AsyncSelect on `itemPath` when left out. */
  renderItemSelect?(props: ItemSelectProps): ReactNode;
}

/** Below this width of its own box the lines are cards: the table's columns need it (a drawer column is ~758 px at 1440 wide). */
const TABLE_MIN_WIDTH = 720;

type LineControls = ReturnType<ReturnType<typeof lineControls>>;
type Translate = ReturnType<typeof useTranslation<'lineItems'>>['t'];

/** The controls of a line, for a table's props: `labelled` puts visible labels on them (cards) instead of names alone (table cells under headers). */
function lineControls(props: LineItemsTableProps, t: Translate) {
  const set = (i: number, patch: Partial<LineItemValue>) => props.onChange(props.lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const remove = (i: number) => props.onChange(props.lines.filter((_, j) => j !== i));
  const err = (i: number, field: string) => props.errors?.[i]?.[field]?.message;
  return (line: LineItemValue, i: number, labelled: boolean) => {
    const figures = computeLine(toEngineLine(line, props.taxes, props.engine.digits), props.engine);
    const id = line[props.idKey] as number | null | undefined;
    const rowId = props.testId ? `${props.testId}-${i}` : undefined;
    const named = (label: string) => (labelled ? { label } : { 'aria-label': label });
    const decimal = (field: 'quantity' | 'unitPrice' | 'discount', label: string, testSuffix: string) => (
      <TextInput
        value={String(line[field] ?? '')}
        inputMode="decimal"
        error={err(i, field)}
        readOnly={props.readOnly}
        {...named(label)}
        data-testid={rowId && `${rowId}-${testSuffix}`}
        onChange={(e) => set(i, { [field]: e.currentTarget.value })}
      />
    );
    return {
      rowId,
      item: (props.renderItemSelect ?? ((p: ItemSelectProps) => <AsyncSelect path={props.itemPath} {...p} />))({
        value: id ?? null,
        initialOption: id ? { value: id, label: line.name ?? '' } : null,
        error: err(i, props.idKey) ?? err(i, 'name'),
        disabled: props.readOnly,
        testId: rowId && `${rowId}-item`,
        onChange: (value, option) =>
          set(i, {
            [props.idKey]: value,
            name: option?.label ?? '',
            ...(option ? { unitPrice: Number(option[props.priceKey] ?? 0) } : {}),
            ...(option && props.fromOption ? props.fromOption(option) : {}),
          }),
      }),
      quantity: decimal('quantity', t('quantity'), 'quantity'),
      price: decimal('unitPrice', t('unitPrice'), 'price'),
      discount: decimal('discount', t('discount'), 'discount'),
      tax: (
        <Select
          data={props.taxes.map((tx) => ({ value: String(tx.value), label: tx.label }))}
          value={line.taxId ? String(line.taxId) : null}
          clearable
          placeholder={t('noTax')}
          error={err(i, 'taxId')}
          disabled={props.readOnly}
          {...named(t('tax'))}
          data-testid={rowId && `${rowId}-tax`}
          comboboxProps={{ withinPortal: true }}
          onChange={(v) => set(i, { taxId: v ? Number(v) : null })}
        />
      ),
      taxAmount: props.formatMinor(figures.taxAmount),
      subtotal: props.formatMinor(figures.subtotal),
      remove: !props.readOnly && (
        <ActionIcon variant="subtle" color="red" aria-label={t('remove')} onClick={() => remove(i)}>
          <IconTrash size={16} />
        </ActionIcon>
      ),
    };
  };
}

/** An editable table of document lines: item, quantity, unit price, discount %, tax; tax and subtotal live. In a narrow box (a phone, a narrow drawer) each line is a stacked card (the same fields, labelled). */
export function LineItemsTable(props: LineItemsTableProps) {
  const { t } = useTranslation('lineItems');
  const phone = useMediaQuery('(max-width: 48em)');
  // the box's own width decides, not the window's: the drawer's form column is much narrower than the window
  const box = useElementSize();
  const stacked = box.width > 0 ? box.width < TABLE_MIN_WIDTH : phone;
  const add = () => props.onChange([...props.lines, { [props.idKey]: null, name: '', quantity: 1, unitPrice: '', discount: 0, taxId: null }]);
  const controls = lineControls(props, t);
  const empty = (
    <Text size="sm" c="dimmed" ta="center">
      {t('noLines')}
    </Text>
  );
  return (
    <Stack gap={6} ref={box.ref} data-testid={props.testId}>
      <Group justify="space-between">
        <Text fw={600}>{props.title}</Text>
        {!props.readOnly && (
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={add} data-testid={props.testId && `${props.testId}-add`}>
            {t('addLine')}
          </Button>
        )}
      </Group>
      {stacked ? (
        <LineCards rows={props.lines.map((line, i) => controls(line, i, true))} empty={empty} testId={props.testId} />
      ) : (
        <LinesTable itemLabel={props.itemLabel} rows={props.lines.map((line, i) => controls(line, i, false))} empty={empty} />
      )}
    </Stack>
  );
}

/** The lines as stacked cards (a narrow box). */
function LineCards({ rows, empty, testId }: { rows: LineControls[]; empty: ReactNode; testId?: string }) {
  const { t } = useTranslation('lineItems');
  return (
    <Stack gap="sm" data-testid={testId && `${testId}-cards`}>
      {rows.length === 0 && empty}
      {rows.map((c, i) => (
        <Paper key={i} withBorder p="sm" radius="md" data-testid={c.rowId}>
          <Stack gap="xs">
            <Group gap="xs" wrap="nowrap" align="flex-end">
              <div style={{ flex: 1, minWidth: 0 }}>{c.item}</div>
              {c.remove}
            </Group>
            <SimpleGrid cols={3} spacing="xs">
              {c.quantity}
              {c.price}
              {c.discount}
            </SimpleGrid>
            {c.tax}
            <Group justify="space-between" gap="xs">
              <Text size="sm">
                {t('taxAmount')}: <span data-testid={c.rowId && `${c.rowId}-tax-amount`}>{c.taxAmount}</span>
              </Text>
              <Text size="sm" fw={600}>
                {t('subtotal')}: <span data-testid={c.rowId && `${c.rowId}-subtotal`}>{c.subtotal}</span>
              </Text>
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** The lines as a table under headers (a wide box). */
function LinesTable({ itemLabel, rows, empty }: { itemLabel: string; rows: LineControls[]; empty: ReactNode }) {
  const { t } = useTranslation('lineItems');
  // fixed layout: the columns keep these widths, the item takes the rest, headers and long amounts wrap
  const figure = { ta: 'end', style: { overflowWrap: 'anywhere' } } as const;
  return (
    <Table verticalSpacing={4} horizontalSpacing={6} layout="fixed" withTableBorder>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{itemLabel}</Table.Th>
          <Table.Th w={76}>{t('quantity')}</Table.Th>
          <Table.Th w={88}>{t('unitPrice')}</Table.Th>
          <Table.Th w={64}>{t('discount')}</Table.Th>
          <Table.Th w={120}>{t('tax')}</Table.Th>
          <Table.Th w={84} {...figure}>
            {t('taxAmount')}
          </Table.Th>
          <Table.Th w={100} {...figure}>
            {t('subtotal')}
          </Table.Th>
          <Table.Th w={36} />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.length === 0 && (
          <Table.Tr>
            <Table.Td colSpan={8}>{empty}</Table.Td>
          </Table.Tr>
        )}
        {rows.map((c, i) => (
          <Table.Tr key={i} data-testid={c.rowId}>
            <Table.Td>{c.item}</Table.Td>
            <Table.Td>{c.quantity}</Table.Td>
            <Table.Td>{c.price}</Table.Td>
            <Table.Td>{c.discount}</Table.Td>
            <Table.Td>{c.tax}</Table.Td>
            <Table.Td {...figure} data-testid={c.rowId && `${c.rowId}-tax-amount`}>
              {c.taxAmount}
            </Table.Td>
            <Table.Td {...figure} data-testid={c.rowId && `${c.rowId}-subtotal`}>
              {c.subtotal}
            </Table.Td>
            <Table.Td>{c.remove}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The summary of a document: raw subtotal, total discount, untaxed price, total tax, total price. */
export function DocumentSummary({
  title,
  totals,
  formatMinor,
  testId,
}: {
  title: string;
  totals: DocumentTotals;
  formatMinor(minor: number): string;
  testId?: string;
}) {
  const { t } = useTranslation('lineItems');
  const rows: [keyof DocumentTotals, string][] = [
    ['rawSubtotal', t('rawSubtotal')],
    ['totalDiscount', t('totalDiscount')],
    ['untaxed', t('untaxed')],
    ['totalTax', t('totalTax')],
    ['total', t('total')],
  ];
  return (
    <Stack gap={4} maw={360} ml="auto" w="100%" data-testid={testId}>
      <Text fw={600}>{title}</Text>
      {rows.map(([key, label]) => (
        <Group key={key} justify="space-between">
          <Text size="sm" fw={key === 'total' ? 700 : 400}>
            {label}
          </Text>
          <Text size="sm" fw={key === 'total' ? 700 : 400} data-testid={testId && `${testId}-${key}`}>
            {formatMinor(totals[key])}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
