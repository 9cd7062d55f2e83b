import type { ReactNode } from 'react';
import { Group, Table, UnstyledButton } from '@mantine/core';
import { IconArrowsSort, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import type { SortState } from '../lib/sortTable';

/** A column header that sorts its table: a button inside the header cell, which says its order (aria-sort). */
export function SortableTh<Key extends string>({
  column,
  sort,
  onSort,
  children,
  align = 'left',
}: {
  column: Key;
  sort: SortState<Key>;
  onSort: (column: Key) => void;
  children: ReactNode;
  align?: 'left' | 'right';
}) {
  const active = sort.key === column;
  const Icon = !active ? IconArrowsSort : sort.direction === 'ascending' ? IconSortAscending : IconSortDescending;
  return (
    <Table.Th aria-sort={active ? sort.direction : 'none'} ta={align}>
      <UnstyledButton onClick={() => onSort(column)} fw={700} fz="sm">
        <Group gap={4} wrap="nowrap" justify={align === 'right' ? 'flex-end' : 'flex-start'}>
          {children}
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
