import type { ReactNode } from 'react';
import { Badge, type BadgeProps } from '@mantine/core';
import type { Column } from './data-table';

/**
 * A list column that shows a value as a badge (a status, a priority, a type): `badge(row)` gives its colour and
 * label; `more` the column's other settings and the badge's variant (default light).
 */
export function badgeColumn<R>(
  key: string,
  header: ReactNode,
  badge: (row: R) => { color?: string; label: ReactNode },
  more: Omit<Column<R>, 'key' | 'header' | 'render'> & { variant?: BadgeProps['variant'] } = {},
): Column<R> {
  const { variant = 'light', ...column } = more;
  return {
    key,
    header,
    ...column,
    render: (row) => {
      const { color, label } = badge(row);
      return (
        <Badge variant={variant} color={color}>
          {label}
        </Badge>
      );
    },
  };
}
