/**
 * Transactions (issue 10): the company's ledger, newest first, filtered by type and week, a page at
 * a time from the server (GET /api/transactions). Each line links to what it concerns: the
 * building, the product's market, the company's shares, the country, research, or, for the turn's
 * own lines, that week's results. The filters live in the address (?type=&week=&page=), so a week
 * report can link to its lines.
 */
import { Link } from 'react-router-dom';
import { useMediaQuery } from '@mantine/hooks';
import { Anchor, Badge, Card, Group, Pagination, Select, Stack, Table, Text } from '@mantine/core';
import { TRANSACTION_TYPES, type TransactionType } from '@marketcraft/shared';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { usePageMeta } from '../../hooks/usePageMeta';
import { formatDateTime, formatMoney } from '../../lib/format';
import { trpc, type RouterOutputs } from '../../trpc';
import { TableScroll } from '../../components/TableScroll';
import { useSearchParamsUpdate } from '../../hooks/useSearchParamsUpdate';

type LedgerLine = RouterOutputs['transactions']['list']['items'][number];

const TYPE_LABELS: Record<TransactionType, string> = {
  production: 'Production',
  sale: 'Sale',
  purchase: 'Purchase',
  stock_trade: 'Stock trade',
  building: 'Building',
  other: 'Other',
};

/** Where a line's link goes. */
function concernPath(line: Pick<LedgerLine, 'concerns' | 'week'>): string {
  const { kind, id } = line.concerns;
  switch (kind) {
    case 'building':
      return `/buildings/${id}`;
    case 'product':
      return `/market?product=${id}`;
    case 'company':
      return `/stocks?company=${id}`;
    case 'country':
      return `/politics?country=${id}`;
    case 'research':
      return '/research';
    case 'week':
      return `/reports/${id}`;
  }
}

const positiveInt = (text: string | null) => {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : undefined;
};

export default function TransactionsPage() {
  usePageMeta('Transactions', "Your company's ledger: every change of cash, newest first.");
  const [params, update] = useSearchParamsUpdate();
  const page = positiveInt(params.get('page')) ?? 1;
  const week = positiveInt(params.get('week'));
  const typeParam = params.get('type');
  const type = TRANSACTION_TYPES.find((candidate) => candidate === typeParam);
  const ledger = trpc.transactions.list.useQuery({ page, type, week }, { placeholderData: (previous) => previous });

  // Phones: the type badge goes under the description and the table fits the screen, so each line's
  // amount is in view (at 640 px wide it sat off screen behind a sideways scroll, descriptions cut).
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });

  return (
    <>
      <PageHeader title="Transactions" subtitle="Every change of your cash, newest first" />
      <Stack gap="md">
        <Group gap="sm" wrap="wrap">
          <Select
            label="Type"
            placeholder="All types"
            data={TRANSACTION_TYPES.map((value) => ({ value, label: TYPE_LABELS[value] }))}
            value={type ?? null}
            onChange={(value) => update({ type: value, page: null })}
            clearable
            w={200}
          />
          <Select
            label="Week"
            placeholder="All weeks"
            data={(ledger.data?.weeks ?? (week ? [week] : [])).map((value) => ({ value: String(value), label: `Week ${value}` }))}
            value={week ? String(week) : null}
            onChange={(value) => update({ week: value, page: null })}
            clearable
            w={200}
          />
        </Group>
        <QueryState query={ledger}>
          {(data) =>
            data.items.length === 0 ? (
              <Text c="dimmed" ta="center" py="lg">
                {type || week ? 'No transactions match these filters.' : 'No transactions yet. Build, trade or wait for the next turn.'}
              </Text>
            ) : (
              <Stack gap="sm">
                <Card withBorder padding={0}>
                  <TableScroll minWidth={wide ? 640 : 0} label="Ledger lines">
                    <Table striped verticalSpacing="xs">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>Week</Table.Th>
                          <Table.Th>What</Table.Th>
                          {wide && <Table.Th>Type</Table.Th>}
                          <Table.Th ta="right">Amount</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {data.items.map((line) => {
                          const typeBadge = (
                            <Badge variant="light" color="gray" size="sm" data-testid="ledger-type">
                              {TYPE_LABELS[line.type as TransactionType] ?? line.type}
                            </Badge>
                          );
                          return (
                            <Table.Tr key={line.id} data-testid="ledger-line">
                              <Table.Td>
                                <Text size="sm">{line.week}</Text>
                                <Text size="xs" c="dimmed">
                                  {formatDateTime(line.created_at)}
                                </Text>
                              </Table.Td>
                              <Table.Td>
                                <Anchor component={Link} to={concernPath(line)} size="sm">
                                  {line.description}
                                </Anchor>
                                {!wide && <div>{typeBadge}</div>}
                              </Table.Td>
                              {wide && <Table.Td>{typeBadge}</Table.Td>}
                              <Table.Td ta="right">
                                <Text
                                  size="sm"
                                  fw={600}
                                  style={{ whiteSpace: 'nowrap' }}
                                  data-testid="ledger-amount"
                                  c={line.amount > 0 ? 'green' : line.amount < 0 ? 'red' : undefined}
                                >
                                  {line.amount > 0 ? '+' : ''}
                                  {formatMoney(line.amount)}
                                </Text>
                              </Table.Td>
                            </Table.Tr>
                          );
                        })}
                      </Table.Tbody>
                    </Table>
                  </TableScroll>
                </Card>
                <Group justify="space-between" wrap="wrap">
                  <Text size="sm" c="dimmed">
                    {data.total.toLocaleString('en-US')} {data.total === 1 ? 'line' : 'lines'}
                  </Text>
                  {data.total > data.page_size && (
                    <Pagination
                      total={Math.ceil(data.total / data.page_size)}
                      value={data.page}
                      onChange={(next) => update({ page: String(next) })}
                      getControlProps={(control) => ({
                        'aria-label':
                          control === 'previous' ? 'Previous page' : control === 'next' ? 'Next page' : control === 'first' ? 'First page' : 'Last page',
                      })}
                      getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
                      size="sm"
                    />
                  )}
                </Group>
              </Stack>
            )
          }
        </QueryState>
      </Stack>
    </>
  );
}
