/**
 * Trade Hall of a store (spec section 2): Purchase (the city's market), Inventory (what this store
 * can put on its shelf: its back room and the company warehouse, where the company's own production
 * lands) and Store (the shelf), with the Purchase Product and Add Product to Store dialogs.
 */
import { useState } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Select, SimpleGrid, Stack, Tabs, Text, TextInput, Tooltip } from '@mantine/core';
import { IconEye, IconEyeOff, IconTrash } from '@tabler/icons-react';
import { CONSUMER_CATEGORIES, isConsumerGood } from '@marketcraft/shared';
import { AddToStoreDialog, type ShelfCandidate, type StoreChoice } from '../../components/AddToStoreDialog';
import { useFieldText } from '../../components/NumberField';
import { QueryState } from '../../components/QueryState';
import { ScrollBox } from '../../components/ScrollBox';
import { checkStorePrice } from '../../lib/formChecks';
import { formatMoney, formatWholeDollars } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc, type RouterOutputs } from '../../trpc';
import { PurchaseDialog, type PurchaseTarget } from './dialogs';

type Building = RouterOutputs['buildings']['get'];
type ShelfProduct = RouterOutputs['stores']['products'][number];
type Holding = RouterOutputs['warehouse']['holdings']['items'][number];

/** Trade hall purchases default to 10 units (spec section 9). */
const DEFAULT_TRADE_HALL_QUANTITY = 10;

const percent = (value: number | null) => (value === null ? 'N/A' : `${value > 0 ? '+' : ''}${value.toFixed(1)}%`);
const onError = (error: unknown) => notifyFailure('Error', error, 'Something went wrong. Please try again.');

/** One product this store can shelve: its back-room units and the warehouse's. */
export interface StockLine {
  productId: number;
  productName: string;
  category: string;
  backRoom: Holding | null;
  warehouse: Holding | null;
  inStore: boolean;
}

function stockLinesForStore(holdings: readonly Holding[], storeId: number): StockLine[] {
  const lines = new Map<number, StockLine>();
  const lineOf = (holding: Holding) => {
    let line = lines.get(holding.product_id);
    if (!line) {
      line = { productId: holding.product_id, productName: holding.product_name, category: holding.category, backRoom: null, warehouse: null, inStore: false };
      lines.set(holding.product_id, line);
    }
    return line;
  };
  for (const holding of holdings) {
    if (holding.location === 'warehouse') lineOf(holding).warehouse = holding;
    else if (holding.store?.building_id === storeId) {
      if (holding.location === 'back_room') lineOf(holding).backRoom = holding;
      else if (holding.location === 'shelf') lineOf(holding).inStore = true;
    }
  }
  return [...lines.values()].filter((line) => line.backRoom || line.warehouse);
}

function ShelfRow({ storeId, product }: { storeId: number; product: ShelfProduct }) {
  const price = useFieldText(product.retail_price.toFixed(2));
  const update = trpc.stores.updatePrice.useMutation({ onSuccess: () => notifySuccess('Price updated!'), onError });
  const toggle = trpc.stores.toggle.useMutation({ onSuccess: () => notifySuccess('Product status updated!'), onError });
  const remove = trpc.stores.remove.useMutation({ onSuccess: () => notifySuccess('Product removed from store!'), onError });
  const checked = checkStorePrice({ id: storeId, product_id: product.product_id, retail_price: price.text });
  // As in 'Add Product to Store': a price under the cost is allowed, but each sale's loss is said.
  const lossPerUnitCents = checked.ok ? Math.round(product.cost_price * 100) - Math.round(checked.request.retail_price * 100) : 0;
  const save = () => {
    // Sent when the player leaves the field with a valid price that differs (spec section 5).
    if (checked.ok && checked.request.retail_price !== product.retail_price) update.mutate(checked.request);
  };
  return (
    // Inactive products are marked by a dashed border and their badge, not dimmed (dimming fails contrast).
    <Card withBorder padding="sm" style={product.is_active ? undefined : { borderStyle: 'dashed' }} data-inactive={product.is_active ? undefined : true}>
      <Group justify="space-between" wrap="nowrap" mb={6}>
        <Text fw={600} size="sm" truncate>
          {product.product_name}
        </Text>
        <Badge color={product.is_active ? 'green' : 'gray'} variant="light" style={{ flexShrink: 0 }}>
          {product.is_active ? 'Active' : 'Inactive'}
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing={6}>
        <TextInput
          label="Price"
          aria-label={`Retail price of ${product.product_name}`}
          size="xs"
          value={price.text}
          onChange={(event) => price.set(event.currentTarget.value)}
          onBlur={save}
          onKeyDown={(event) => event.key === 'Enter' && save()}
          error={price.touched ? checked.errors.retail_price : undefined}
          leftSection="$"
          inputMode="decimal"
        />
        <Text size="xs">
          Cost
          <br />
          <b>{formatMoney(product.cost_price)}</b>
        </Text>
        <Text size="xs">
          Markup
          <br />
          <b>{percent(product.markup_percent)}</b>
        </Text>
        <Text size="xs">
          Market
          <br />
          <b>{product.market_price === null ? 'N/A' : formatMoney(product.market_price)}</b>
          {product.vs_market_percent !== null && (
            <Text span size="xs" c={product.vs_market_percent > 0 ? 'orange' : 'green'}>
              {' '}
              ({percent(product.vs_market_percent)})
            </Text>
          )}
        </Text>
      </SimpleGrid>
      {lossPerUnitCents > 0 && (
        <Text size="xs" c="orange" mt={4} role="status" data-testid="shelf-row-below-cost">
          Below its cost of {formatMoney(product.cost_price)}: each unit sold loses {formatMoney(lossPerUnitCents / 100)}.
        </Text>
      )}
      <Group justify="space-between" mt={6}>
        <Text size="xs" c="dimmed">
          {product.quantity} in stock · demand {product.demand_level ?? 'N/A'}/100 · sold last turn {product.units_sold_last_turn}
        </Text>
        <Group gap={4}>
          <Tooltip label={product.is_active ? 'Take off sale' : 'Put on sale'}>
            <ActionIcon
              variant="light"
              aria-label={product.is_active ? `Deactivate ${product.product_name}` : `Activate ${product.product_name}`}
              onClick={() => toggle.mutate({ id: storeId, product_id: product.product_id, is_active: !product.is_active })}
              disabled={toggle.isPending}
            >
              {product.is_active ? <IconEyeOff size={16} /> : <IconEye size={16} />}
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Remove from store">
            <ActionIcon
              variant="light"
              color="red"
              aria-label={`Remove ${product.product_name}`}
              onClick={() => remove.mutate({ id: storeId, product_id: product.product_id })}
              disabled={remove.isPending}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </Card>
  );
}

function StockCard({ line, onAdd }: { line: StockLine; onAdd: () => void }) {
  const parts = [
    line.backRoom &&
      `${line.backRoom.quantity.toLocaleString('en-US')} in the back room (avg ${formatMoney(line.backRoom.average_cost)}, ${formatMoney(line.backRoom.cost_value)})`,
    line.warehouse &&
      `${line.warehouse.quantity.toLocaleString('en-US')} in your warehouse (avg ${formatMoney(line.warehouse.average_cost)}, ${formatMoney(line.warehouse.cost_value)})`,
  ].filter(Boolean);
  return (
    <Card withBorder padding="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div>
          <Group gap={6}>
            <Text fw={600} size="sm">
              {line.productName}
            </Text>
            {line.inStore && (
              <Badge size="xs" color="grape" variant="light">
                In Store
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {parts.join(' · ')}
          </Text>
        </div>
        {isConsumerGood(line.category) ? (
          <Button size="xs" onClick={onAdd} aria-label={`Add to Store: ${line.productName}`}>
            Add to Store
          </Button>
        ) : (
          <Text size="xs" c="dimmed">
            Stores sell consumer goods only
          </Text>
        )}
      </Group>
    </Card>
  );
}

export function TradeHall({ building, cash }: { building: Building; cash: number }) {
  // A store sells consumer goods only: its Trade Hall offers those (its own category first when it is one).
  const [category, setCategory] = useState<string | null>(
    building.selected_category && isConsumerGood(building.selected_category) ? building.selected_category : CONSUMER_CATEGORIES[0]!,
  );
  const [purchaseTarget, setPurchaseTarget] = useState<PurchaseTarget | null>(null);
  const [addLine, setAddLine] = useState<StockLine | null>(null);
  // Stock is bought on the exchange (its price for one unit now); the city's data says what shoppers here expect to pay.
  const market = trpc.catalog.cityMarketData.useQuery({ id: building.city_id });
  const goods = trpc.catalog.goods.useQuery();
  const buyPriceOf = new Map((goods.data ?? []).map((good) => [good.id, good.buy_price]));
  const holdings = trpc.warehouse.holdings.useQuery();
  const shelf = trpc.stores.products.useQuery({ id: building.id });
  const purchase = trpc.buildings.purchaseInventory.useMutation({
    onSuccess: () => {
      notifySuccess('Products purchased successfully!');
      setPurchaseTarget(null);
    },
    onError: (error) => notifyFailure('Error', error, 'Insufficient funds'),
  });

  const lines = stockLinesForStore(holdings.data?.items ?? [], building.id);
  const stocked = new Set(lines.map((line) => line.productId));
  const forSale = (shelf.data ?? []).filter((product) => product.is_active && product.quantity > 0).length;
  const storeLabel = `${building.name} in ${building.city_name}`;
  const addItem: ShelfCandidate | null = addLine && {
    productId: addLine.productId,
    productName: addLine.productName,
    averageCost: (addLine.backRoom ?? addLine.warehouse)?.average_cost ?? 0,
  };
  const addStores: StoreChoice[] = addLine
    ? [
        {
          id: building.id,
          label: storeLabel,
          cityId: building.city_id,
          cityName: building.city_name,
          available: (addLine.backRoom?.quantity ?? 0) + (addLine.warehouse?.quantity ?? 0),
        },
      ]
    : [];

  return (
    <Stack gap="md">
      <Group gap="xs">
        <Badge size="lg" variant="light" color="green" tt="none">
          Cash: {formatWholeDollars(cash)}
        </Badge>
        <Badge size="lg" variant="light" tt="none" data-testid="trade-hall-items">
          {lines.length} items
        </Badge>
        <Badge size="lg" variant="light" color="grape" tt="none" data-testid="trade-hall-for-sale">
          {forSale} for sale
        </Badge>
      </Group>
      <Tabs defaultValue="purchase" keepMounted={false} variant="pills">
        <Tabs.List mb="md">
          <Tabs.Tab value="purchase">Purchase</Tabs.Tab>
          <Tabs.Tab value="inventory">Inventory</Tabs.Tab>
          <Tabs.Tab value="store">Store</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="purchase">
          <Select label="Category" data={[...CONSUMER_CATEGORIES]} value={category} onChange={setCategory} mb="sm" maw={320} allowDeselect={false} />
          <QueryState query={market}>
            {(data) => {
              const products = data.filter((product) => product.category === category);
              if (products.length === 0) return <Text c="dimmed">No products found in this category.</Text>;
              return (
                <ScrollBox maxHeight={600} label="Products on the market">
                  <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
                    {products.map((product) => (
                      <Card key={product.product_id} withBorder padding="sm">
                        <Group justify="space-between" wrap="nowrap">
                          <Text fw={600} size="sm" truncate>
                            {product.product_name}
                          </Text>
                          {stocked.has(product.product_id) && (
                            <Badge size="xs" color="green" variant="light" style={{ flexShrink: 0 }}>
                              In stock
                            </Badge>
                          )}
                        </Group>
                        <Text size="sm">Buy at {buyPriceOf.has(product.product_id) ? formatMoney(buyPriceOf.get(product.product_id)) : '...'}</Text>
                        <Text size="xs" c="dimmed">
                          Shoppers here expect {formatMoney(product.market_price)} · demand {product.demand_level}/100
                        </Text>
                        <Button
                          size="xs"
                          mt="xs"
                          variant="light"
                          aria-label={`Purchase ${product.product_name}`}
                          onClick={() =>
                            setPurchaseTarget({ productId: product.product_id, productName: product.product_name, quantity: DEFAULT_TRADE_HALL_QUANTITY })
                          }
                        >
                          Purchase
                        </Button>
                      </Card>
                    ))}
                  </SimpleGrid>
                </ScrollBox>
              );
            }}
          </QueryState>
        </Tabs.Panel>
        <Tabs.Panel value="inventory">
          <QueryState
            query={holdings}
            isEmpty={() => lines.length === 0}
            empty="No inventory yet. Purchase products here, or make them in your buildings: their output lands in your warehouse."
          >
            {() => (
              <Stack gap="xs">
                {lines.map((line) => (
                  <StockCard key={line.productId} line={line} onAdd={() => setAddLine(line)} />
                ))}
              </Stack>
            )}
          </QueryState>
        </Tabs.Panel>
        <Tabs.Panel value="store">
          <QueryState query={shelf} empty="Nothing on the shelf yet. Add products from the Inventory tab.">
            {(products) => (
              <Stack gap="xs">
                {products.map((product) => (
                  <ShelfRow key={`${product.product_id}-${product.retail_price}`} storeId={building.id} product={product} />
                ))}
              </Stack>
            )}
          </QueryState>
        </Tabs.Panel>
      </Tabs>

      <PurchaseDialog
        title="Purchase Product"
        buildingId={building.id}
        target={purchaseTarget}
        cash={cash}
        pending={purchase.isPending}
        onClose={() => setPurchaseTarget(null)}
        onConfirm={(request) => purchase.mutate(request)}
      />
      <AddToStoreDialog item={addItem} stores={addStores} onClose={() => setAddLine(null)} />
    </Stack>
  );
}
