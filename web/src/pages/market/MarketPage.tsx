/** Market (spec sections 2, 4, 5, 8): search, category filter, product cards with Buy/Sell. */
import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { Badge, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { PRODUCT_CATEGORIES } from '@marketcraft/shared';
import { CashBadge } from '../../components/CashBadge';
import { ScrollBox } from '../../components/ScrollBox';
import { PageLoader } from '../../components/FullScreenLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { usePageMeta } from '../../hooks/usePageMeta';
import { formatMoney, formatPercentChange } from '../../lib/format';
import { notifyError, notifyFailure, notifySuccess } from '../../lib/notify';
import { checkMarketTrade } from '../../lib/formChecks';
import { parseWholeQuantity } from '../../lib/quantity';
import { trpc, type RouterOutputs } from '../../trpc';

type Good = RouterOutputs['catalog']['goods'][number];

function ProductCard({ good, held }: { good: Good; held: number }) {
  const queryClient = useQueryClient();
  const [quantity, setQuantity] = useState(0);
  const trade = trpc.market.trade.useMutation({
    onSuccess: (_result, input) => {
      notifySuccess(input.action === 'buy' ? 'Purchased!' : 'Sold!', `${Number(input.quantity).toLocaleString("en-US")} units of ${good.name}`);
      setQuantity(0);
      void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.company) });
      void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.catalog) });
      void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.news) });
    },
    onError: (error) => notifyFailure('Trade failed', error, 'Insufficient funds or inventory'),
  });

  const submit = (action: 'buy' | 'sell') => {
    // The server's own request schema (spec section 5 message: 'Invalid quantity').
    const checked = checkMarketTrade({ product_id: good.id, quantity, action });
    if (!checked.ok) return notifyError(checked.error.title, checked.error.message);
    trade.mutate(checked.request);
  };

  const change = good.price_change_percent;
  // What the order would cost or pay now: the market's own quote (the curve walked, the spread).
  const buyQuote = trpc.market.quote.useQuery({ product_id: good.id, quantity, action: 'buy' }, { enabled: quantity > 0 });
  const sellQuote = trpc.market.quote.useQuery({ product_id: good.id, quantity, action: 'sell' }, { enabled: quantity > 0 });
  return (
    <Card withBorder padding="sm" data-testid={`product-card-${good.id}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text fw={600} size="sm" truncate>
            {good.name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {good.category} · {good.subcategory}
          </Text>
        </div>
        {held > 0 && (
          <Badge size="sm" variant="light" style={{ flexShrink: 0 }}>
            {held.toLocaleString('en-US')} held
          </Badge>
        )}
      </Group>
      <Group gap="xs" my="xs" align="baseline">
        <Text fw={800} fz="lg">
          {formatMoney(good.current_price)}
        </Text>
        <Text size="sm" fw={600} c={change > 0 ? 'green' : change < 0 ? 'red' : 'dimmed'}>
          {formatPercentChange(change)}
        </Text>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <NumberInput
          aria-label={`Quantity of ${good.name}`}
          value={quantity}
          onChange={(value) => setQuantity(parseWholeQuantity(value))}
          min={0}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          size="xs"
          w={90}
          disabled={trade.isPending}
        />
        <Button size="xs" onClick={() => submit('buy')} disabled={trade.isPending} aria-label={`Buy ${good.name}`}>
          Buy
        </Button>
        <Button size="xs" variant="light" color="orange" onClick={() => submit('sell')} disabled={trade.isPending || quantity > held || held === 0} aria-label={`Sell ${good.name}`}>
          Sell
        </Button>
      </Group>
      {quantity > 0 && (
        <Text size="xs" c="dimmed" mt={6} data-testid="trade-preview">
          Buy for {buyQuote.data ? formatMoney(buyQuote.data.total) : '...'} · sell for {sellQuote.data ? formatMoney(sellQuote.data.total) : '...'}
        </Text>
      )}
    </Card>
  );
}

export default function MarketPage() {
  usePageMeta('Market', 'Buy raw materials and sell goods at market prices.');
  const goods = trpc.catalog.goods.useQuery();
  const inventory = trpc.catalog.inventory.useQuery();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string | null>(null);

  const heldById = useMemo(() => new Map((inventory.data ?? []).map((item) => [item.product_id, item.quantity])), [inventory.data]);
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (goods.data ?? []).filter(
      (good) =>
        (!category || good.category === category) &&
        (!needle || good.name.toLowerCase().includes(needle) || good.subcategory.toLowerCase().includes(needle)),
    );
  }, [goods.data, search, category]);

  return (
    <>
      <PageHeader title="Market" subtitle="Buy at the current price; selling pays the current price less 5%" actions={<CashBadge />} />
      <Stack gap="md">
        <Group gap="sm" wrap="wrap">
          <TextInput
            placeholder="Search products..."
            aria-label="Search products"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            style={{ flex: '1 1 220px' }}
          />
          <Select
            aria-label="Category"
            placeholder="All categories"
            data={[...PRODUCT_CATEGORIES]}
            value={category}
            onChange={setCategory}
            clearable
            style={{ flex: '0 1 220px' }}
          />
        </Group>
        {goods.isPending ? (
          <PageLoader />
        ) : goods.isError ? (
          <QueryError error={goods.error} onRetry={() => void goods.refetch()} />
        ) : shown.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            No products found in this category.
          </Text>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {shown.length} products
            </Text>
            <ScrollBox maxHeight={600}>
              <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="sm">
                {shown.map((good) => (
                  <ProductCard key={good.id} good={good} held={heldById.get(good.id) ?? 0} />
                ))}
              </SimpleGrid>
            </ScrollBox>
          </>
        )}
      </Stack>
    </>
  );
}
