/**
 * Warehouse (issue 10): every good the company holds, in the company warehouse (where production
 * puts its output and takes its inputs, and market trades land), in each store's back room and on
 * each shelf, with quantity, average cost and market value (GET /api/warehouse), and what to do
 * with it: sell it on the market, put it on a store's shelf, move it to a store's back room or back.
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Anchor, Badge, Button, Card, Group, SegmentedControl, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { isConsumerGood } from '@marketcraft/shared';
import { AddToStoreDialog, type ShelfCandidate, type StoreChoice } from '../../components/AddToStoreDialog';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useBuildings } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';
import { formatMoney } from '../../lib/format';
import { trpc } from '../../trpc';
import { MoveDialog, OfferDialog, SellGoodsDialog, type MoveTarget } from './dialogs';
import { TableScroll } from '../../components/TableScroll';
import { whereText, type Holding } from '../../lib/holdings';
import { IncomingOffers } from '../../components/IncomingOffers';

type Location = Holding['location'];

const LOCATION_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'warehouse', label: 'Warehouse' },
  { value: 'back_room', label: 'Back rooms' },
  { value: 'shelf', label: 'Shelves' },
];

function Summary({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={800} fz="lg" data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}

export default function WarehousePage() {
  usePageMeta('Warehouse', 'Every good your company holds: the warehouse, back rooms and shelves.');
  const holdings = trpc.warehouse.holdings.useQuery();
  const buildings = useBuildings();
  const [search, setSearch] = useState('');
  const [location, setLocation] = useState<'all' | Location>('all');
  const [selling, setSelling] = useState<Holding | null>(null);
  const [offering, setOffering] = useState<Holding | null>(null);
  const world = trpc.world.state.useQuery();
  const [shelving, setShelving] = useState<Holding | null>(null);
  const [moving, setMoving] = useState<MoveTarget | null>(null);

  const items = useMemo(() => holdings.data?.items ?? [], [holdings.data]);
  const stores = (buildings.data ?? []).filter((building) => building.category === 'retail');
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return items.filter((item) => (location === 'all' || item.location === location) && (!needle || item.product_name.toLowerCase().includes(needle)));
  }, [items, search, location]);

  // What each store can shelve of a product: its back room plus the company warehouse.
  const storeChoicesFor = (productId: number): StoreChoice[] => {
    const inWarehouse = items.find((item) => item.product_id === productId && item.location === 'warehouse')?.quantity ?? 0;
    return stores.map((store) => ({
      id: store.id,
      label: `${store.name} in ${store.city_name}`,
      cityId: store.city_id,
      cityName: store.city_name,
      available:
        inWarehouse +
        (items.find((item) => item.product_id === productId && item.location === 'back_room' && item.store?.building_id === store.id)?.quantity ?? 0),
    }));
  };
  const shelfItem: ShelfCandidate | null = shelving && {
    productId: shelving.product_id,
    productName: shelving.product_name,
    averageCost: shelving.average_cost,
  };
  const shelfStores = shelving
    ? storeChoicesFor(shelving.product_id).filter((choice) => shelving.location === 'warehouse' || choice.id === shelving.store?.building_id)
    : [];

  return (
    <>
      <PageHeader title="Warehouse" subtitle="Everything your company holds. Production takes its inputs from the warehouse and puts its output there." />
      <IncomingOffers />
      <QueryState query={holdings}>
        {(data) => (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 3 }}>
              <Summary label="Units held" value={data.totals.units.toLocaleString('en-US')} testId="warehouse-units" />
              <Summary label="At cost" value={formatMoney(data.totals.cost_value)} testId="warehouse-cost" />
              <Summary label="Market value" value={formatMoney(data.totals.market_value)} testId="warehouse-value" />
            </SimpleGrid>
            <Group gap="sm" wrap="wrap">
              <TextInput
                placeholder="Search goods..."
                aria-label="Search goods"
                leftSection={<IconSearch size={16} aria-hidden />}
                value={search}
                onChange={(event) => setSearch(event.currentTarget.value)}
                style={{ flex: '1 1 220px' }}
              />
              <SegmentedControl aria-label="Where" data={LOCATION_FILTERS} value={location} onChange={(value) => setLocation(value as 'all' | Location)} />
            </Group>
            {data.items.length === 0 ? (
              <Card withBorder padding="lg">
                <Text c="dimmed" ta="center">
                  Your warehouse is empty. Buy goods on the{' '}
                  <Anchor component={Link} to="/market" underline="always">
                    Market
                  </Anchor>
                  , or build a farm or a mine: what your buildings make arrives here every turn.
                </Text>
              </Card>
            ) : shown.length === 0 ? (
              <Text c="dimmed" ta="center" py="lg">
                No goods match.
              </Text>
            ) : (
              <Card withBorder padding={0}>
                <TableScroll minWidth={760} label="Goods you hold">
                  <Table striped highlightOnHover verticalSpacing="xs">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Product</Table.Th>
                        <Table.Th>Where</Table.Th>
                        <Table.Th ta="right">Quantity</Table.Th>
                        <Table.Th ta="right">Avg cost</Table.Th>
                        <Table.Th ta="right">Market value</Table.Th>
                        <Table.Th>Actions</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {shown.map((item) => (
                        <Table.Tr key={`${item.product_id}-${item.location}-${item.store?.building_id ?? 0}`} data-testid="holding-row">
                          <Table.Td>
                            <Text size="sm" fw={600}>
                              {item.product_name}
                            </Text>
                            <Text size="xs" c="dimmed">
                              {item.category}
                              {item.used_by.length > 0 && ` · used by ${item.used_by.map((user) => `${user.building_name} (${user.city_name})`).join(', ')}`}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <Text size="sm">{whereText(item)}</Text>
                            {item.location === 'shelf' && (
                              <Badge size="xs" variant="light" color={item.is_active ? 'green' : 'gray'}>
                                {item.is_active ? `On sale at ${formatMoney(item.retail_price)}` : 'Off sale'}
                              </Badge>
                            )}
                          </Table.Td>
                          <Table.Td ta="right">{item.quantity.toLocaleString('en-US')}</Table.Td>
                          <Table.Td ta="right">{formatMoney(item.average_cost)}</Table.Td>
                          <Table.Td ta="right">{formatMoney(item.market_value)}</Table.Td>
                          <Table.Td>
                            <Group gap={4} wrap="nowrap">
                              {item.location === 'warehouse' && (
                                <Button
                                  size="compact-xs"
                                  variant="light"
                                  color="orange"
                                  onClick={() => setSelling(item)}
                                  aria-label={`Sell ${item.product_name}`}
                                >
                                  Sell
                                </Button>
                              )}
                              {item.location === 'warehouse' && (
                                <Button
                                  size="compact-xs"
                                  variant="light"
                                  color="teal"
                                  onClick={() => setOffering(item)}
                                  aria-label={`Offer ${item.product_name} to a company`}
                                  disabled={!world.data}
                                >
                                  Offer
                                </Button>
                              )}
                              {/* Stores sell consumer goods only (docs/economy.md, "Store sales"). */}
                              {item.location !== 'shelf' && isConsumerGood(item.category) && (
                                <Button
                                  size="compact-xs"
                                  variant="light"
                                  onClick={() => setShelving(item)}
                                  aria-label={`To shelf: ${item.product_name}`}
                                  disabled={stores.length === 0}
                                >
                                  To shelf
                                </Button>
                              )}
                              {item.location === 'warehouse' && (
                                <Button
                                  size="compact-xs"
                                  variant="default"
                                  onClick={() => setMoving({ holding: item, direction: 'to_back_room' })}
                                  aria-label={`To back room: ${item.product_name}`}
                                  disabled={stores.length === 0}
                                >
                                  To back room
                                </Button>
                              )}
                              {item.location === 'back_room' && (
                                <Button
                                  size="compact-xs"
                                  variant="default"
                                  onClick={() => setMoving({ holding: item, direction: 'to_warehouse' })}
                                  aria-label={`To warehouse: ${item.product_name}`}
                                >
                                  To warehouse
                                </Button>
                              )}
                              {item.location === 'shelf' && item.store && (
                                <Anchor component={Link} to={`/buildings/${item.store.building_id}`} size="xs">
                                  Manage shelf
                                </Anchor>
                              )}
                            </Group>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </TableScroll>
              </Card>
            )}
            {data.in_escrow.length > 0 && (
              <Card withBorder padding="md" data-testid="in-escrow">
                <Title order={2} fz="md" mb={4}>
                  Held for Orders and Offers
                </Title>
                <Text size="xs" c="dimmed" mb="xs">
                  Out of the warehouse until the order fills or the offer is accepted; back when cancelled, declined or expired (not in the units above).
                </Text>
                <Stack gap={4}>
                  {data.in_escrow.map((held) => (
                    <Text size="sm" key={`${held.held_by}-${held.id}`}>
                      {held.quantity.toLocaleString('en-US')} {held.product_name} at {formatMoney(held.average_cost)} each:{' '}
                      {held.held_by === 'sell_order' ? `sell order #${held.id}` : `contract offer #${held.id}`}
                    </Text>
                  ))}
                </Stack>
              </Card>
            )}
            {stores.length === 0 && data.items.length > 0 && (
              <Text size="sm" c="dimmed">
                To sell to shoppers,{' '}
                <Anchor component={Link} to="/build" underline="always">
                  build a store
                </Anchor>
                : then put goods on its shelf from here.
              </Text>
            )}
          </Stack>
        )}
      </QueryState>
      <SellGoodsDialog holding={selling} onClose={() => setSelling(null)} />
      <OfferDialog holding={offering} week={world.data?.current_week ?? 1} onClose={() => setOffering(null)} />
      <AddToStoreDialog item={shelfItem} stores={shelfStores} onClose={() => setShelving(null)} />
      <MoveDialog target={moving} stores={stores} onClose={() => setMoving(null)} />
    </>
  );
}
