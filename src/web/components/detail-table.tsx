import type { ReactNode } from 'react';
import { ActionIcon, Group, Stack, Table, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { TableHead } from './table-head';

export interface DetailColumn<T> {
  header: ReactNode;
  cell(row: T): ReactNode;
}

/**
 * The lines of a record's tab (labor, parts …): `before` (e.g. an add row), a striped table with a delete
 * button per line (where `canRemove` allows) or `emptyText`, and the total under it.
 */
export function DetailTable<T>(props: {
  rows: T[];
  rowKey(row: T): string | number;
  columns: DetailColumn<T>[];
  emptyText: ReactNode;
  minWidth: number;
  onRemove(row: T): void;
  canRemove?(row: T): boolean;
  total: ReactNode;
  totalTestId: string;
  rowTestId: string;
  testId: string;
  before?: ReactNode;
}) {
  return (
    <Stack gap="sm" data-testid={props.testId}>
      {props.before}
      {props.rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          {props.emptyText}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={props.minWidth}>
          <Table striped>
            <TableHead labels={[...props.columns.map((c) => c.header), null]} />
            <Table.Tbody>
              {props.rows.map((row) => (
                <Table.Tr key={props.rowKey(row)} data-testid={props.rowTestId}>
                  {props.columns.map((c, i) => (
                    <Table.Td key={i}>{c.cell(row)}</Table.Td>
                  ))}
                  <Table.Td>
                    {(!props.canRemove || props.canRemove(row)) && (
                      <ActionIcon variant="subtle" color="red" aria-label="Delete" onClick={() => props.onRemove(row)}>
                        <IconTrash size={16} />
                      </ActionIcon>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="flex-end">
        <Text fw={600} data-testid={props.totalTestId}>
          {props.total}
        </Text>
      </Group>
    </Stack>
  );
}
