import { Alert, Badge, Button, Group, ScrollArea, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ImportResult } from '../data-transfer.schema';
import type { CsvImport } from './use-csv-import';

const SHOWN_PROBLEMS = 200;

/** The table that maps each file column to a field (or ignores it). */
export function ImportMappingTable({ wizard }: { wizard: CsvImport }) {
  const { t } = useTranslation('dataTransfer');
  const { parsed, columns, mapping } = wizard;
  return (
    <ScrollArea type="auto">
      <Table miw={420} data-testid="import-mapping">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('fileColumn')}</Table.Th>
            <Table.Th>{t('field')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {parsed?.headers.map((header) => (
            <Table.Tr key={header}>
              <Table.Td>{header}</Table.Td>
              <Table.Td>
                <Select
                  aria-label={header}
                  data={[{ value: '', label: t('ignore') }, ...columns.map((c) => ({ value: c.key, label: `${c.label}${c.required ? ' *' : ''}` }))]}
                  value={mapping[header] ?? ''}
                  allowDeselect={false}
                  onChange={(v) => wizard.mapColumn(header, v)}
                  data-testid={`map-${header}`}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/** The rows' problems: the first ones in a table, the rejected rows as a download. */
function ImportProblems({ wizard, result }: { wizard: CsvImport; result: ImportResult }) {
  const { t } = useTranslation('dataTransfer');
  const { parsed, headerIndex, labelOf } = wizard;
  return (
    <>
      <Group justify="space-between">
        <Title order={4} size="h5">
          {t('problemsTitle')} <Badge color="red">{result.problems.length}</Badge>
        </Title>
        <Button variant="default" size="xs" leftSection={<IconDownload size={14} />} onClick={wizard.downloadRejected} data-testid="download-rejected">
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
              const cell = parsed?.rows[p.row - 2]?.[headerIndex.get(header) ?? -1] ?? '';
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
  );
}

/** A dry run's or an import's answer: the counts, the names created or missing, the problems. */
export function ImportResultView({ wizard, result, creatable }: { wizard: CsvImport; result: ImportResult; creatable: string | undefined }) {
  const { t } = useTranslation('dataTransfer');
  const bad = result.total - result.valid;
  return (
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
                wizard.setCreateMissing(true);
                void wizard.run(true, true);
              }}
              data-testid="create-missing-now"
            >
              {t('createThem')}
            </Button>
          </Group>
        )}
      </Alert>
      {result.problems.length > 0 && <ImportProblems wizard={wizard} result={result} />}
    </Stack>
  );
}
