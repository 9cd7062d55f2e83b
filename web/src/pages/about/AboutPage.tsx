import { Link } from 'react-router-dom';
import { Button, Card, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBook,
  IconBuildingFactory2,
  IconChartLine,
  IconFlask,
  IconGavel,
  IconRobot,
  IconSchool,
  IconShoppingCart,
  IconTrophy,
  IconUsers,
} from '@tabler/icons-react';
import { BOT_COUNT, CITY_COUNT, MAX_EQUIPMENT_LEVEL, PRODUCT_CATEGORIES, PRODUCT_COUNT, RESEARCH_TIERS, RESEARCH_UPGRADE_COUNT } from '@marketcraft/shared';
import { PageHeader } from '../../components/PageHeader';
import { usePageMeta } from '../../hooks/usePageMeta';

const FEATURES = [
  { icon: IconBuildingFactory2, title: 'Build an Empire', text: 'Farms, mines, mills, factories, bakeries and stores in 50 cities, each with its own bonus.' },
  { icon: IconShoppingCart, title: 'Trade Goods', text: 'Buy raw materials and sell finished goods on a market whose prices move with supply and demand.' },
  { icon: IconChartLine, title: 'Stock Exchange', text: 'Buy shares in rival companies, collect dividends and watch share prices follow company value.' },
  { icon: IconGavel, title: 'Politics', text: 'Invest in political influence to shape tax policies and trigger subsidies.' },
  { icon: IconFlask, title: 'Research', text: 'Unlock upgrades that raise output, cut costs and improve your prices.' },
  { icon: IconRobot, title: 'AI Competitors', text: '25+ bot companies, each with its own strategy, compete with you every turn.' },
];

const BENEFITS = [
  'Supply and demand: see prices react to what players buy and sell.',
  'Production chains: learn how raw materials become finished goods, and where value is added.',
  'Cash flow and financial management: keep operating costs below revenue or face bankruptcy.',
  'Investing: read share prices, dividends and net worth.',
  'Strategy under competition: plan ahead in a world that keeps moving every 12 hours.',
];

export default function AboutPage() {
  usePageMeta('About', 'About Marketcraft: a multiplayer turn-based business game that teaches economics through play.');
  const scale = [
    { value: `${PRODUCT_COUNT}`, label: 'Products' },
    { value: `${PRODUCT_CATEGORIES.length}`, label: 'Product categories' },
    { value: `${CITY_COUNT}`, label: 'Cities' },
    { value: `${BOT_COUNT}+`, label: 'AI competitors' },
    { value: '17', label: 'Building types' },
    { value: `${RESEARCH_UPGRADE_COUNT}`, label: `Research upgrades in ${RESEARCH_TIERS} tiers` },
    { value: `${MAX_EQUIPMENT_LEVEL}`, label: 'Equipment levels' },
    { value: '12h', label: 'Per turn (one game week)' },
  ];
  return (
    <>
      <PageHeader title="About Marketcraft" subtitle="Master Economics Through Play" />
      <Stack gap="lg">
        <Card withBorder padding="lg">
          <Title order={2} fz="xl" mb="xs">
            Our Mission
          </Title>
          <Text>
            Marketcraft makes economics something you do rather than something you read about. You run a company in a living world of players and AI rivals: you
            build, produce, trade, invest and lobby, and every 12 hours a turn settles the results. Decisions have consequences you can see on your balance
            sheet.
          </Text>
        </Card>

        <div>
          <Title order={2} fz="xl" mb="sm">
            Features
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {FEATURES.map((feature) => (
              <Card key={feature.title} withBorder padding="md">
                <Group gap="sm" mb="xs" wrap="nowrap">
                  <ThemeIcon variant="light" size="lg" aria-hidden>
                    <feature.icon size={20} />
                  </ThemeIcon>
                  <Text fw={600}>{feature.title}</Text>
                </Group>
                <Text size="sm" c="dimmed">
                  {feature.text}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        </div>

        <Card withBorder padding="lg">
          <Group gap="sm" mb="xs">
            <IconSchool size={22} aria-hidden />
            <Title order={2} fz="xl">
              Educational Benefits
            </Title>
          </Group>
          <List spacing="xs">
            {BENEFITS.map((benefit) => (
              <List.Item key={benefit}>{benefit}</List.Item>
            ))}
          </List>
        </Card>

        <div>
          <Title order={2} fz="xl" mb="sm">
            The World in Numbers
          </Title>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {scale.map((item) => (
              <Card key={item.label} withBorder padding="md" ta="center">
                <Text fw={800} fz={26}>
                  {item.value}
                </Text>
                <Text size="sm" c="dimmed">
                  {item.label}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        </div>

        <Group>
          <Button component={Link} to="/learning" leftSection={<IconBook size={18} aria-hidden />}>
            View Learning Base
          </Button>
          <Button component={Link} to="/community" variant="light" leftSection={<IconUsers size={18} aria-hidden />}>
            Join Community
          </Button>
          <Button component={Link} to="/leaderboard" variant="subtle" leftSection={<IconTrophy size={18} aria-hidden />}>
            See the Leaderboard
          </Button>
        </Group>
      </Stack>
    </>
  );
}
