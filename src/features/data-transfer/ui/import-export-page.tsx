import { useSearchParams } from 'react-router';
import { Alert, Button, Checkbox, FileInput, Group, Paper, Progress, Radio, Select, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconFileUpload, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { EmptyState, notifyError } from '../../../web/components';
import { downloadFile, errorMessage } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { CREATES_MISSING, IMPORT_KINDS, importTemplate, type ImportKind } from '../data-transfer.schema';
import { ENCODINGS, type Encoding } from './parse-in-worker';
import { OrganisationExport } from './organisation-export';
import { OrganisationImport } from './organisation-import';
import { ImportMappingTable, ImportResultView } from './import-result';
import { saveCsv, timeZone, useCsvImport, type CsvImport, type ImportMode, type ImportRunning } from './use-csv-import';
import './import-export-translations';

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

/** The kind, its template and help, the file and its encoding. */
function ImportSource({ wizard }: { wizard: CsvImport }) {
  const { t } = useTranslation('dataTransfer');
  const { kind } = wizard;
  return (
    <>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t('kind')}
          data={IMPORT_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
          value={kind}
          allowDeselect={false}
          onChange={(v) => wizard.chooseKind((v ?? 'assets') as ImportKind)}
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
          value={wizard.file}
          onChange={wizard.chooseFile}
          leftSection={<IconFileUpload size={16} />}
          miw={260}
          clearable
          data-testid="import-file"
        />
        <Select
          label={t('encoding')}
          data={ENCODINGS.map((e) => ({ value: e, label: t(`encodings.${e}`) }))}
          value={wizard.encoding}
          allowDeselect={false}
          onChange={(v) => wizard.chooseEncoding((v ?? 'utf-8') as Encoding)}
          data-testid="import-encoding"
        />
      </Group>
    </>
  );
}

/** The bar of a running dry run or import: "valid rows" imports show the chunks done. */
function ImportProgress({ running, mode }: { running: ImportRunning; mode: ImportMode }) {
  const { t } = useTranslation('dataTransfer');
  const whole = running.dry || mode === 'all';
  return (
    <Stack gap={4} data-testid="import-progress">
      <Text size="sm">{whole ? t('checking', { total: running.total }) : t('importing', { done: running.done, total: running.total })}</Text>
      <Progress value={whole ? 100 : Math.max(2, (running.done / running.total) * 100)} animated striped aria-label={t('import')} />
    </Stack>
  );
}

/** A read file: its mapping, the mode, the dry run and import buttons, the progress and the result. */
function ImportRun({ wizard }: { wizard: CsvImport }) {
  const { t } = useTranslation('dataTransfer');
  const { parsed, missingRequired, matchColumn, mode, running, result, canRun } = wizard;
  /** The column whose missing names this kind can create, if any. */
  const creatable = CREATES_MISSING[wizard.kind];
  if (!parsed) return null;
  return (
    <>
      <Text size="sm" c="dimmed" data-testid="import-found">
        {t('found', { rows: parsed.rows.length, columns: parsed.headers.length })}
        {parsed.delimiter ? ` ${t('delimiter', { delimiter: parsed.delimiter === '\t' ? 'TAB' : parsed.delimiter })}` : ''}
      </Text>
      <Title order={4} size="h5">
        {t('mapTitle')}
      </Title>
      <ImportMappingTable wizard={wizard} />
      {missingRequired.length > 0 && (
        <Alert color="orange" data-testid="import-missing-columns">
          {matchColumn
            ? t('missingRequiredNew', { columns: missingRequired.map((c) => c.label).join(', '), key: matchColumn.label })
            : t('missingRequired', { columns: missingRequired.map((c) => c.label).join(', ') })}
        </Alert>
      )}
      <Radio.Group label={t('mode')} value={mode} onChange={(v) => wizard.setMode(v as ImportMode)}>
        <Stack gap={6} mt={6}>
          <Radio value="all" label={t('modeAll')} data-testid="mode-all" />
          <Radio value="valid" label={t('modeValid')} data-testid="mode-valid" />
        </Stack>
      </Radio.Group>
      {creatable && (
        <Checkbox
          label={t('createMissing', { what: t(`missingWhat.${creatable}`) })}
          checked={wizard.createMissing}
          onChange={(e) => wizard.setCreateMissing(e.currentTarget.checked)}
          data-testid="create-missing"
        />
      )}
      <Group>
        <Button variant="default" onClick={() => void wizard.run(true)} disabled={!canRun} data-testid="import-dry-run">
          {t('dryRun')}
        </Button>
        <Button leftSection={<IconUpload size={16} />} onClick={() => void wizard.run(false)} disabled={!canRun} data-testid="import-run">
          {t('import')}
        </Button>
      </Group>
      {running && <ImportProgress running={running} mode={mode} />}
      {result && <ImportResultView wizard={wizard} result={result} creatable={creatable} />}
    </>
  );
}

/** The import wizard (upload, map, preview with each row's problems, dry run, import): managers only. */
function CsvImportSection() {
  const { t } = useTranslation('dataTransfer');
  const [params] = useSearchParams();
  const wizard = useCsvImport(IMPORT_KINDS.find((k) => k === params.get('kind')) ?? 'assets');
  const { parsed } = wizard;
  return (
    <>
      <ImportSource wizard={wizard} />
      {wizard.parsing && <Text size="sm">{t('parsing')}</Text>}
      {parsed?.error && (
        <Alert color="red" data-testid="import-file-error">
          {t(`errors.${parsed.error}`)}
        </Alert>
      )}
      {parsed && !parsed.error && <ImportRun wizard={wizard} />}
    </>
  );
}

/** The lists' CSV exports and the organisation's export and import. */
function ExportSection({ isManager }: { isManager: boolean }) {
  const { t } = useTranslation('dataTransfer');
  return (
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
  );
}

/** The import wizard and the exports (decision 042). */
export default function ImportExportPage() {
  const { t } = useTranslation('dataTransfer');
  const isManager = useIsManager();
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
          {!isManager ? <EmptyState title={t('managersOnly')} /> : <CsvImportSection />}
        </Stack>
      </Paper>
      <ExportSection isManager={isManager} />
    </Stack>
  );
}
