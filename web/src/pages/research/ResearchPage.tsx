/** Research and Development (spec sections 2, 4, 5, 8): upgrades grouped by category. */
import { useState } from 'react';
import { Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconLock } from '@tabler/icons-react';
import { RESEARCH_CATEGORIES, BUILDING_TYPES, isBuildingType } from '@marketcraft/shared';
import { CashBadge } from '../../components/CashBadge';
import { DialogForm, FormDialog } from '../../components/FormDialog';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useCompany } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';
import { formatWholeDollars } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { researchEffectsText } from '../../lib/researchEffects';
import { trpc, type RouterOutputs } from '../../trpc';

type Upgrade = RouterOutputs['research']['upgrades'][number];

const CATEGORY_LABELS: Record<string, string> = {
  productivity: 'Productivity',
  efficiency: 'Efficiency',
  unlock: 'Unlocks',
  automation: 'Automation',
};

function UpgradeCard({ upgrade, cash }: { upgrade: Upgrade; cash: number | null }) {
  // Research is permanent and costs $15,000 to $400,000 (spec: no undo): one click asks first.
  const [confirming, setConfirming] = useState(false);
  const purchase = trpc.research.purchase.useMutation({
    onSuccess: () => {
      setConfirming(false);
      notifySuccess('Research complete!', `${upgrade.name} has been unlocked for your company.`);
    },
    onError: (error) => notifyFailure('Research failed', error, 'Not enough cash or prerequisites not met'),
  });
  // Unknown cash (still loading) is not 'Insufficient Funds'; the button stays disabled until it is known.
  const unaffordable = cash !== null && cash < upgrade.effective_cost;
  const label = upgrade.researched
    ? 'Researched'
    : upgrade.locked
      ? 'Locked'
      : unaffordable
        ? 'Insufficient Funds'
        : `Research for ${formatWholeDollars(upgrade.effective_cost)}`;
  const typeName = upgrade.building_type && isBuildingType(upgrade.building_type) ? BUILDING_TYPES[upgrade.building_type].name : upgrade.building_type;

  return (
    <Card
      withBorder
      padding="md"
      // Locked upgrades get a dashed border (not dimming, which fails contrast); researched ones a green one.
      style={upgrade.researched ? { borderColor: 'var(--mantine-color-green-5)' } : upgrade.locked ? { borderStyle: 'dashed' } : undefined}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start" mb={4}>
        <Text fw={700}>{upgrade.name}</Text>
        <Badge variant="outline" size="sm" style={{ flexShrink: 0 }}>
          Tier {upgrade.tier}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mb="xs">
        {upgrade.description}
      </Text>
      <Group gap={4} mb="xs">
        {researchEffectsText(upgrade.effects).map((text) => (
          <Badge key={text} color="teal" variant="light" tt="none">
            {text}
          </Badge>
        ))}
        {typeName && (
          <Badge color="grape" variant="light" tt="none">
            {typeName} only
          </Badge>
        )}
      </Group>
      <Text size="sm" mb={4}>
        Cost: <b>{formatWholeDollars(upgrade.effective_cost)}</b>
        {upgrade.effective_cost !== upgrade.research_cost && (
          <Text span size="xs" c="dimmed" td="line-through" ml={6}>
            {formatWholeDollars(upgrade.research_cost)}
          </Text>
        )}
      </Text>
      {upgrade.prerequisite_name && (
        <Text size="xs" c={upgrade.locked ? 'orange' : 'dimmed'} mb="xs">
          Requires: {upgrade.prerequisite_name}
        </Text>
      )}
      <Button
        fullWidth
        mt="auto"
        size="sm"
        color={upgrade.researched ? 'green' : undefined}
        variant={upgrade.researched ? 'light' : 'filled'}
        leftSection={upgrade.researched ? <IconCheck size={16} aria-hidden /> : upgrade.locked ? <IconLock size={16} aria-hidden /> : undefined}
        disabled={upgrade.researched || upgrade.locked || unaffordable || cash === null || purchase.isPending}
        onClick={() => setConfirming(true)}
      >
        {purchase.isPending ? 'Researching...' : label}
      </Button>
      <FormDialog opened={confirming} onClose={() => setConfirming(false)} title="Confirm research">
        <DialogForm
          onClose={() => setConfirming(false)}
          submitLabel={`Research for ${formatWholeDollars(upgrade.effective_cost)}`}
          pendingLabel="Researching..."
          pending={purchase.isPending}
          canSubmit={!unaffordable && !upgrade.locked && !upgrade.researched}
          onSubmit={() => purchase.mutate({ upgrade_id: upgrade.id })}
        >
          <Text size="sm" data-testid="research-confirm-text">
            Research <b>{upgrade.name}</b> for {formatWholeDollars(upgrade.effective_cost)}? It is permanent: it cannot be undone and the cost is not refunded.
          </Text>
          <Text size="sm" c="dimmed">
            {upgrade.description}
          </Text>
        </DialogForm>
      </FormDialog>
    </Card>
  );
}

export default function ResearchPage() {
  usePageMeta('Research and Development', 'Research upgrades that boost production, cut costs and unlock features.');
  const { company } = useCompany();
  const upgrades = trpc.research.upgrades.useQuery();
  const researched = (upgrades.data ?? []).filter((upgrade) => upgrade.researched).length;
  const total = upgrades.data?.length ?? 0;

  return (
    <>
      <PageHeader title="Research and Development" subtitle="Permanent upgrades for your company" actions={<CashBadge label="Available budget" />} />
      <QueryState query={upgrades}>
        {(upgradeList) => (
          <Stack gap="lg">
            <Card withBorder padding="md">
              <Group justify="space-between" mb={6}>
                <Text fw={600}>Researched</Text>
                <Text fw={700}>
                  {researched} / {total}
                </Text>
              </Group>
              <Progress value={total ? (researched / total) * 100 : 0} aria-label={`${researched} of ${total} upgrades researched`} />
            </Card>
            {RESEARCH_CATEGORIES.map((category) => {
              const inCategory = upgradeList.filter((upgrade) => upgrade.category === category).sort((a, b) => a.tier - b.tier);
              if (inCategory.length === 0) return null;
              return (
                <section key={category}>
                  <Title order={2} fz="lg" mb="sm">
                    {CATEGORY_LABELS[category] ?? category}
                  </Title>
                  <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                    {inCategory.map((upgrade) => (
                      <UpgradeCard key={upgrade.id} upgrade={upgrade} cash={company ? company.cash : null} />
                    ))}
                  </SimpleGrid>
                </section>
              );
            })}
          </Stack>
        )}
      </QueryState>
    </>
  );
}
