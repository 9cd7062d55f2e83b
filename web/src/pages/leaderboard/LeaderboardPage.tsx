/**
 * Leaderboard (spec section 2): companies ranked by net worth, top 3 as medal cards, then the full
 * list a page at a time (GET /api/leaderboard: a world can hold 100,000 companies), with a search by
 * name that keeps each company's true rank, and your own company pinned at the top of the table
 * when it ranks on another page. Page and search live in the address (?page=&q=).
 */
import { useEffect, useState } from 'react';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconMedal, IconRobot, IconUser } from '@tabler/icons-react';
import { COMPANY_LIST_PAGE_SIZE } from '@marketcraft/shared';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { ListPager } from '../../components/ListPager';
import { usePageMeta } from '../../hooks/usePageMeta';
import { formatMoney, formatWholeDollars, underscoresToSpaces } from '../../lib/format';
import { trpc, type RouterOutputs } from '../../trpc';
import { TableScroll } from '../../components/TableScroll';
import { useSearchParamsUpdate } from '../../hooks/useSearchParamsUpdate';
import { CompanySearchInput } from '../../components/CompanySearchInput';

type RankedCompany = RouterOutputs['company']['leaderboard']['companies'][number];

const MEDALS = [
  { color: 'yellow', label: 'Gold' },
  { color: 'gray', label: 'Silver' },
  { color: 'orange', label: 'Bronze' },
] as const;

/** "API": a personal access token acted for the company in the last 7 days (GET /api/companies' uses_api). */
/** Never squeezed by a long company name (a phone showed "Y..."). */
function YouBadge() {
  return (
    <Badge size="xs" color="blue" style={{ flexShrink: 0 }}>
      You
    </Badge>
  );
}

function ApiBadge() {
  return (
    <Tooltip label="Acted through the API (a personal access token) in the last 7 days">
      <Badge size="xs" variant="outline" color="grape" data-testid="api-badge" style={{ flexShrink: 0 }}>
        API
      </Badge>
    </Tooltip>
  );
}

function KindIcon({ isBot }: { isBot: boolean }) {
  return (
    <Tooltip label={isBot ? 'AI bot' : 'Player'}>
      <ThemeIcon variant="light" color={isBot ? 'gray' : 'blue'} size="sm" role="img" aria-label={isBot ? 'AI bot' : 'Player'}>
        {isBot ? <IconRobot size={14} /> : <IconUser size={14} />}
      </ThemeIcon>
    </Tooltip>
  );
}

const positiveInt = (text: string | null) => {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : undefined;
};

function MedalCard({ company, index }: { company: RankedCompany; index: number }) {
  const medal = MEDALS[index] ?? MEDALS[2];
  return (
    <Card withBorder padding="lg" style={company.is_you ? { borderColor: 'var(--mantine-color-blue-5)', borderWidth: 2 } : undefined}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <ThemeIcon size="xl" radius="xl" color={medal.color} role="img" aria-label={`${medal.label} medal, rank ${index + 1}`}>
          <IconMedal size={24} />
        </ThemeIcon>
        <Badge variant="light" color={medal.color}>
          #{index + 1}
        </Badge>
      </Group>
      <Group gap={6} wrap="nowrap">
        <KindIcon isBot={company.is_bot} />
        <Text fw={700} truncate>
          {company.name}
        </Text>
        {company.uses_api && <ApiBadge />}
        {company.is_you && <YouBadge />}
      </Group>
      <Text fw={800} fz={22} mt={4}>
        {formatWholeDollars(company.net_worth)}
      </Text>
      <Text size="xs" c="dimmed">
        Net worth
      </Text>
    </Card>
  );
}

/** One company's row; `wide` false (phones): strategy, cash and share price under the name. */
function RankRow({ company, wide, pinned = false }: { company: RankedCompany; wide: boolean; pinned?: boolean }) {
  return (
    <Table.Tr
      bg={company.is_you ? 'var(--mantine-color-blue-light)' : undefined}
      aria-current={company.is_you ? 'true' : undefined}
      data-testid={company.is_you ? 'leaderboard-you' : 'leaderboard-row'}
      data-pinned={pinned ? 'true' : undefined}
      style={pinned ? { borderBottom: '3px double var(--mantine-color-blue-5)' } : undefined}
    >
      <Table.Td fw={700}>#{company.rank.toLocaleString('en-US')}</Table.Td>
      <Table.Td>
        {/* On phones a long name (or one long word) wraps and the badges may go under it, so the column never pushes net worth off screen. */}
        <Group gap={6} wrap={wide ? 'nowrap' : 'wrap'}>
          <KindIcon isBot={company.is_bot} />
          <Text size="sm" fw={company.is_you ? 700 : 500} style={wide ? undefined : { overflowWrap: 'anywhere' }}>
            {company.name}
          </Text>
          {company.uses_api && <ApiBadge />}
          {company.is_you && <YouBadge />}
        </Group>
        {!wide && (
          <Text size="xs" c="dimmed" data-testid="leaderboard-details">
            {company.is_bot && company.strategy ? (
              <Text span size="xs" tt="capitalize">
                {underscoresToSpaces(company.strategy)} ·{' '}
              </Text>
            ) : null}
            Cash {formatWholeDollars(company.cash)} · Share {formatMoney(company.share_price)}
          </Text>
        )}
      </Table.Td>
      {wide && (
        <Table.Td>
          <Text size="sm" c="dimmed" tt="capitalize">
            {company.is_bot && company.strategy ? underscoresToSpaces(company.strategy) : '-'}
          </Text>
        </Table.Td>
      )}
      {wide && <Table.Td ta="right">{formatWholeDollars(company.cash)}</Table.Td>}
      {wide && <Table.Td ta="right">{formatMoney(company.share_price)}</Table.Td>}
      <Table.Td ta="right" fw={700} style={{ whiteSpace: 'nowrap' }} data-testid="leaderboard-net-worth">
        {formatWholeDollars(company.net_worth)}
      </Table.Td>
    </Table.Tr>
  );
}

export default function LeaderboardPage() {
  usePageMeta('Leaderboard', 'The richest companies in Marketcraft, ranked by net worth.');
  // Phones: strategy, cash and share price go under the name so the ranking's figure, net worth, is
  // in view (at 640 px wide the table put it off screen, behind strategy, cash and share price).
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const [params, update] = useSearchParamsUpdate();
  const page = positiveInt(params.get('page')) ?? 1;
  const search = (params.get('q') ?? '').trim();
  const [text, setText] = useState(search);
  const [typed] = useDebouncedValue(text.trim(), 300);
  // A new search starts at its first page.
  useEffect(() => {
    if (typed !== search) update({ q: typed, page: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed]);
  const offset = (page - 1) * COMPANY_LIST_PAGE_SIZE;
  // The previous page stays on screen (dimmed) while the next one loads.
  const board = trpc.company.leaderboard.useQuery(
    { limit: COMPANY_LIST_PAGE_SIZE, offset, search: search || undefined },
    { placeholderData: (previous) => previous },
  );
  const showPage = (next: number) => update({ page: next > 1 ? String(next) : null });

  return (
    <>
      <PageHeader
        title="Leaderboard"
        subtitle="Companies ranked by net worth: cash, plus goods, buildings and shares in others at what selling them would pay, less the shares others hold in the company"
      />
      <QueryState query={board}>
        {(data) => {
          // The podium is the top of the list: shown above its first page, not above a search.
          const medals = !search && offset === 0 ? data.companies.filter((company) => company.rank <= 3) : [];
          // Your company ranks on another page: pinned at the top of this one, with a way to its page.
          const pinned = data.you && !search && !data.companies.some((company) => company.is_you) ? data.you : null;
          return (
            <Stack gap="lg">
              {medals.length > 0 && (
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  {medals.map((company, index) => (
                    <MedalCard key={company.id} company={company} index={index} />
                  ))}
                </SimpleGrid>
              )}

              <Group gap="xs" wrap="nowrap" align="flex-end">
                <CompanySearchInput grow value={text} onChange={setText} />
                {pinned && (
                  <Button variant="light" onClick={() => showPage(Math.ceil(pinned.rank / COMPANY_LIST_PAGE_SIZE))}>
                    Show my place
                  </Button>
                )}
              </Group>

              {data.companies.length === 0 && !pinned ? (
                <Text c="dimmed" size="sm" ta="center" py="lg" data-testid="leaderboard-empty">
                  {search ? `No company's name contains "${search}".` : data.total > 0 ? 'No companies on this page.' : 'No companies yet.'}
                </Text>
              ) : (
                <Card withBorder padding={0} aria-busy={board.isPlaceholderData} style={board.isPlaceholderData ? { opacity: 0.6 } : undefined}>
                  <TableScroll minWidth={wide ? 640 : 0} label="Companies ranked by net worth">
                    <Table striped highlightOnHover verticalSpacing="xs">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>Rank</Table.Th>
                          <Table.Th>Company</Table.Th>
                          {wide && <Table.Th>Strategy</Table.Th>}
                          {wide && <Table.Th ta="right">Cash</Table.Th>}
                          {wide && <Table.Th ta="right">Share Price</Table.Th>}
                          <Table.Th ta="right">Net Worth</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {pinned && <RankRow key="you" company={pinned} wide={wide} pinned />}
                        {data.companies.map((company) => (
                          <RankRow key={company.id} company={company} wide={wide} />
                        ))}
                      </Table.Tbody>
                    </Table>
                  </TableScroll>
                </Card>
              )}
              <ListPager total={data.total} limit={data.limit} offset={data.offset} noun={['company', 'companies']} onPage={showPage} />
            </Stack>
          );
        }}
      </QueryState>
    </>
  );
}
