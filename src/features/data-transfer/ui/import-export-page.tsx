import { useMemo, useState } from 'react';
import { csvLine } from '../../../shared/csv';
import { useSearchParams } from 'react-router';
import { Alert, Badge, Button, Checkbox, FileInput, Group, Paper, Progress, Radio, ScrollArea, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload, IconFileUpload, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { EmptyState, notifyError, notifySuccess } from '../../../web/components';
import { api, downloadFile, errorMessage, saveBlob } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { registerTranslations } from '../../../web/i18n';
import {
  CREATES_MISSING,
  guessColumn,
  IMPORT_COLUMNS,
  IMPORT_KEYS,
  IMPORT_KINDS,
  importTemplate,
  type ImportKind,
  type ImportProblem,
  type ImportResult,
} from '../data-transfer.schema';
import { ENCODINGS, parseInWorker, type Encoding, type ParsedFile } from './parse-in-worker';
import { OrganisationExport } from './organisation-export';

registerTranslations('dataTransfer', {
  en: {
    title: 'Import / Export',
    importTitle: 'Import',
    exportTitle: 'Export',
    kind: 'What to import',
    kinds: {
      assets: 'Assets',
      parts: 'Parts with stock',
      'customer-vendors': 'Customers and vendors',
      services: 'Services',
      'work-stations': 'Work stations',
      users: 'Users (invitations)',
      'meter-readings': 'Meter readings',
      'asset-categories': 'Asset categories',
      'product-categories': 'Product categories',
      taxes: 'Taxes',
      'uom-categories': 'Units of measure categories',
      uoms: 'Units of measure',
      'time-tracking-reasons': 'Time tracking reasons',
    },
    hints: {
      services: 'Several work stations (by code or name) are separated by ";", with one operation and time for all, or one per station.',
      taxes: 'A group tax names its child taxes separated by ";": taxes of this organisation or of earlier rows.',
      'product-categories': 'A parent may be a category of this organisation or of an earlier row.',
      users: 'Each row invites a person by e-mail (role manager or worker); the invitation is e-mailed when the import is saved.',
      'meter-readings': 'Assets by number (AS-0001), meters by name or id; times without an offset are read in your time zone ({{zone}}).',
    },
    template: 'Download template',
    file: 'File (CSV or XLSX)',
    filePlaceholder: 'Choose a file',
    encoding: 'Encoding',
    encodings: { 'utf-8': 'UTF-8 (with or without BOM)', 'windows-1256': 'Windows-1256 (Arabic)' },
    parsing: 'Reading the file…',
    found: '{{rows}} rows, {{columns}} columns',
    delimiter: 'separated by "{{delimiter}}"',
    errors: {
      encoding: 'The file is not UTF-8 text. If it was saved by Excel in Arabic, choose Windows-1256 as its encoding.',
      empty: 'The file has no rows under its header line.',
      oneColumn: 'Only one column was found: check that the file is separated by commas, semicolons or tabs.',
      unreadable: 'The file cannot be read as a spreadsheet.',
    },
    mapTitle: 'Columns',
    fileColumn: 'Column of the file',
    field: 'Imports into',
    ignore: 'Do not import',
    missingRequired: 'Required columns not mapped: {{columns}}',
    mode: 'When some rows have problems',
    modeAll: 'Import nothing (all or nothing)',
    modeValid: 'Import the valid rows and give me a CSV of the rejected ones',
    createMissing: 'Create the {{what}} the file names and this organisation lacks',
    missingWhat: { category: 'categories', parent: 'parent categories' },
    dryRun: 'Check (dry run)',
    import: 'Import',
    importing: 'Importing… {{done}} of {{total}} rows',
    checking: 'Checking {{total}} rows…',
    summary: '{{total}} rows: {{valid}} valid, {{bad}} with problems.',
    changes: '{{new}} new, {{updated}} updated, {{unchanged}} unchanged.',
    missingRequiredNew: 'Required columns not mapped: {{columns}}. Only rows that name an existing record (by {{key}}) can be imported; new ones will be refused.',
    imported: '{{count}} rows imported.',
    dryRunDone: 'Dry run: nothing was saved.',
    missing: 'Not found in this organisation: {{names}}.',
    createThem: 'Create them',
    created: 'Created: {{names}}.',
    willCreate: 'Will be created: {{names}}.',
    problemsTitle: 'Problems',
    row: 'Row',
    column: 'Column',
    value: 'Value',
    problem: 'Problem',
    more: 'and {{count}} more problems (all are in the rejected rows CSV).',
    rejected: 'Download rejected rows',
    failed: 'The import failed',
    mappingFailed: 'Could not load the saved column mapping',
    exportAll: 'Export all {{list}}',
    exportHint: 'Each list also has an Export button: it exports what the list shows (its filters and visible columns).',
    lists: { 'work-orders': 'work orders', assets: 'assets' },
    managersOnly: 'Only managers and admins can import.',
  },
  ar: {
    title: 'الاستيراد / التصدير',
    importTitle: 'استيراد',
    exportTitle: 'تصدير',
    kind: 'ما الذي تريد استيراده',
    kinds: {
      assets: 'الأصول',
      parts: 'القطع مع المخزون',
      'customer-vendors': 'العملاء والموردون',
      services: 'الخدمات',
      'work-stations': 'محطات العمل',
      users: 'المستخدمون (دعوات)',
      'meter-readings': 'قراءات العدادات',
      'asset-categories': 'فئات الأصول',
      'product-categories': 'فئات المنتجات',
      taxes: 'الضرائب',
      'uom-categories': 'فئات وحدات القياس',
      uoms: 'وحدات القياس',
      'time-tracking-reasons': 'أسباب تتبع الوقت',
    },
    hints: {
      services: 'تُفصل محطات العمل المتعددة (بالرمز أو الاسم) بـ ";"، مع عملية ووقت واحد للجميع أو واحد لكل محطة.',
      taxes: 'تذكر الضريبة المجمّعة ضرائبها الفرعية مفصولة بـ ";": ضرائب هذه المؤسسة أو الصفوف السابقة.',
      'product-categories': 'يمكن أن تكون الفئة الأم فئة في هذه المؤسسة أو في صف سابق.',
      users: 'كل صف يدعو شخصًا بالبريد الإلكتروني (دور مدير أو عامل)؛ تُرسل الدعوة عند حفظ الاستيراد.',
      'meter-readings': 'الأصول برقمها (AS-0001) والعدادات باسمها أو رقمها؛ الأوقات بلا فرق توقيت تُقرأ بمنطقتك الزمنية ({{zone}}).',
    },
    template: 'تنزيل القالب',
    file: 'الملف (CSV أو XLSX)',
    filePlaceholder: 'اختر ملفًا',
    encoding: 'الترميز',
    encodings: { 'utf-8': 'UTF-8 (مع BOM أو بدونه)', 'windows-1256': 'Windows-1256 (عربي)' },
    parsing: 'جارٍ قراءة الملف…',
    found: '{{rows}} صفًا، {{columns}} أعمدة',
    delimiter: 'مفصولة بـ "{{delimiter}}"',
    errors: {
      encoding: 'الملف ليس نصًا بترميز UTF-8. إذا حُفظ من Excel بالعربية فاختر ترميز Windows-1256.',
      empty: 'لا توجد صفوف تحت سطر العناوين في الملف.',
      oneColumn: 'وُجد عمود واحد فقط: تحقق من أن الملف مفصول بفواصل أو فواصل منقوطة أو علامات جدولة.',
      unreadable: 'تعذرت قراءة الملف كجدول بيانات.',
    },
    mapTitle: 'الأعمدة',
    fileColumn: 'عمود الملف',
    field: 'يُستورد إلى',
    ignore: 'لا تستورد',
    missingRequired: 'أعمدة مطلوبة غير مربوطة: {{columns}}',
    mode: 'عندما تكون في بعض الصفوف مشكلات',
    modeAll: 'لا تستورد شيئًا (الكل أو لا شيء)',
    modeValid: 'استورد الصفوف الصحيحة وأعطني ملف CSV بالصفوف المرفوضة',
    createMissing: 'أنشئ {{what}} التي يذكرها الملف ولا توجد في هذه المؤسسة',
    missingWhat: { category: 'الفئات', parent: 'الفئات الأم' },
    dryRun: 'تحقق (تشغيل تجريبي)',
    import: 'استيراد',
    importing: 'جارٍ الاستيراد… {{done}} من {{total}} صفًا',
    checking: 'جارٍ التحقق من {{total}} صفًا…',
    summary: '{{total}} صفًا: {{valid}} صحيحة، {{bad}} بها مشكلات.',
    changes: '{{new}} جديدة، {{updated}} محدَّثة، {{unchanged}} دون تغيير.',
    missingRequiredNew: 'أعمدة مطلوبة غير مربوطة: {{columns}}. تُستورد فقط الصفوف التي تذكر سجلًا موجودًا (بـ {{key}})؛ وتُرفض الجديدة.',
    imported: 'تم استيراد {{count}} صفًا.',
    dryRunDone: 'تشغيل تجريبي: لم يُحفظ شيء.',
    missing: 'غير موجود في هذه المؤسسة: {{names}}.',
    createThem: 'أنشئها',
    created: 'أُنشئ: {{names}}.',
    willCreate: 'سيُنشأ: {{names}}.',
    problemsTitle: 'المشكلات',
    row: 'الصف',
    column: 'العمود',
    value: 'القيمة',
    problem: 'المشكلة',
    more: 'و{{count}} مشكلات أخرى (كلها في ملف الصفوف المرفوضة).',
    rejected: 'تنزيل الصفوف المرفوضة',
    failed: 'فشل الاستيراد',
    mappingFailed: 'تعذر تحميل ربط الأعمدة المحفوظ',
    exportAll: 'تصدير كل {{list}}',
    exportHint: 'لكل قائمة أيضًا زر تصدير: يصدّر ما تعرضه القائمة (عوامل التصفية والأعمدة الظاهرة).',
    lists: { 'work-orders': 'أوامر العمل', assets: 'الأصول' },
    managersOnly: 'الاستيراد للمديرين والمسؤولين فقط.',
  },
});

/** The browser's time zone: meter readings' times without an offset are read in it. */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Rows sent per request in "valid rows" mode: each chunk commits on its own, so the bar shows real progress. */
const CHUNK = 5000;
const SHOWN_PROBLEMS = 200;

/** A CSV made here (a template, the rejected rows) saved as a download. */
const saveCsv = (text: string, fileName: string) => saveBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), fileName);

/** The kinds with a line of help under the kind's choice. */
const HINTED = { services: 1, taxes: 1, 'product-categories': 1, users: 1, 'meter-readings': 1 } as const;

/** The import wizard (upload, map, preview with each row's problems, dry run, import) and the exports (decision 042). */
export default function ImportExportPage() {
  const { t } = useTranslation('dataTransfer');
  const isManager = useIsManager();
  const [params] = useSearchParams();
  const initialKind = IMPORT_KINDS.find((k) => k === params.get('kind')) ?? 'assets';
  const [kind, setKind] = useState<ImportKind>(initialKind);
  const [file, setFile] = useState<File | null>(null);
  const [encoding, setEncoding] = useState<Encoding>('utf-8');
  const [parsed, setParsed] = useState<ParsedFile | null>(null);
  const [parsing, setParsing] = useState(false);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [mode, setMode] = useState<'all' | 'valid'>('all');
  const [createMissing, setCreateMissing] = useState(false);
  const [running, setRunning] = useState<{ done: number; total: number; dry: boolean } | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);

  const load = async (nextFile: File | null, nextEncoding: Encoding, nextKind: ImportKind) => {
    setResult(null);
    setParsed(null);
    if (!nextFile) return;
    setParsing(true);
    try {
      const [table, saved] = await Promise.all([
        parseInWorker(nextFile, nextEncoding),
        api.get<{ mapping: Record<string, string> }>(`/data-transfer/mapping/${nextKind}`).catch((err) => {
          notifyError(errorMessage(err, t('mappingFailed')));
          return { mapping: {} as Record<string, string> };
        }),
      ]);
      const keys = new Set(IMPORT_COLUMNS[nextKind].map((c) => c.key));
      const next: Record<string, string> = {};
      for (const header of table.headers) {
        const remembered = saved.mapping[header];
        const column = remembered && keys.has(remembered) ? remembered : guessColumn(nextKind, header);
        // one file column per field: the first wins
        if (column && !Object.values(next).includes(column)) next[header] = column;
      }
      setMapping(next);
      setParsed(table);
    } catch (err) {
      notifyError(errorMessage(err, t('errors.unreadable')));
    } finally {
      setParsing(false);
    }
  };

  const columns = IMPORT_COLUMNS[kind];
  const labelOf = (key: string | null) => (key ? (Object.entries(mapping).find(([, v]) => v === key)?.[0] ?? columns.find((c) => c.key === key)?.label ?? key) : '');
  const missingRequired = columns.filter((c) => c.required && !Object.values(mapping).includes(c.key));
  // A file with the key or the ID column updates the records it names: their other columns are optional.
  const matchColumn = columns.find((c) => (c.exportOnly === 'id' || c.key === IMPORT_KEYS[kind]) && Object.values(mapping).includes(c.key));
  const headerIndex = useMemo(() => new Map(parsed?.headers.map((h, i) => [h, i]) ?? []), [parsed]);

  const bodyRows = () =>
    (parsed?.rows ?? []).map((cells) => {
      const row: Record<string, string> = {};
      for (const [header, key] of Object.entries(mapping)) if (key) row[key] = cells[headerIndex.get(header) ?? -1] ?? '';
      return row;
    });

  const run = async (dryRun: boolean, withCreate = createMissing) => {
    if (!parsed) return;
    const rows = bodyRows();
    setResult(null);
    try {
      if (!dryRun) await api.put(`/data-transfer/mapping/${kind}`, { mapping: Object.fromEntries(Object.entries(mapping).filter(([, v]) => v)) });
      // All or nothing (and any dry run) is one request, one transaction; "valid rows" commits chunk by chunk.
      const chunk = mode === 'valid' && !dryRun ? CHUNK : rows.length;
      const total: ImportResult = { total: 0, valid: 0, imported: 0, new: 0, updated: 0, unchanged: 0, dryRun, problems: [], created: [], missing: [] };
      for (let start = 0; start < rows.length; start += chunk) {
        setRunning({ done: start, total: rows.length, dry: dryRun });
        const part = await api.post<ImportResult>(
          `/data-transfer/import/${kind}`,
          {
            rows: rows.slice(start, start + chunk),
            mode,
            dryRun,
            createMissing: withCreate && !!CREATES_MISSING[kind],
            firstRow: start + 2,
            ...(kind === 'meter-readings' ? { timeZone: timeZone() } : {}),
          },
          { timeoutMs: 300_000 },
        );
        total.total += part.total;
        total.valid += part.valid;
        total.imported += part.imported;
        total.new += part.new;
        total.updated += part.updated;
        total.unchanged += part.unchanged;
        total.problems.push(...part.problems);
        total.created = [...new Set([...total.created, ...part.created])];
        total.missing = [...new Set([...total.missing, ...part.missing])];
      }
      setResult(total);
      if (!dryRun && total.imported) notifySuccess(t('imported', { count: total.imported }));
    } catch (err) {
      notifyError(errorMessage(err, t('failed')));
    } finally {
      setRunning(null);
    }
  };

  const downloadRejected = () => {
    if (!parsed || !result) return;
    const byRow = new Map<number, ImportProblem[]>();
    for (const p of result.problems) byRow.set(p.row, [...(byRow.get(p.row) ?? []), p]);
    let text = `\uFEFF${csvLine([...parsed.headers, 'Problems'])}`;
    parsed.rows.forEach((cells, i) => {
      const problems = byRow.get(i + 2);
      if (problems) text += csvLine([...parsed.headers.map((_, j) => cells[j] ?? ''), problems.map((p) => (p.column ? `${labelOf(p.column)}: ${p.message}` : p.message)).join('; ')]);
    });
    saveCsv(text, `${kind}-rejected.csv`);
  };

  const bad = result ? result.total - result.valid : 0;
  /** The column whose missing names this kind can create, if any. */
  const creatable = CREATES_MISSING[kind];
  const canRun = !!parsed && !parsed.error && (missingRequired.length === 0 || !!matchColumn) && !running;

  return (
    <Stack gap="md" data-testid="import-export-page">
      <Title order={2} size="h3">
        {t('title')}
      </Title>
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('importTitle')}
          </Title>
          {!isManager ? (
            <EmptyState title={t('managersOnly')} />
          ) : (
            <>
              <Group align="flex-end" wrap="wrap">
                <Select
                  label={t('kind')}
                  data={IMPORT_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
                  value={kind}
                  allowDeselect={false}
                  onChange={(v) => {
                    const next = (v ?? 'assets') as ImportKind;
                    setKind(next);
                    void load(file, encoding, next);
                  }}
                  data-testid="import-kind"
                />
                <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => saveCsv(importTemplate(kind), `${kind}-template.csv`)} data-testid="import-template">
                  {t('template')}
                </Button>
              </Group>
              {kind in HINTED && (
                <Text size="sm" c="dimmed" data-testid="import-hint">
                  {t(`hints.${kind}`, { zone: timeZone() })}
                </Text>
              )}
              <Group align="flex-end" wrap="wrap">
                <FileInput
                  label={t('file')}
                  placeholder={t('filePlaceholder')}
                  accept=".csv,.txt,.tsv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                  value={file}
                  onChange={(f) => {
                    setFile(f);
                    void load(f, encoding, kind);
                  }}
                  leftSection={<IconFileUpload size={16} />}
                  miw={260}
                  clearable
                  data-testid="import-file"
                />
                <Select
                  label={t('encoding')}
                  data={ENCODINGS.map((e) => ({ value: e, label: t(`encodings.${e}`) }))}
                  value={encoding}
                  allowDeselect={false}
                  onChange={(v) => {
                    const next = (v ?? 'utf-8') as Encoding;
                    setEncoding(next);
                    void load(file, next, kind);
                  }}
                  data-testid="import-encoding"
                />
              </Group>
              {parsing && <Text size="sm">{t('parsing')}</Text>}
              {parsed?.error && (
                <Alert color="red" data-testid="import-file-error">
                  {t(`errors.${parsed.error}`)}
                </Alert>
              )}
              {parsed && !parsed.error && (
                <>
                  <Text size="sm" c="dimmed" data-testid="import-found">
                    {t('found', { rows: parsed.rows.length, columns: parsed.headers.length })}
                    {parsed.delimiter ? ` ${t('delimiter', { delimiter: parsed.delimiter === '\t' ? 'TAB' : parsed.delimiter })}` : ''}
                  </Text>
                  <Title order={4} size="h5">
                    {t('mapTitle')}
                  </Title>
                  <ScrollArea type="auto">
                    <Table miw={420} data-testid="import-mapping">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>{t('fileColumn')}</Table.Th>
                          <Table.Th>{t('field')}</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {parsed.headers.map((header) => (
                          <Table.Tr key={header}>
                            <Table.Td>{header}</Table.Td>
                            <Table.Td>
                              <Select
                                aria-label={header}
                                data={[{ value: '', label: t('ignore') }, ...columns.map((c) => ({ value: c.key, label: `${c.label}${c.required ? ' *' : ''}` }))]}
                                value={mapping[header] ?? ''}
                                allowDeselect={false}
                                onChange={(v) => {
                                  const next = { ...mapping };
                                  for (const [h, k] of Object.entries(next)) if (v && k === v) delete next[h];
                                  next[header] = v ?? '';
                                  setMapping(next);
                                  setResult(null);
                                }}
                                data-testid={`map-${header}`}
                              />
                            </Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </ScrollArea>
                  {missingRequired.length > 0 && (
                    <Alert color="orange" data-testid="import-missing-columns">
                      {matchColumn
                        ? t('missingRequiredNew', { columns: missingRequired.map((c) => c.label).join(', '), key: matchColumn.label })
                        : t('missingRequired', { columns: missingRequired.map((c) => c.label).join(', ') })}
                    </Alert>
                  )}
                  <Radio.Group label={t('mode')} value={mode} onChange={(v) => setMode(v as 'all' | 'valid')}>
                    <Stack gap={6} mt={6}>
                      <Radio value="all" label={t('modeAll')} data-testid="mode-all" />
                      <Radio value="valid" label={t('modeValid')} data-testid="mode-valid" />
                    </Stack>
                  </Radio.Group>
                  {creatable && (
                    <Checkbox
                      label={t('createMissing', { what: t(`missingWhat.${creatable}`) })}
                      checked={createMissing}
                      onChange={(e) => setCreateMissing(e.currentTarget.checked)}
                      data-testid="create-missing"
                    />
                  )}
                  <Group>
                    <Button variant="default" onClick={() => void run(true)} disabled={!canRun} data-testid="import-dry-run">
                      {t('dryRun')}
                    </Button>
                    <Button leftSection={<IconUpload size={16} />} onClick={() => void run(false)} disabled={!canRun} data-testid="import-run">
                      {t('import')}
                    </Button>
                  </Group>
                  {running && (
                    <Stack gap={4} data-testid="import-progress">
                      <Text size="sm">{running.dry || mode === 'all' ? t('checking', { total: running.total }) : t('importing', { done: running.done, total: running.total })}</Text>
                      <Progress
                        value={running.dry || mode === 'all' ? 100 : Math.max(2, (running.done / running.total) * 100)}
                        animated
                        striped
                        aria-label={t('import')}
                      />
                    </Stack>
                  )}
                  {result && (
                    <Stack gap="xs" data-testid="import-result">
                      <Alert color={bad ? 'orange' : 'green'}>
                        <Text size="sm" data-testid="import-summary">
                          {t('summary', { total: result.total, valid: result.valid, bad })} {result.dryRun ? t('dryRunDone') : t('imported', { count: result.imported })}
                        </Text>
                        <Text size="sm" data-testid="import-changes">
                          {t('changes', { new: result.new, updated: result.updated, unchanged: result.unchanged })}
                        </Text>
                        {result.created.length > 0 && (
                          <Text size="sm" data-testid="import-created">
                            {t(result.dryRun ? 'willCreate' : 'created', { names: result.created.join(', ') })}
                          </Text>
                        )}
                        {result.missing.length > 0 && creatable && (
                          <Group gap="xs" mt={4}>
                            <Text size="sm">{t('missing', { names: result.missing.join(', ') })}</Text>
                            <Button
                              size="xs"
                              variant="light"
                              onClick={() => {
                                setCreateMissing(true);
                                void run(true, true);
                              }}
                              data-testid="create-missing-now"
                            >
                              {t('createThem')}
                            </Button>
                          </Group>
                        )}
                      </Alert>
                      {result.problems.length > 0 && (
                        <>
                          <Group justify="space-between">
                            <Title order={4} size="h5">
                              {t('problemsTitle')} <Badge color="red">{result.problems.length}</Badge>
                            </Title>
                            <Button variant="default" size="xs" leftSection={<IconDownload size={14} />} onClick={downloadRejected} data-testid="download-rejected">
                              {t('rejected')}
                            </Button>
                          </Group>
                          <ScrollArea type="auto">
                            <Table striped miw={520} data-testid="import-problems">
                              <Table.Thead>
                                <Table.Tr>
                                  <Table.Th>{t('row')}</Table.Th>
                                  <Table.Th>{t('column')}</Table.Th>
                                  <Table.Th>{t('value')}</Table.Th>
                                  <Table.Th>{t('problem')}</Table.Th>
                                </Table.Tr>
                              </Table.Thead>
                              <Table.Tbody>
                                {result.problems.slice(0, SHOWN_PROBLEMS).map((p, i) => {
                                  const header = labelOf(p.column);
                                  const cell = parsed.rows[p.row - 2]?.[headerIndex.get(header) ?? -1] ?? '';
                                  return (
                                    <Table.Tr key={i}>
                                      <Table.Td>{p.row}</Table.Td>
                                      <Table.Td>{header}</Table.Td>
                                      <Table.Td style={{ maxWidth: 240, overflowWrap: 'anywhere' }}>{cell}</Table.Td>
                                      <Table.Td>{p.message}</Table.Td>
                                    </Table.Tr>
                                  );
                                })}
                              </Table.Tbody>
                            </Table>
                          </ScrollArea>
                          {result.problems.length > SHOWN_PROBLEMS && <Text size="sm">{t('more', { count: result.problems.length - SHOWN_PROBLEMS })}</Text>}
                        </>
                      )}
                    </Stack>
                  )}
                </>
              )}
            </>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('exportTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('exportHint')}
          </Text>
          <Group>
            {(['work-orders', 'assets'] as const).map((list) => (
              <Button
                key={list}
                variant="default"
                leftSection={<IconDownload size={16} />}
                onClick={() => void downloadFile(`/data-transfer/export/${list}`, `${list}.csv`).catch((err) => notifyError(errorMessage(err, t('failed'))))}
                data-testid={`export-all-${list}`}
              >
                {t('exportAll', { list: t(`lists.${list}`) })}
              </Button>
            ))}
          </Group>
          <OrganisationExport />
        </Stack>
      </Paper>
    </Stack>
  );
}
