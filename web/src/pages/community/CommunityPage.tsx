/**
 * Community (spec section 2): Discord card, channels, the coming-soon forum and the guidelines. The
 * invite link is the server's configuration (DISCORD_INVITE_URL, GET /api/community); without one,
 * players read a friendly note, never setup instructions meant for operators (docs/web.md).
 */
import { Badge, Button, Card, Group, List, Loader, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconBrandDiscord, IconExternalLink, IconMessages, IconPin, IconPlus, IconSearch, IconShieldCheck } from '@tabler/icons-react';
import { AdSlot } from '../../components/AdSlot';
import { PageHeader } from '../../components/PageHeader';
import { usePageMeta } from '../../hooks/usePageMeta';
import { trpc } from '../../trpc';

const CHANNELS = [
  { name: '#general', text: 'Chat with other players about anything Marketcraft' },
  { name: '#strategy', text: 'Share and discuss strategies' },
  { name: '#market-talk', text: 'Prices, trends and trading ideas' },
  { name: '#support', text: 'Help with the game' },
  { name: '#competitions', text: 'Events and competitions' },
];

const FORUM_CATEGORIES = ['General Discussion', 'Strategy & Tips', 'Market Analysis', 'Help & Support', 'Competitions & Events'];

const EXAMPLE_DISCUSSIONS = [
  { title: 'Welcome to the Marketcraft forum!', pinned: true },
  { title: 'Best first building for a new company?', pinned: false },
  { title: 'Vertical integration vs. pure retail: which pays more?', pinned: false },
];

const GUIDELINES = [
  'Be respectful and constructive.',
  'Share strategies and help new players.',
  'Use appropriate categories.',
  'Search before posting.',
  'Report spam or inappropriate content to moderators.',
];

export default function CommunityPage() {
  usePageMeta('Community', 'Join the Marketcraft community: Discord, forum and guidelines.');
  const community = trpc.world.community.useQuery();
  const invite = community.data?.discord_invite_url ?? null;
  return (
    <>
      <PageHeader title="Community" subtitle="Connect with other players, share strategies and get help" />
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Card withBorder padding="lg">
            <Group gap="sm" mb="xs">
              <IconBrandDiscord size={26} color="#5865F2" aria-hidden />
              <Title order={2} fz="xl">
                Join our Discord
              </Title>
            </Group>
            <Text c="dimmed" mb="md">
              Talk with players in real time, find trading partners and hear about updates first.
            </Text>
            {community.isPending ? (
              <Loader size="sm" role="status" aria-label="Loading the invite link" />
            ) : invite ? (
              <Button
                component="a"
                href={invite}
                target="_blank"
                rel="noopener noreferrer"
                color="indigo"
                rightSection={<IconExternalLink size={16} aria-hidden />}
              >
                Join Discord Server
              </Button>
            ) : (
              <Text size="sm" data-testid="discord-not-open">
                Our Discord server is not open yet. Until it is, the Learning Base answers most questions, and you can meet the other companies on the
                Leaderboard and the Stock Exchange.
              </Text>
            )}
          </Card>
          <Card withBorder padding="lg">
            <Title order={2} fz="xl" mb="sm">
              Channels
            </Title>
            <Stack gap={6}>
              {CHANNELS.map((channel) => (
                <Group key={channel.name} gap="xs" wrap="nowrap" align="baseline">
                  <Text fw={600} ff="monospace" size="sm">
                    {channel.name}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {channel.text}
                  </Text>
                </Group>
              ))}
            </Stack>
          </Card>
        </SimpleGrid>

        <AdSlot />

        <Card withBorder padding="lg">
          <Group justify="space-between" mb="md" wrap="wrap">
            <Group gap="sm">
              <IconMessages size={22} aria-hidden />
              <Title order={2} fz="xl">
                In-Game Forum
              </Title>
              <Badge color="gray">Coming Soon</Badge>
            </Group>
            <Button leftSection={<IconPlus size={16} aria-hidden />} disabled>
              New Topic
            </Button>
          </Group>
          <TextInput placeholder="Search discussions..." leftSection={<IconSearch size={16} aria-hidden />} disabled aria-label="Search discussions" mb="md" />
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} mb="md">
            {FORUM_CATEGORIES.map((category) => (
              <Card key={category} withBorder padding="sm" bg="var(--mantine-color-default-hover)">
                <Text fw={600}>{category}</Text>
                <Text size="xs" c="dimmed">
                  0 topics · 0 posts
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          <Title order={3} fz="md" mb="xs">
            Recent Discussions
          </Title>
          <Stack gap="xs">
            {EXAMPLE_DISCUSSIONS.map((discussion) => (
              <Card key={discussion.title} withBorder padding="sm" style={{ borderStyle: 'dashed' }}>
                <Group gap="xs" wrap="nowrap">
                  {discussion.pinned && <IconPin size={16} role="img" aria-label="Pinned" />}
                  <div>
                    <Text fw={500} size="sm">
                      {discussion.title}
                    </Text>
                    <Text size="xs" c="dimmed">
                      by Coming Soon
                    </Text>
                  </div>
                </Group>
              </Card>
            ))}
          </Stack>
        </Card>

        <Card withBorder padding="lg">
          <Group gap="sm" mb="sm">
            <IconShieldCheck size={22} aria-hidden />
            <Title order={2} fz="xl">
              Community Guidelines
            </Title>
          </Group>
          <List type="ordered" spacing="xs">
            {GUIDELINES.map((rule) => (
              <List.Item key={rule}>{rule}</List.Item>
            ))}
          </List>
        </Card>
      </Stack>
    </>
  );
}
