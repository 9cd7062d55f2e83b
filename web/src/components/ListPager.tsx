/**
 * Below a paged list of companies (docs/api.md, "Lists of companies"): which rows the page shows out
 * of how many, and the page buttons when there is more than one page. The figures are the server's
 * (total, limit, offset of the answer).
 */
import { Group, Pagination, Text } from '@mantine/core';

export function ListPager({
  total,
  limit,
  offset,
  noun,
  onPage,
}: {
  total: number;
  limit: number;
  offset: number;
  /** The rows' name, singular and plural: ['company', 'companies']. */
  noun: [string, string];
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  const page = Math.floor(offset / limit) + 1;
  const first = total === 0 ? 0 : Math.min(offset + 1, total);
  const last = Math.min(offset + limit, total);
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Text size="sm" c="dimmed" data-testid="list-range">
        {total > limit ? `${first.toLocaleString('en-US')}-${last.toLocaleString('en-US')} of ` : ''}
        {total.toLocaleString('en-US')} {total === 1 ? noun[0] : noun[1]}
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={Math.min(page, pages)}
          onChange={onPage}
          siblings={1}
          boundaries={1}
          size="sm"
          getControlProps={(control) => ({
            'aria-label': control === 'previous' ? 'Previous page' : control === 'next' ? 'Next page' : control === 'first' ? 'First page' : 'Last page',
          })}
          getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
        />
      )}
    </Group>
  );
}
