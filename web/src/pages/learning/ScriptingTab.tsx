/**
 * Learning Base, "Scripting": the guide of docs/scripting.md for players, with the same two
 * example bots (web/public/examples, bundled here as text and downloadable from /examples/).
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Anchor, Button, Card, Code, CopyButton, Group, List, ScrollArea, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { API_TOKEN_SCOPES, API_TOKEN_SCOPE_DESCRIPTIONS, DEFAULT_RATE_LIMITS } from '@marketcraft/shared';
import typeScriptBot from '../../../public/examples/company-bot.ts?raw';
import pythonBot from '../../../public/examples/company_bot.py?raw';
import { ScopeBadge } from '../../components/ScopeBadge';

function Step({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="lg" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function Example({ code, file, run }: { code: string; file: string; run: string }) {
  return (
    <Stack gap="xs">
      <Text size="sm">
        Run: <Code>{run}</Code>
      </Text>
      <Group gap="xs">
        <CopyButton value={code}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy} leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}>
              {copied ? 'Copied' : 'Copy code'}
            </Button>
          )}
        </CopyButton>
        <Button size="xs" variant="light" component="a" href={`/examples/${file}`} download={file} leftSection={<IconDownload size={14} aria-hidden />}>
          Download {file}
        </Button>
      </Group>
      <ScrollArea.Autosize mah={480} type="auto">
        <Code block fz="xs">
          {code}
        </Code>
      </ScrollArea.Autosize>
    </Stack>
  );
}

export function ScriptingTab() {
  const { token } = DEFAULT_RATE_LIMITS;
  return (
    <Stack gap="md">
      <Text>
        Marketcraft has an official API: everything the game does is a JSON route under <Code>/api</Code>, and a script can play your company with a personal
        access token. Every route, with what it takes and answers, is in the{' '}
        <Anchor href="/api/docs" target="_blank">
          API reference
        </Anchor>
        .
      </Text>
      <Step title="1. Create a token">
        <Text mb="sm">
          On your{' '}
          <Anchor component={Link} to="/profile">
            Company Profile
          </Anchor>
          , under API tokens, choose a name, a scope and an expiry. The token is shown once: copy it and keep it secret, in an environment variable rather than
          in your code, never in a URL. If it leaks, revoke it on the profile.
        </Text>
        <List spacing={4}>
          {API_TOKEN_SCOPES.map((scope) => (
            <List.Item key={scope}>
              <ScopeBadge scope={scope} mr="xs" />
              {API_TOKEN_SCOPE_DESCRIPTIONS[scope]}
            </List.Item>
          ))}
        </List>
      </Step>
      <Step title="2. Try it">
        <Code block>{`curl ${window.location.origin}/api/company -H "Authorization: Bearer $MARKETCRAFT_TOKEN"`}</Code>
        <Text size="sm" mt="sm">
          Money is in dollars. Errors answer <Code>{'{ "error": "..." }'}</Code>: 400 bad input, 401 a bad token, 403 a route outside the token's scope, 404 not
          yours, 409 not enough cash or stock, 422 a rule of the game, 429 too fast.
        </Text>
      </Step>
      <Step title="3. Play once per turn">
        <Text mb="sm">
          A turn runs every 12 hours or when an admin advances it. <Code>GET /api/world</Code> answers <Code>current_week</Code>: check it now and then and play
          when the week changes. Each turn the examples read the market, restock every store shelf to 50 units (bought at the city's market price, sold at
          market price + 25%) and sell what the warehouse holds beyond 100 units of a product.
        </Text>
        <Text size="sm">
          Limits: each token may make {token.requestsPerMinute} requests a minute, of which {token.mutationsPerMinute} actions. Every answer says what is left (
          <Code>RateLimit-Remaining</Code>); over the limit it answers 429 with <Code>Retry-After</Code> seconds to wait, which the examples respect.
        </Text>
      </Step>
      <Card withBorder padding="lg">
        <Tabs defaultValue="typescript">
          <Tabs.List mb="md">
            <Tabs.Tab value="typescript">TypeScript (fetch)</Tabs.Tab>
            <Tabs.Tab value="python">Python (requests)</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="typescript">
            <Example code={typeScriptBot} file="company-bot.ts" run="MARKETCRAFT_TOKEN=mc_pat_... node company-bot.ts" />
          </Tabs.Panel>
          <Tabs.Panel value="python">
            <Example code={pythonBot} file="company_bot.py" run="MARKETCRAFT_TOKEN=mc_pat_... python3 company_bot.py" />
          </Tabs.Panel>
        </Tabs>
      </Card>
      <Text size="sm" c="dimmed">
        Companies whose actions came through a token in the last 7 days show a small API badge on the leaderboard.
      </Text>
    </Stack>
  );
}
