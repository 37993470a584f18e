import type { ReactNode } from 'react';
import { Table } from '@mantine/core';

/** A plain table's header row: one cell per label, in order; a null label leaves the cell empty (the column of a row's buttons). */
export function TableHead({ labels }: { labels: ReactNode[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {labels.map((label, i) => (
          <Table.Th key={i}>{label}</Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}
