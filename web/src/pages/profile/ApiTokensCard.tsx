/**
 * The profile's "API tokens" section (issue 12, docs/api.md): create a personal access token with a
 * name, a scope and an expiry (shown once, in NewTokenModal), list tokens with their status, last
 * use and requests, open a token's 30-day usage chart, and revoke a token.
 */
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Anchor, Badge, Button, Card, Group, Modal, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconChartBar, IconKey, IconPlus, IconTrash } from '@tabler/icons-react';
import { API_TOKEN_EXPIRY_CHOICES, API_TOKEN_SCOPES, API_TOKEN_SCOPE_DESCRIPTIONS, createApiTokenInput, type ApiTokenScope } from '@marketcraft/shared';
import { PageLoader } from '../../components/FullScreenLoader';
import { ScopeBadge } from '../../components/ScopeBadge';
import { QueryState } from '../../components/QueryState';
import { formatDate, formatDateTime } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc, type RouterOutputs } from '../../trpc';
import { NewTokenModal, type NewToken } from './NewTokenModal';

const TokenUsageChart = lazy(() => import('./TokenUsageChart'));

type ApiToken = RouterOutputs['tokens']['list']['tokens'][number];

const STATUS_COLORS: Record<ApiToken['status'], string> = { active: 'teal', expired: 'gray', revoked: 'red' };

const EXPIRY_OPTIONS = API_TOKEN_EXPIRY_CHOICES.map((days) => ({
  value: days === null ? 'never' : String(days),
  label: days === null ? 'Never expires' : days === 365 ? '1 year' : `${days} days`,
}));

function CreateTokenForm({ activeCount, maxActive, onCreated }: { activeCount: number; maxActive: number; onCreated: (created: NewToken) => void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiTokenScope>('read');
  const [expiry, setExpiry] = useState<string>('30');
  const [nameError, setNameError] = useState<string | null>(null);
  const create = trpc.tokens.create.useMutation({
    onSuccess: (created) => {
      // Said in the token's dialog, not in a toast: a toast covered the dialog's top on a phone.
      setName('');
      onCreated({ token: created.token, name: created.name, scope: created.scope });
    },
    onError: (caught) => notifyFailure('Could not create the token', caught, 'Please try again'),
  });
  const atLimit = activeCount >= maxActive;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createApiTokenInput.safeParse({ name, scope, expires_in_days: expiry === 'never' ? null : Number(expiry) });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? 'Check the form');
      return;
    }
    setNameError(null);
    create.mutate(parsed.data);
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create an API token">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Token name"
            placeholder="e.g. restock bot"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={nameError}
            disabled={create.isPending}
            maxLength={60}
          />
          <Select
            label="Expires"
            data={EXPIRY_OPTIONS}
            value={expiry}
            onChange={(value) => setExpiry(value ?? '30')}
            allowDeselect={false}
            disabled={create.isPending}
          />
        </SimpleGrid>
        <div>
          <Text size="sm" fw={500} mb={4} id="token-scope-label">
            Scope
          </Text>
          <SegmentedControl
            aria-labelledby="token-scope-label"
            data={API_TOKEN_SCOPES.map((value) => ({ value, label: value[0]!.toUpperCase() + value.slice(1) }))}
            value={scope}
            onChange={(value) => setScope(value as ApiTokenScope)}
            disabled={create.isPending}
          />
          <Text size="xs" c="dimmed" mt={4}>
            {API_TOKEN_SCOPE_DESCRIPTIONS[scope]}. Never admin, account settings or token management.
          </Text>
        </div>
        <Group>
          <Button type="submit" leftSection={<IconPlus size={16} aria-hidden />} loading={create.isPending} disabled={atLimit}>
            Create token
          </Button>
          <Text size="xs" c={atLimit ? 'red' : 'dimmed'}>
            {atLimit ? `You have ${maxActive} active tokens, the most allowed: revoke one first.` : `${activeCount} of ${maxActive} active tokens`}
          </Text>
        </Group>
      </Stack>
    </form>
  );
}

function StatusBadge({ status }: { status: ApiToken['status'] }) {
  return (
    <Badge variant="dot" color={STATUS_COLORS[status]} miw="max-content">
      {status}
    </Badge>
  );
}

const expiryText = (token: ApiToken) =>
  token.expires_at ? `${token.status === 'expired' ? 'expired' : 'expires'} ${formatDate(token.expires_at)}` : 'never expires';
const lastUseText = (token: ApiToken) => (token.last_used_at ? formatDateTime(token.last_used_at) : 'Never used');

interface TokenActions {
  onUsage: (token: ApiToken) => void;
  onRevoke: (token: ApiToken) => void;
}

function TokenButtons({ token, onUsage, onRevoke }: { token: ApiToken } & TokenActions) {
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Button
        size="compact-sm"
        variant="subtle"
        leftSection={<IconChartBar size={14} aria-hidden />}
        onClick={() => onUsage(token)}
        aria-label={`Usage of ${token.name}`}
      >
        Usage
      </Button>
      {token.status === 'active' && (
        <Button
          size="compact-sm"
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={14} aria-hidden />}
          onClick={() => onRevoke(token)}
          aria-label={`Revoke ${token.name}`}
        >
          Revoke
        </Button>
      )}
    </Group>
  );
}

function TokenName({ token }: { token: ApiToken }) {
  return (
    <div>
      <Text size="sm" fw={600}>
        {token.name}
      </Text>
      <Text size="xs" c="dimmed" ff="monospace">
        {token.prefix}
      </Text>
    </div>
  );
}

/** Desktop: one row per token. */
function TokenTable({ tokens, ...actions }: { tokens: ApiToken[] } & TokenActions) {
  return (
    <Table verticalSpacing="xs" highlightOnHover visibleFrom="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Scope</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Created</Table.Th>
          <Table.Th>Last used</Table.Th>
          <Table.Th ta="right">Requests today</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {tokens.map((token) => (
          <Table.Tr key={token.id} data-testid="api-token-row">
            <Table.Td>
              <TokenName token={token} />
            </Table.Td>
            <Table.Td>
              <ScopeBadge scope={token.scope} />
            </Table.Td>
            <Table.Td>
              <StatusBadge status={token.status} />
            </Table.Td>
            <Table.Td>
              <Text size="sm">{formatDate(token.created_at)}</Text>
              <Text size="xs" c="dimmed">
                {expiryText(token)}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{lastUseText(token)}</Text>
            </Table.Td>
            <Table.Td ta="right">
              <Text size="sm" fw={600}>
                {token.requests_today.toLocaleString('en-US')}
              </Text>
              <Text size="xs" c="dimmed">
                {token.requests_7_days.toLocaleString('en-US')} in 7 days
              </Text>
            </Table.Td>
            <Table.Td>
              <TokenButtons token={token} {...actions} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Phones: one card per token. */
function TokenCards({ tokens, ...actions }: { tokens: ApiToken[] } & TokenActions) {
  return (
    <Stack gap="sm" hiddenFrom="sm">
      {tokens.map((token) => (
        <Card key={token.id} withBorder padding="sm" data-testid="api-token-card">
          <Group justify="space-between" wrap="nowrap" align="flex-start" mb={6}>
            <TokenName token={token} />
            <Group gap={4} wrap="nowrap">
              <ScopeBadge scope={token.scope} size="sm" />
              <StatusBadge status={token.status} />
            </Group>
          </Group>
          <Text size="xs" c="dimmed">
            Created {formatDate(token.created_at)}, {expiryText(token)}
          </Text>
          <Text size="xs" c="dimmed">
            Last used: {lastUseText(token)}
          </Text>
          <Group justify="space-between" mt={6} wrap="nowrap">
            <Text size="sm">
              <b>{token.requests_today.toLocaleString('en-US')}</b> today, {token.requests_7_days.toLocaleString('en-US')} in 7 days
            </Text>
            <TokenButtons token={token} {...actions} />
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

export function ApiTokensCard() {
  const list = trpc.tokens.list.useQuery();
  const [shownToken, setShownToken] = useState<NewToken | null>(null);
  const [usageOf, setUsageOf] = useState<ApiToken | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const revoke = trpc.tokens.revoke.useMutation({
    onSuccess: (revoked) => {
      notifySuccess('Token revoked', `"${revoked.name}" no longer works.`);
      setRevoking(null);
    },
    onError: (caught) => notifyFailure('Could not revoke the token', caught, 'Please try again'),
  });

  return (
    <Card withBorder padding="lg" data-testid="api-tokens">
      <Group gap="sm" mb={4}>
        <IconKey size={20} aria-hidden />
        <Title order={2} fz="lg">
          API tokens
        </Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Script your company with personal access tokens: send one as <code>Authorization: Bearer &lt;token&gt;</code> to any route of the{' '}
        <Anchor href="/api/docs" target="_blank">
          API
        </Anchor>{' '}
        within its scope. See{' '}
        <Anchor component={Link} to="/learning?tab=scripting">
          Scripting your company
        </Anchor>{' '}
        for complete examples.
        {list.data &&
          ` Each token may make ${list.data.limits.token.requests_per_minute} requests a minute, of which ${list.data.limits.token.mutations_per_minute} actions.`}
      </Text>
      <QueryState query={list} errorTitle="Could not load your tokens">
        {(tokenList) => (
          <Stack gap="lg">
            <CreateTokenForm
              activeCount={tokenList.tokens.filter((token) => token.status === 'active').length}
              maxActive={tokenList.max_active}
              onCreated={setShownToken}
            />
            {tokenList.tokens.length === 0 ? (
              <Alert variant="light" color="gray" title="No tokens yet">
                Create one above to let a script or a spreadsheet read or play your company.
              </Alert>
            ) : (
              <>
                <TokenTable tokens={tokenList.tokens} onUsage={setUsageOf} onRevoke={setRevoking} />
                <TokenCards tokens={tokenList.tokens} onUsage={setUsageOf} onRevoke={setRevoking} />
              </>
            )}
          </Stack>
        )}
      </QueryState>

      <NewTokenModal created={shownToken} onClose={() => setShownToken(null)} />

      <Modal opened={usageOf !== null} onClose={() => setUsageOf(null)} title={usageOf ? `Requests of "${usageOf.name}", last 30 days` : ''} size="lg">
        {usageOf && (
          <Suspense fallback={<PageLoader />}>
            <TokenUsageChart tokenId={usageOf.id} />
          </Suspense>
        )}
      </Modal>

      <Modal opened={revoking !== null} onClose={() => setRevoking(null)} title="Revoke this token?">
        <Text size="sm" mb="md">
          Scripts using "{revoking?.name}" stop working on their next request. This cannot be undone.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setRevoking(null)} disabled={revoke.isPending}>
            Cancel
          </Button>
          <Button color="red" onClick={() => revoking && revoke.mutate({ id: revoking.id })} loading={revoke.isPending}>
            Revoke token
          </Button>
        </Group>
      </Modal>
    </Card>
  );
}
