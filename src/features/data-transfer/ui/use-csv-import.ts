import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { csvLine } from '../../../shared/csv';
import { notifyError, notifySuccess } from '../../../web/components';
import { api, errorMessage, saveBlob } from '../../../web/lib/api';
import { CREATES_MISSING, guessColumn, IMPORT_COLUMNS, IMPORT_KEYS, type ImportKind, type ImportProblem, type ImportResult } from '../data-transfer.schema';
import { parseInWorker, type Encoding, type ParsedFile } from './parse-in-worker';

/** The browser's time zone: meter readings' times without an offset are read in it. */
export const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Rows sent per request in "valid rows" mode: each chunk commits on its own, so the bar shows real progress. */
const CHUNK = 5000;

/** A CSV made here (a template, the rejected rows) saved as a download. */
export const saveCsv = (text: string, fileName: string) => saveBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), fileName);

export type ImportMode = 'all' | 'valid';
export type ImportRunning = { done: number; total: number; dry: boolean };

/** The mapping the server remembers for a kind merged with the guesses from the file's headers: one file column per field. */
const mappingFor = (kind: ImportKind, headers: string[], saved: Record<string, string>) => {
  const keys = new Set(IMPORT_COLUMNS[kind].map((c) => c.key));
  const next: Record<string, string> = {};
  for (const header of headers) {
    const remembered = saved[header];
    const column = remembered && keys.has(remembered) ? remembered : guessColumn(kind, header);
    // one file column per field: the first wins
    if (column && !Object.values(next).includes(column)) next[header] = column;
  }
  return next;
};

/** The sum of the chunks' answers. */
const addResult = (total: ImportResult, part: ImportResult) => {
  total.total += part.total;
  total.valid += part.valid;
  total.imported += part.imported;
  total.new += part.new;
  total.updated += part.updated;
  total.unchanged += part.unchanged;
  total.problems.push(...part.problems);
  total.created = [...new Set([...total.created, ...part.created])];
  total.missing = [...new Set([...total.missing, ...part.missing])];
};

/** The import wizard's state: the file read in a worker, the column mapping, the dry run and the import (decision 042). */
export function useCsvImport(initialKind: ImportKind) {
  const { t } = useTranslation('dataTransfer');
  const [kind, setKind] = useState<ImportKind>(initialKind);
  const [file, setFile] = useState<File | null>(null);
  const [encoding, setEncoding] = useState<Encoding>('utf-8');
  const [parsed, setParsed] = useState<ParsedFile | null>(null);
  const [parsing, setParsing] = useState(false);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [mode, setMode] = useState<ImportMode>('all');
  const [createMissing, setCreateMissing] = useState(false);
  const [running, setRunning] = useState<ImportRunning | null>(null);
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
      setMapping(mappingFor(nextKind, table.headers, saved.mapping));
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
        addResult(total, part);
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

  const chooseKind = (next: ImportKind) => {
    setKind(next);
    void load(file, encoding, next);
  };
  const chooseFile = (next: File | null) => {
    setFile(next);
    void load(next, encoding, kind);
  };
  const chooseEncoding = (next: Encoding) => {
    setEncoding(next);
    void load(file, next, kind);
  };
  /** Maps a file column to a field; a field already mapped from another column loses it. */
  const mapColumn = (header: string, value: string | null) => {
    const next = { ...mapping };
    for (const [h, k] of Object.entries(next)) if (value && k === value) delete next[h];
    next[header] = value ?? '';
    setMapping(next);
    setResult(null);
  };

  const canRun = !!parsed && !parsed.error && (missingRequired.length === 0 || !!matchColumn) && !running;
  return {
    kind,
    file,
    encoding,
    parsed,
    parsing,
    mapping,
    mode,
    setMode,
    createMissing,
    setCreateMissing,
    running,
    result,
    columns,
    labelOf,
    missingRequired,
    matchColumn,
    headerIndex,
    canRun,
    run,
    downloadRejected,
    chooseKind,
    chooseFile,
    chooseEncoding,
    mapColumn,
  };
}

export type CsvImport = ReturnType<typeof useCsvImport>;
