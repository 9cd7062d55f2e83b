/** Learning Base (spec section 2): four tabs (Basics, Business, Mechanics, Strategy) and an ad slot. */
import type { ReactNode } from 'react';
import { Alert, Anchor, Badge, Card, Group, List, SimpleGrid, Stack, Tabs, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowRight,
  IconBook,
  IconBulb,
  IconChartLine,
  IconCode,
  IconCash,
  IconClock,
  IconGauge,
  IconSettings,
  IconSwords,
  IconTarget,
} from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router-dom';
import { AdSlot } from '../../components/AdSlot';
import { PageHeader } from '../../components/PageHeader';
import { usePageMeta } from '../../hooks/usePageMeta';
import { ScriptingTab } from './ScriptingTab';
import { TeachingTab } from './TeachingTab';

const TABS = ['basics', 'business', 'mechanics', 'strategy', 'scripting', 'teaching'] as const;

function Section({ title, children, icon }: { title: string; children: ReactNode; icon?: ReactNode }) {
  return (
    <Card withBorder padding="lg">
      <Group gap="sm" mb="sm" wrap="nowrap">
        {icon}
        <Title order={3} fz="lg">
          {title}
        </Title>
      </Group>
      {children}
    </Card>
  );
}

const FIRST_STEPS = [
  'Look around your Dashboard: your cash, the week and the time until the next turn are always in the header.',
  'Build your first building on the Build page: a Farm or a Mine is a cheap, reliable start.',
  'Pick a city whose bonus fits the building (an agricultural city for a farm) for extra output.',
  'Open the building and choose what it produces; hire 2-3 employees early to lift its efficiency.',
  'Sell what you produce on the Market, or build a Store to sell to consumers at your own prices.',
  'Wait for the turn: production, sales and finances are settled every 12 hours. Then adjust and grow.',
];

const KEY_CONCEPTS = [
  {
    icon: IconCash,
    title: 'Cash Flow',
    text: 'Cash in (sales, dividends) minus cash out (wages, operating costs, purchases). Negative cash flow that lasts leads to bankruptcy.',
  },
  {
    icon: IconChartLine,
    title: 'Market Prices',
    text: 'Prices rise when goods are bought and fall when they are sold. Buy low, sell high, and watch the price change percent.',
  },
  {
    icon: IconGauge,
    title: 'Production Efficiency',
    text: 'Employees and equipment raise efficiency: min(100, employees x 10 + equipment level x 15). Efficiency multiplies output.',
  },
  {
    icon: IconSwords,
    title: 'Competition',
    text: 'Other players and 25+ AI bots sell the same goods in the same cities. Their moves change demand and prices.',
  },
];

function BasicsTab() {
  return (
    <Stack gap="md">
      <Section title="Your First Steps" icon={<IconTarget size={20} aria-hidden />}>
        <List type="ordered" spacing="xs">
          {FIRST_STEPS.map((step) => (
            <List.Item key={step}>{step}</List.Item>
          ))}
        </List>
        <Text size="sm" mt="sm">
          Your dashboard keeps a{' '}
          <Anchor component={Link} to="/?checklist=show" data-testid="learning-checklist-link">
            first-week checklist
          </Anchor>{' '}
          that ticks itself as you build the chain from a farm to bread sold in your store.
        </Text>
      </Section>
      <Section title="How Turns Work" icon={<IconClock size={20} aria-hidden />}>
        <Text>
          Marketcraft is turn-based. One turn is one business week and happens every 12 real hours, at 00:30 and 12:30 UTC. At the end of each turn, the AI bots
          act, your buildings produce, your stores sell, share prices update and dividends are paid. These results are final: they cannot be undone. For 30
          minutes after a turn the header shows the processing window; afterwards it counts down to the next turn.
        </Text>
      </Section>
      <div>
        <Title order={3} fz="lg" mb="sm">
          Key Concepts
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {KEY_CONCEPTS.map((concept) => (
            <Card key={concept.title} withBorder padding="md">
              <Group gap="sm" mb={6} wrap="nowrap">
                <ThemeIcon variant="light" aria-hidden>
                  <concept.icon size={18} />
                </ThemeIcon>
                <Text fw={600}>{concept.title}</Text>
              </Group>
              <Text size="sm" c="dimmed">
                {concept.text}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </div>
    </Stack>
  );
}

function Chain({ steps }: { steps: string[] }) {
  return (
    <Group gap={6} my="sm" wrap="wrap" aria-label={steps.join(' to ')}>
      {steps.map((step, index) => (
        <Group key={step} gap={6} wrap="nowrap">
          {index > 0 && <IconArrowRight size={16} aria-hidden />}
          <Badge variant="light" size="lg" tt="none">
            {step}
          </Badge>
        </Group>
      ))}
    </Group>
  );
}

function BusinessTab() {
  return (
    <Stack gap="md">
      <Section title="Supply & Demand">
        <Text>
          Every product has a price that moves with trading: when many companies buy, the price climbs; when many sell, it falls. Each city also has a demand
          level (0-100) for each product: high demand means stores there sell more. Prices drift back toward their base over time, so extremes rarely last.
        </Text>
      </Section>
      <Section title="Production Chains">
        <Text>Most goods are made from other goods. A classic chain:</Text>
        <Chain steps={['Farm: wheat', 'Mill: flour', 'Bakery: bread', 'Store']} />
        <Text>
          Each step adds value. Owning several steps of a chain (vertical integration) saves you buying inputs at market prices, but ties up more capital. Mines
          feed steel mills, steel mills feed factories, oil wells feed refineries.
        </Text>
      </Section>
      <Section title="Stock Market Investing">
        <Text>
          Every company, player or bot, has shares. Share prices follow company value, and companies pay 20% of their profits as dividends each turn. Buying
          shares in well-run companies is a way to earn without building; diversify so that one bad turn does not sink your portfolio.
        </Text>
      </Section>
      <Section title="Financial Management">
        <Text>
          Watch your cash flow chart on the Dashboard. Every building has weekly operating costs and wages; keep a cash reserve for them. Expanding faster than
          your income grows is the most common way companies go bankrupt.
        </Text>
      </Section>
    </Stack>
  );
}

function MechanicsTab() {
  return (
    <Stack gap="md">
      <Section title="Building Management" icon={<IconSettings size={20} aria-hidden />}>
        <Text>
          Farm and Mine extract raw materials; Mill and Bakery turn wheat into flour and flour into bread; a Factory makes industrial goods; a Store sells to
          consumers at prices you set. Your Warehouse holds what you buy and produce, and your Office (this dashboard) is where it all comes together. In each
          building you can hire employees (up to 10 at a time), upgrade equipment (levels 1 to 5), set the production rate (10 to 200 units per week; changes
          apply next turn) and choose what to produce.
        </Text>
      </Section>
      <Section title="Market Trading">
        <Text>
          The Market lists every product with its price and price change. Buy raw materials for your production or goods for your stores; sell what you make.
          Selling pays a little under the listed price, so trading back and forth costs money.
        </Text>
      </Section>
      <Section title="Research & Technology">
        <Text>
          Research and Development offers 15 upgrades in 5 tiers: productivity, efficiency, unlocks and automation. Some apply to one building type only; higher
          tiers need their prerequisite first. Research is permanent.
        </Text>
      </Section>
      <Section title="Political System">
        <Text>
          Invest in a country to gain influence (the bar is full at 1000 points). Influence can shape tax policies and trigger subsidies; elections happen every
          12 weeks. Active events show until the week they end.
        </Text>
      </Section>
    </Stack>
  );
}

function StrategyTab() {
  return (
    <Stack gap="md">
      <Section title="Early Game" icon={<IconBulb size={20} aria-hidden />}>
        <List spacing="xs">
          <List.Item>Start with one or two cheap extraction buildings in cities whose bonus fits them.</List.Item>
          <List.Item>Hire 2-3 employees early: efficiency multiplies everything the building makes.</List.Item>
          <List.Item>Keep a cash reserve for operating costs and wages.</List.Item>
        </List>
      </Section>
      <Section title="Mid Game">
        <List spacing="xs">
          <List.Item>Add processing buildings that use what you already produce, then a store to sell the result.</List.Item>
          <List.Item>
            Joining a world that has run for a while? Make what the market is short of: a product many companies make trades well below its base price, and
            shoppers&apos; prices follow it. Compare the Market&apos;s prices with what each recipe uses before you choose.
          </List.Item>
          <List.Item>
            Buy what trades well below its base price instead of building the step that makes it: a newcomer&apos;s farm and mill for a glutted grain earn
            little, and the money staffs the bakery and store you keep (a building with one employee works at 25%).
          </List.Item>
          <List.Item>
            Open a store where shoppers are left unserved: the product&apos;s page on the Market shows, per city, the stores selling it and the shoppers a week
            no store served last week. Stores at the same price share one city&apos;s demand.
          </List.Item>
          <List.Item>
            Price your shelves near the city&apos;s reference price; when a store sells out every week, raise its price until it just sells what it can (the
            store&apos;s forecast shows what each price would sell).
          </List.Item>
          <List.Item>Research the upgrades that boost the buildings you own most of.</List.Item>
          <List.Item>Buy shares in steady companies to earn dividends.</List.Item>
        </List>
      </Section>
      <Section title="Advanced">
        <List spacing="xs">
          <List.Item>Build complete chains in several cities and shift stock to where demand is highest.</List.Item>
          <List.Item>Use political influence in the countries where you own most buildings.</List.Item>
          <List.Item>Watch the leaderboard and the news feed to anticipate competitors.</List.Item>
        </List>
      </Section>
      <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Common Mistakes">
        <List spacing="xs">
          <List.Item>
            <b>Overexpansion:</b> building more than your income can sustain.
          </List.Item>
          <List.Item>
            <b>Ignoring efficiency:</b> a building with one employee and basic equipment wastes its capacity.
          </List.Item>
          <List.Item>
            <b>Market timing:</b> buying after prices have already risen, selling after they have fallen.
          </List.Item>
          <List.Item>
            <b>Neglecting competition:</b> other companies sell in the same cities and move the same prices.
          </List.Item>
        </List>
      </Alert>
    </Stack>
  );
}

export default function LearningPage() {
  usePageMeta('Learning Base', 'Learn the economics behind Marketcraft: basics, business concepts, game mechanics and strategy.');
  // ?tab=scripting opens a tab directly (the profile links to the scripting guide).
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab = TABS.find((each) => each === requested) ?? 'basics';
  return (
    <>
      <PageHeader title="Learning Base" subtitle="Everything you need to master the economy" />
      <Stack gap="md">
        <Tabs value={tab} onChange={(value) => setSearchParams(value && value !== 'basics' ? { tab: value } : {}, { replace: true })} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="basics" leftSection={<IconBook size={16} aria-hidden />}>
              Basics
            </Tabs.Tab>
            <Tabs.Tab value="business">Business</Tabs.Tab>
            <Tabs.Tab value="mechanics">Mechanics</Tabs.Tab>
            <Tabs.Tab value="strategy">Strategy</Tabs.Tab>
            <Tabs.Tab value="scripting" leftSection={<IconCode size={16} aria-hidden />}>
              Scripting
            </Tabs.Tab>
            <Tabs.Tab value="teaching">Teaching with Marketcraft</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="basics">
            <BasicsTab />
          </Tabs.Panel>
          <Tabs.Panel value="business">
            <BusinessTab />
          </Tabs.Panel>
          <Tabs.Panel value="mechanics">
            <MechanicsTab />
          </Tabs.Panel>
          <Tabs.Panel value="strategy">
            <StrategyTab />
          </Tabs.Panel>
          <Tabs.Panel value="scripting">
            <ScriptingTab />
          </Tabs.Panel>
          <Tabs.Panel value="teaching">
            <TeachingTab />
          </Tabs.Panel>
        </Tabs>
        <AdSlot />
      </Stack>
    </>
  );
}
