/** My Buildings (spec section 2): counts per category and cards grouped by category. */
import { Link } from 'react-router-dom';
import { Badge, Button, Card, Center, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingFactory2, IconBuildingStore, IconPlus, IconSettings, IconUsers } from '@tabler/icons-react';
import { BUILDING_CATEGORIES, BUILDING_CATEGORY_LABELS } from '@marketcraft/shared';
import { PageLoader } from '../../components/FullScreenLoader';
import { ShortOfInputsBadge } from '../../components/ShortOfInputsBadge';
import { EmptyShelfBadge } from '../../components/EmptyShelfBadge';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { useBuildings } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';

export default function MyBuildingsPage() {
  usePageMeta('My Buildings', 'Every building your company owns, grouped by category.');
  const buildings = useBuildings();

  const buildButton = (
    <Button component={Link} to="/build" leftSection={<IconPlus size={16} aria-hidden />}>
      Build New Facility
    </Button>
  );

  return (
    <>
      <PageHeader title="My Buildings" subtitle="Manage your production and retail facilities" actions={buildings.data?.length ? buildButton : undefined} />
      {buildings.isPending ? (
        <PageLoader />
      ) : buildings.isError ? (
        <QueryError error={buildings.error} onRetry={() => void buildings.refetch()} />
      ) : buildings.data.length === 0 ? (
        <Card withBorder padding="xl">
          <Center>
            <Stack align="center" gap="sm" ta="center">
              <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
                <IconBuildingFactory2 size={30} />
              </ThemeIcon>
              <Title order={2} fz="xl">
                No Buildings Yet
              </Title>
              <Text c="dimmed">Build a farm, a mine or a store to start producing and selling.</Text>
              <Button component={Link} to="/build" leftSection={<IconPlus size={16} aria-hidden />}>
                Build Your First Building
              </Button>
            </Stack>
          </Center>
        </Card>
      ) : (
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }}>
            {BUILDING_CATEGORIES.map((category) => (
              <Card key={category} withBorder padding="sm" ta="center">
                <Text fw={800} fz={22}>
                  {buildings.data.filter((building) => building.category === category).length}
                </Text>
                <Text size="xs" c="dimmed">
                  {BUILDING_CATEGORY_LABELS[category]}
                </Text>
              </Card>
            ))}
          </SimpleGrid>

          {BUILDING_CATEGORIES.map((category) => {
            const inCategory = buildings.data.filter((building) => building.category === category);
            if (inCategory.length === 0) return null;
            return (
              <section key={category} aria-labelledby={`category-${category}`}>
                <Title order={2} fz="lg" mb="sm" id={`category-${category}`}>
                  {BUILDING_CATEGORY_LABELS[category]}
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                  {inCategory.map((building) => (
                    <Card key={building.id} withBorder padding="md" component={Link} to={`/buildings/${building.id}`} style={{ textDecoration: 'none' }}>
                      <Group justify="space-between" wrap="nowrap" mb={4}>
                        <Text fw={700}>{building.name}</Text>
                        <Group gap={4}>
                          {building.type === 'store' && (
                            <Badge color="grape" variant="light" leftSection={<IconBuildingStore size={12} aria-hidden />}>
                              Retail
                            </Badge>
                          )}
                          {building.selected_recipe_id !== null && (
                            <Badge color="green" variant="light">
                              Active Production
                            </Badge>
                          )}
                          <ShortOfInputsBadge building={building} />
                          {building.type === 'store' && <EmptyShelfBadge storeId={building.id} />}
                        </Group>
                      </Group>
                      <Text size="sm" c="dimmed" mb="sm">
                        {building.city_name || 'Unknown City'}
                      </Text>
                      <Group gap="lg">
                        <Group gap={4}>
                          <IconUsers size={14} aria-hidden />
                          <Text size="sm">
                            {building.employees} {building.employees === 1 ? 'employee' : 'employees'}
                          </Text>
                        </Group>
                        <Group gap={4}>
                          <IconSettings size={14} aria-hidden />
                          <Text size="sm">Level {building.equipment_level}</Text>
                        </Group>
                        {/* The rate the player set, named as such ('100% production' read as a farm running
                            at full output beside its building page's 'runs at 25% efficiency'), and that efficiency. */}
                        <Text size="sm" data-testid="card-production-rate">
                          Production rate {building.production_rate}%
                        </Text>
                        <Text size="sm" data-testid="card-efficiency">
                          {building.efficiency}% efficiency
                        </Text>
                      </Group>
                    </Card>
                  ))}
                </SimpleGrid>
              </section>
            );
          })}
        </Stack>
      )}
    </>
  );
}
