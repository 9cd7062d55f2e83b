/** Leaderboard (spec section 2): companies ranked by net worth, top 3 as medal cards. */
import { useMediaQuery } from '@mantine/hooks';
import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconMedal, IconRobot, IconUser } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { usePageMeta } from '../../hooks/usePageMeta';
import { formatMoney, formatWholeDollars, underscoresToSpaces } from '../../lib/format';
import { trpc } from '../../trpc';
import { TableScroll } from '../../components/TableScroll';

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

export default function LeaderboardPage() {
  usePageMeta('Leaderboard', 'The richest companies in Marketcraft, ranked by net worth.');
  const companies = trpc.company.list.useQuery();
  // Phones: strategy, cash and share price go under the name so the ranking's figure, net worth, is
  // in view (at 640 px wide the table put it off screen, behind strategy, cash and share price).
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });

  return (
    <>
      <PageHeader title="Leaderboard" subtitle="Companies ranked by net worth: cash, plus goods, buildings and shares in others at what selling them would pay, less the shares others hold in the company" />
      <QueryState query={companies} empty="No companies yet.">
        {(ranked) => (
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {ranked.slice(0, 3).map((company, index) => {
              const medal = MEDALS[index] ?? MEDALS[2];
              return (
                <Card key={company.id} withBorder padding="lg" style={company.is_you ? { borderColor: 'var(--mantine-color-blue-5)', borderWidth: 2 } : undefined}>
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
                    {company.is_you && (
                      <YouBadge />
                    )}
                  </Group>
                  <Text fw={800} fz={22} mt={4}>
                    {formatWholeDollars(company.net_worth)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Net worth
                  </Text>
                </Card>
              );
            })}
          </SimpleGrid>

          <Card withBorder padding={0}>
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
                  {ranked.map((company, index) => (
                    <Table.Tr
                      key={company.id}
                      bg={company.is_you ? 'var(--mantine-color-blue-light)' : undefined}
                      aria-current={company.is_you ? 'true' : undefined}
                      data-testid={company.is_you ? 'leaderboard-you' : undefined}
                    >
                      <Table.Td fw={700}>#{index + 1}</Table.Td>
                      <Table.Td>
                        {/* On phones a long name (or one long word) wraps and the badges may go under it, so the column never pushes net worth off screen. */}
                        <Group gap={6} wrap={wide ? 'nowrap' : 'wrap'}>
                          <KindIcon isBot={company.is_bot} />
                          <Text size="sm" fw={company.is_you ? 700 : 500} style={wide ? undefined : { overflowWrap: 'anywhere' }}>
                            {company.name}
                          </Text>
                          {company.uses_api && <ApiBadge />}
                          {company.is_you && (
                            <YouBadge />
                          )}
                        </Group>
                        {!wide && (
                          <Text size="xs" c="dimmed" data-testid="leaderboard-details">
                            {company.is_bot && company.strategy ? <Text span size="xs" tt="capitalize">{underscoresToSpaces(company.strategy)} · </Text> : null}
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
                  ))}
                </Table.Tbody>
              </Table>
            </TableScroll>
          </Card>
        </Stack>
        )}
      </QueryState>
    </>
  );
}
