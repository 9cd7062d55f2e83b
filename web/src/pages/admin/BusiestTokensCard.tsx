/** Admin: the 20 busiest personal access tokens of the last 7 days (GET /api/admin/tokens/busiest). */
import { Badge, Group, Table, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { QueryState } from '../../components/QueryState';
import { SectionCard } from '../../components/SectionCard';
import { formatDateTime } from '../../lib/format';
import { trpc } from '../../trpc';
import { ScopeBadge } from '../../components/ScopeBadge';

const count = (value: number) => value.toLocaleString('en-US');

export function BusiestTokensCard() {
  const busiest = trpc.tokens.busiest.useQuery();
  return (
    <SectionCard title="Busiest API Tokens" icon={IconKey} headerMb={4} mt="md" data-testid="busiest-tokens">
      <Text size="sm" c="dimmed" mb="md">
        Personal access tokens with the most requests over the last 7 days (UTC days, today included).
      </Text>
      <QueryState query={busiest} empty="No token has been used in the last 7 days.">
        {(tokens) => (
          <Table.ScrollContainer minWidth={720}>
            <Table striped verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Token</Table.Th>
                  <Table.Th>Owner</Table.Th>
                  <Table.Th ta="right">Requests (7 days)</Table.Th>
                  <Table.Th ta="right">Today</Table.Th>
                  <Table.Th ta="right">Actions</Table.Th>
                  <Table.Th ta="right">Rate limited</Table.Th>
                  <Table.Th>Last used</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tokens.map((token) => (
                  <Table.Tr key={token.token_id}>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Text size="sm" fw={600}>
                          {token.name}
                        </Text>
                        <ScopeBadge scope={token.scope} size="xs" />
                        {token.status !== 'active' && (
                          <Badge size="xs" variant="dot" color="gray" miw="max-content">
                            {token.status}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{token.company_name ?? 'No active company'}</Text>
                      <Text size="xs" c="dimmed">
                        {token.owner_email}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right" fw={700}>
                      {count(token.requests)}
                    </Table.Td>
                    <Table.Td ta="right">{count(token.requests_today)}</Table.Td>
                    <Table.Td ta="right">{count(token.mutations)}</Table.Td>
                    <Table.Td ta="right">{count(token.limited)}</Table.Td>
                    <Table.Td>{token.last_used_at ? formatDateTime(token.last_used_at) : 'Never'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </SectionCard>
  );
}
