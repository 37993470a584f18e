import { useMemo, useState } from 'react';
import { csvLine } from '../../../shared/csv';
import { useSearchParams } from 'react-router';
import { Alert, Badge, Button, Checkbox, FileInput, Group, Paper, Progress, Radio, ScrollArea, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload, IconFileUpload, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { EmptyState, notifyError, notifySuccess } from '../../../web/components';
import { api, downloadFile, errorMessage, saveBlob } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
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
import { OrganisationImport } from './organisation-import';
import './import-export-translations';

/** The browser's time zone: meter readings' times without an offset are read in it. */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Rows sent per request in "valid rows" mode: each chunk commits on its own, so the bar shows real progress. */
const CHUNK = 5000;
const SHOWN_PROBLEMS = 200;

/** A CSV made here (a template, the rejected rows) saved as a download. */
const saveCsv = (text: string, fileName: string) => saveBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), fileName);

/** The kinds with a line of help under the kind's choice. */
const HINTED = {
  services: 1,
  taxes: 1,
  'product-categories': 1,
  users: 1,
  'meter-readings': 1,
  'work-orders': 1,
  'work-order-labor': 1,
  'work-order-parts': 1,
  procedures: 1,
  'pm-plans': 1,
  locations: 1,
  storerooms: 1,
  'stock-levels': 1,
  'failure-codes': 1,
} as const;

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
  const labelOf = (key: string | null) =>
    key ? (Object.entries(mapping).find(([, v]) => v === key)?.[0] ?? columns.find((c) => c.key === key)?.label ?? key) : '';
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
      if (problems)
        text += csvLine([
          ...parsed.headers.map((_, j) => cells[j] ?? ''),
          problems.map((p) => (p.column ? `${labelOf(p.column)}: ${p.message}` : p.message)).join('; '),
        ]);
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
                <Button
                  variant="default"
                  leftSection={<IconDownload size={16} />}
                  onClick={() => saveCsv(importTemplate(kind), `${kind}-template.csv`)}
                  data-testid="import-template"
                >
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
                                data={[
                                  { value: '', label: t('ignore') },
                                  ...columns.map((c) => ({ value: c.key, label: `${c.label}${c.required ? ' *' : ''}` })),
                                ]}
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
                      <Text size="sm">
                        {running.dry || mode === 'all' ? t('checking', { total: running.total }) : t('importing', { done: running.done, total: running.total })}
                      </Text>
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
                          {t('summary', { total: result.total, valid: result.valid, bad })}{' '}
                          {result.dryRun ? t('dryRunDone') : t('imported', { count: result.imported })}
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
                            <Button
                              variant="default"
                              size="xs"
                              leftSection={<IconDownload size={14} />}
                              onClick={downloadRejected}
                              data-testid="download-rejected"
                            >
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
            {(isManager ? (['work-orders', 'assets', 'stock-levels'] as const) : (['work-orders', 'assets'] as const)).map((list) => (
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
          <OrganisationImport />
        </Stack>
      </Paper>
    </Stack>
  );
}
