/**
 * Sorting for the market's and the stock exchange's tables: by one column, ascending or
 * descending, missing values (no change recorded yet) always last, ties by name. Pure, unit-tested.
 */
export type SortDirection = 'ascending' | 'descending';

export interface SortState<Key extends string> {
  key: Key;
  direction: SortDirection;
}

export function sortRows<Row, Key extends string>(
  rows: readonly Row[],
  sort: SortState<Key>,
  valueOf: (row: Row, key: Key) => number | string | null,
  nameOf: (row: Row) => string,
): Row[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const left = valueOf(a, sort.key);
    const right = valueOf(b, sort.key);
    if (left === null && right !== null) return 1;
    if (right === null && left !== null) return -1;
    if (left !== null && right !== null && left !== right) {
      const order = typeof left === 'string' || typeof right === 'string' ? String(left).localeCompare(String(right)) : left - right;
      if (order !== 0) return order * sign;
    }
    return nameOf(a).localeCompare(nameOf(b));
  });
}

/** Clicking a column: the same column flips its direction; a new one starts with `firstDirection`. */
export function nextSort<Key extends string>(current: SortState<Key>, key: Key, firstDirection: SortDirection = 'ascending'): SortState<Key> {
  if (current.key === key) return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { key, direction: firstDirection };
}
