/** Trade Hall of a store (spec section 2): Purchase, Inventory and Store tabs with their dialogs. */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { ActionIcon, Badge, Button, Card, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Tabs, Text, TextInput, Tooltip } from '@mantine/core';
import { IconEye, IconEyeOff, IconTrash } from '@tabler/icons-react';
import { PRODUCT_CATEGORIES, SUGGESTED_RETAIL_MARKUP } from '@marketcraft/shared';
import { PageLoader } from '../../components/FullScreenLoader';
import { QueryError } from '../../components/QueryError';
import { ScrollBox } from '../../components/ScrollBox';
import { checkStorePrice, checkTransferToStore } from '../../lib/formChecks';
import { formatMoney, formatWholeDollars } from '../../lib/format';
import { notifyError, notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc, type RouterOutputs } from '../../trpc';
import { PurchaseDialog, type PurchaseTarget } from './PurchaseDialog';

type Building = RouterOutputs['buildings']['get'];
type BackRoomItem = RouterOutputs['buildings']['inventory'][number];
type ShelfProduct = RouterOutputs['stores']['products'][number];

/** Trade hall purchases default to 10 units (spec section 9). */
const DEFAULT_TRADE_HALL_QUANTITY = 10;

const percent = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(1)}%`;

type TransferRequest = { id: number; product_id: number; quantity: number; retail_price: number };

function AddToStoreDialog({
  storeId,
  item,
  pending,
  onClose,
  onConfirm,
}: {
  storeId: number;
  item: BackRoomItem;
  pending: boolean;
  onClose: () => void;
  onConfirm: (request: TransferRequest) => void;
}) {
  const [quantity, setQuantity] = useState<number | string>(item.quantity);
  const [price, setPrice] = useState<number | string>(Math.round(item.purchase_price * SUGGESTED_RETAIL_MARKUP * 100) / 100);
  const confirm = () => {
    // The API's own schema: 'Please enter a valid quantity', then 'Please enter a valid price'. The
    // quantity is not held to what is available (spec section 5): the server answers that.
    const checked = checkTransferToStore({ id: storeId, product_id: item.product_id, quantity, retail_price: price });
    if (!checked.ok) return notifyError(checked.error.title, checked.error.message);
    onConfirm(checked.request);
  };
  return (
    <Modal opened onClose={onClose} title="Add Product to Store" centered>
      <Stack gap="sm">
        <Text fw={600}>{item.product_name}</Text>
        <NumberInput label="Quantity" description={`${item.quantity} available`} min={1} max={item.quantity} allowDecimal={false} value={quantity} onChange={setQuantity} />
        <NumberInput
          label="Retail price"
          description={`Suggested ${formatMoney(item.purchase_price * SUGGESTED_RETAIL_MARKUP)} (50% markup)`}
          min={0.01}
          decimalScale={2}
          prefix="$"
          value={price}
          onChange={setPrice}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={pending}>
            {pending ? 'Adding...' : 'Add to Store'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ShelfRow({ storeId, product }: { storeId: number; product: ShelfProduct }) {
  const queryClient = useQueryClient();
  const [price, setPrice] = useState(String(product.retail_price));
  // The shelf changes the building's forecast (buildings.get) too.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.stores) });
    void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.buildings.get) });
  };
  const onError = (error: unknown) => notifyFailure('Error', error, 'Something went wrong. Please try again.');
  const update = trpc.stores.updatePrice.useMutation({ onSuccess: () => (notifySuccess('Price updated!'), refresh()), onError });
  const toggle = trpc.stores.toggle.useMutation({ onSuccess: () => (notifySuccess('Product status updated!'), refresh()), onError });
  const remove = trpc.stores.remove.useMutation({
    onSuccess: () => {
      notifySuccess('Product removed from store!');
      refresh();
      void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.buildings.inventory) });
    },
    onError,
  });
  const markup = product.cost_price > 0 ? ((product.retail_price - product.cost_price) / product.cost_price) * 100 : 0;
  const vsMarket = product.market_price ? ((product.retail_price - product.market_price) / product.market_price) * 100 : null;
  const onBlur = () => {
    // Sent only if the API's schema takes it (a positive price) and it differs (spec section 5: no message).
    const checked = checkStorePrice({ id: storeId, product_id: product.product_id, retail_price: price });
    if (checked.ok && checked.request.retail_price !== product.retail_price) update.mutate(checked.request);
  };
  return (
    <Card withBorder padding="sm" opacity={product.is_active ? 1 : 0.55}>
      <Group justify="space-between" wrap="nowrap" mb={6}>
        <Text fw={600} size="sm" truncate>
          {product.product_name}
        </Text>
        <Badge color={product.is_active ? 'green' : 'gray'} variant="light" style={{ flexShrink: 0 }}>
          {product.is_active ? 'Active' : 'Inactive'}
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing={6}>
        <TextInput label="Price" aria-label={`Retail price of ${product.product_name}`} size="xs" value={price} onChange={(event) => setPrice(event.currentTarget.value)} onBlur={onBlur} leftSection="$" inputMode="decimal" />
        <Text size="xs">
          Cost
          <br />
          <b>{formatMoney(product.cost_price)}</b>
        </Text>
        <Text size="xs">
          Markup
          <br />
          <b>{percent(markup)}</b>
        </Text>
        <Text size="xs">
          Market
          <br />
          <b>{product.market_price === null ? 'N/A' : formatMoney(product.market_price)}</b>
          {vsMarket !== null && (
            <Text span size="xs" c={vsMarket > 0 ? 'orange' : 'green'}>
              {' '}
              ({percent(vsMarket)})
            </Text>
          )}
        </Text>
      </SimpleGrid>
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
            <ActionIcon variant="light" color="red" aria-label={`Remove ${product.product_name}`} onClick={() => remove.mutate({ id: storeId, product_id: product.product_id })} disabled={remove.isPending}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </Card>
  );
}

export function TradeHall({ building, cash }: { building: Building; cash: number }) {
  const queryClient = useQueryClient();
  const [category, setCategory] = useState<string | null>(building.selected_category ?? PRODUCT_CATEGORIES[0]);
  const [purchaseTarget, setPurchaseTarget] = useState<PurchaseTarget | null>(null);
  const [addItem, setAddItem] = useState<BackRoomItem | null>(null);
  const market = trpc.catalog.cityMarketData.useQuery({ id: building.city_id });
  const backRoom = trpc.buildings.inventory.useQuery({ id: building.id });
  const shelf = trpc.stores.products.useQuery({ id: building.id });

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.buildings.inventory) });
    void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.buildings.get) });
    void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.stores) });
    void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.company) });
  };
  const purchase = trpc.buildings.purchaseInventory.useMutation({
    onSuccess: () => {
      notifySuccess('Products purchased successfully!');
      setPurchaseTarget(null);
      refresh();
    },
    onError: (error) => notifyFailure('Error', error, 'Insufficient funds'),
  });
  const transfer = trpc.buildings.transferToStore.useMutation({
    onSuccess: () => {
      notifySuccess('Product added to store!');
      setAddItem(null);
      refresh();
    },
    onError: (error) => notifyFailure('Error', error, 'Could not add the product to the store'),
  });

  const stockIds = new Set((backRoom.data ?? []).map((item) => item.product_id));
  const products = (market.data ?? []).filter((product) => product.category === category);
  const forSale = (shelf.data ?? []).filter((product) => product.is_active).length;

  return (
    <Stack gap="md">
      <Group gap="xs">
        <Badge size="lg" variant="light" color="green" tt="none">
          Cash: {formatWholeDollars(cash)}
        </Badge>
        <Badge size="lg" variant="light" tt="none">
          {backRoom.data?.length ?? 0} items
        </Badge>
        <Badge size="lg" variant="light" color="grape" tt="none">
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
          <Select label="Category" data={[...PRODUCT_CATEGORIES]} value={category} onChange={setCategory} mb="sm" maw={320} allowDeselect={false} />
          {market.isPending ? (
            <PageLoader />
          ) : market.isError ? (
            <QueryError error={market.error} onRetry={() => void market.refetch()} />
          ) : products.length === 0 ? (
            <Text c="dimmed">No products found in this category.</Text>
          ) : (
            <ScrollBox maxHeight={600}>
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
                {products.map((product) => (
                  <Card key={product.product_id} withBorder padding="sm">
                    <Group justify="space-between" wrap="nowrap">
                      <Text fw={600} size="sm" truncate>
                        {product.product_name}
                      </Text>
                      {stockIds.has(product.product_id) && (
                        <Badge size="xs" color="green" variant="light" style={{ flexShrink: 0 }}>
                          In stock
                        </Badge>
                      )}
                    </Group>
                    <Text size="sm">{formatMoney(product.market_price)}</Text>
                    <Text size="xs" c="dimmed">
                      Demand {product.demand_level}/100
                    </Text>
                    <Button
                      size="xs"
                      mt="xs"
                      variant="light"
                      aria-label={`Purchase ${product.product_name}`}
                      onClick={() => setPurchaseTarget({ productId: product.product_id, productName: product.product_name, price: product.market_price, quantity: DEFAULT_TRADE_HALL_QUANTITY })}
                    >
                      Purchase
                    </Button>
                  </Card>
                ))}
              </SimpleGrid>
            </ScrollBox>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="inventory">
          {backRoom.isPending ? (
            <PageLoader />
          ) : backRoom.isError ? (
            <QueryError error={backRoom.error} onRetry={() => void backRoom.refetch()} />
          ) : backRoom.data.length === 0 ? (
            <Text c="dimmed">No inventory yet. Purchase products to stock your store.</Text>
          ) : (
            <Stack gap="xs">
              {backRoom.data.map((item) => (
                <Card key={item.product_id} withBorder padding="sm">
                  <Group justify="space-between" wrap="wrap" gap="xs">
                    <div>
                      <Group gap={6}>
                        <Text fw={600} size="sm">
                          {item.product_name}
                        </Text>
                        {item.in_store && (
                          <Badge size="xs" color="grape" variant="light">
                            In Store
                          </Badge>
                        )}
                      </Group>
                      <Text size="xs" c="dimmed">
                        {item.quantity} units · avg {formatMoney(item.purchase_price)} · total {formatMoney(item.quantity * item.purchase_price)}
                      </Text>
                    </div>
                    <Button size="xs" onClick={() => setAddItem(item)} aria-label={`Add to Store: ${item.product_name}`}>
                      Add to Store
                    </Button>
                  </Group>
                </Card>
              ))}
            </Stack>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="store">
          {shelf.isPending ? (
            <PageLoader />
          ) : shelf.isError ? (
            <QueryError error={shelf.error} onRetry={() => void shelf.refetch()} />
          ) : shelf.data.length === 0 ? (
            <Text c="dimmed">Nothing on the shelf yet. Add products from the Inventory tab.</Text>
          ) : (
            <Stack gap="xs">
              {shelf.data.map((product) => (
                <ShelfRow key={product.product_id} storeId={building.id} product={product} />
              ))}
            </Stack>
          )}
        </Tabs.Panel>
      </Tabs>

      {purchaseTarget && (
        <PurchaseDialog
          title="Purchase Product"
          buildingId={building.id}
          target={purchaseTarget}
          cash={cash}
          pending={purchase.isPending}
          onClose={() => setPurchaseTarget(null)}
          onConfirm={(request) => purchase.mutate(request)}
        />
      )}
      {addItem && (
        <AddToStoreDialog storeId={building.id} item={addItem} pending={transfer.isPending} onClose={() => setAddItem(null)} onConfirm={(request) => transfer.mutate(request)} />
      )}
    </Stack>
  );
}
