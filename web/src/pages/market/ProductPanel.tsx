/**
 * One product on the market (GET /api/market/products/{id}): buy and sell it (the quantity checked
 * as typed, what the order costs or pays before it is sent), its price over the weeks, its price in
 * each city, and where it comes from and goes: the recipes that make it and the ones that use it.
 */
import { lazy, Suspense } from 'react';
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { NumberField, useFieldText } from '../../components/NumberField';
import { OrderSummary } from '../../components/OrderSummary';
import { PageLoader } from '../../components/FullScreenLoader';
import { QueryState } from '../../components/QueryState';
import { ScrollBox } from '../../components/ScrollBox';
import { TableScroll } from '../../components/TableScroll';
import { useMarketQuote } from '../../hooks/useOrderQuote';
import { checkMarketTrade, moreThanHeld } from '../../lib/formChecks';
import { formatMoney, formatPercentChange } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc, type RouterOutputs } from '../../trpc';
import { ExchangePanel } from './ExchangePanel';

const WeeklyLineChart = lazy(() => import('../../components/charts/WeeklyLineChart'));

type ProductDetail = RouterOutputs['market']['product'];
type RecipeStep = ProductDetail['made_by'][number];

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

function TradeForm({ product, cash }: { product: ProductDetail; cash: number | null }) {
  const quantity = useFieldText(0);
  const trade = trpc.market.trade.useMutation({
    onSuccess: (result) => {
      notifySuccess(result.action === 'buy' ? 'Purchased!' : 'Sold!', `${result.quantity.toLocaleString('en-US')} units of ${result.product_name}`);
      quantity.reset(0);
    },
    onError: (error) => notifyFailure('Trade failed', error, 'Insufficient funds or inventory'),
  });
  // The server's own request schema, as the player types ('Please enter a quantity greater than 0').
  const checked = checkMarketTrade({ product_id: product.id, quantity: quantity.text, action: 'buy' });
  const units = checked.ok ? checked.request.quantity : null;
  const buyQuote = useMarketQuote(product.id, units, 'buy');
  const sellQuote = useMarketQuote(product.id, units !== null && units <= product.held ? units : null, 'sell');
  const submit = (action: 'buy' | 'sell') => {
    if (checked.ok) trade.mutate({ ...checked.request, action });
  };
  return (
    <Stack gap="xs">
      <Group gap="xs" align="flex-start" wrap="wrap">
        <NumberField label="Quantity" field={quantity} error={checked.errors.quantity} w={150} disabled={trade.isPending} />
        <Button
          mt={25}
          onClick={() => submit('buy')}
          disabled={trade.isPending || buyQuote.quote === null || cash === null || buyQuote.quote.total > cash}
          aria-label={`Buy ${product.name}`}
        >
          {trade.isPending && trade.variables?.action === 'buy' ? 'Buying...' : 'Buy'}
        </Button>
        <Button
          mt={25}
          variant="light"
          color="orange"
          onClick={() => submit('sell')}
          disabled={trade.isPending || units === null || units > product.held}
          aria-label={`Sell ${product.name}`}
        >
          {trade.isPending && trade.variables?.action === 'sell' ? 'Selling...' : 'Sell'}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        You hold {product.held.toLocaleString('en-US')} in your warehouse.
      </Text>
      <OrderSummary quote={buyQuote} cash={cash ?? undefined} verb="Buying costs" testId="buy-total" />
      {product.held > 0 && <OrderSummary quote={sellQuote} verb="Selling pays" testId="sell-total" />}
      {units !== null && product.held > 0 && moreThanHeld(units, product.held) && (
        <Text size="xs" c="dimmed">
          You can sell at most {product.held.toLocaleString('en-US')}.
        </Text>
      )}
    </Stack>
  );
}

function RecipeLine({ step, productId, onSelect }: { step: RecipeStep; productId: number; onSelect: (id: number) => void }) {
  const product = (id: number, name: string, quantity: number) =>
    id === productId ? (
      <Text span fw={700} size="sm">
        {quantity} {name}
      </Text>
    ) : (
      <Anchor component="button" type="button" size="sm" onClick={() => onSelect(id)} underline="always">
        {quantity} {name}
      </Anchor>
    );
  return (
    <Group gap={6} wrap="wrap" align="center">
      <Badge variant="light" color="gray" tt="none">
        {step.building_name}
      </Badge>
      {step.inputs.length === 0 ? (
        <Text size="sm" c="dimmed">
          from nature
        </Text>
      ) : (
        step.inputs.map((input, index) => (
          <span key={input.product_id}>
            {index > 0 && ' + '}
            {product(input.product_id, input.product_name, input.quantity)}
          </span>
        ))
      )}
      <IconArrowRight size={14} aria-label="makes" role="img" />
      {product(step.output_product_id, step.output_product_name, step.output_quantity)}
      <Text span size="xs" c="dimmed">
        a week
      </Text>
    </Group>
  );
}

export function ProductPanel({ productId, cash, onSelect }: { productId: number; cash: number | null; onSelect: (id: number) => void }) {
  const detail = trpc.market.product.useQuery({ id: productId });
  return (
    <QueryState query={detail}>
      {(product) => (
        <Stack gap="md">
          <Card withBorder padding="lg">
            <Group justify="space-between" wrap="nowrap" align="flex-start" mb="xs">
              <div style={{ minWidth: 0 }}>
                <Title order={2} fz="xl">
                  {product.name}
                </Title>
                <Text size="sm" c="dimmed">
                  {product.category} · {product.subcategory}
                </Text>
              </div>
              {product.change_percent !== null && (
                // Never squeezed: on a phone it was cut to "+2.54% this ..." (the name wraps instead).
                <Badge
                  variant="light"
                  color={product.change_percent > 0 ? 'green' : product.change_percent < 0 ? 'red' : 'gray'}
                  tt="none"
                  style={{ flexShrink: 0 }}
                >
                  {formatPercentChange(product.change_percent)} this week
                </Badge>
              )}
            </Group>
            <SimpleGrid cols={{ base: 3 }} spacing="xs" mb="md">
              <Figure label="Buy at" value={formatMoney(product.buy_price)} testId="product-buy-price" />
              <Figure label="Sell at" value={formatMoney(product.sell_price)} testId="product-sell-price" />
              <Figure label="Base price" value={formatMoney(product.base_price)} />
            </SimpleGrid>
            <TradeForm key={product.id} product={product} cash={cash} />
          </Card>

          <ExchangePanel key={`exchange-${product.id}`} productId={product.id} held={product.held} cash={cash} />

          <Card withBorder padding="lg">
            <Title order={3} fz="md" mb="sm">
              Price History
            </Title>
            {product.history.length < 2 ? (
              <Text size="sm" c="dimmed">
                {formatMoney(product.current_price)} this week. Prices are recorded every turn: the chart starts after the first one.
              </Text>
            ) : (
              <Suspense fallback={<PageLoader />}>
                <WeeklyLineChart
                  points={product.history}
                  series={[{ name: 'price', label: 'Price', color: 'blue.6' }]}
                  label={`Weekly price of ${product.name}`}
                />
              </Suspense>
            )}
          </Card>

          <Card withBorder padding="lg">
            <Title order={3} fz="md" mb="sm">
              Made From and Into
            </Title>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
              Made by
            </Text>
            <Stack gap={6} mb="sm" data-testid="made-by">
              {product.made_by.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No building makes it: buy it on the market.
                </Text>
              ) : (
                product.made_by.map((step) => <RecipeLine key={step.recipe_id} step={step} productId={product.id} onSelect={onSelect} />)
              )}
            </Stack>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
              Used by
            </Text>
            <Stack gap={6} data-testid="used-by">
              {product.used_by.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No recipe uses it: it sells to shoppers in stores.
                </Text>
              ) : (
                product.used_by.map((step) => <RecipeLine key={step.recipe_id} step={step} productId={product.id} onSelect={onSelect} />)
              )}
            </Stack>
          </Card>

          <Card withBorder padding="lg">
            <Title order={3} fz="md" mb={4}>
              Price in Each City
            </Title>
            <Text size="xs" c="dimmed" mb="sm">
              What shoppers pay in stores there, how much they want it (demand out of 100), the stores selling it, and the shoppers a week no store served last
              week: where a new store has room.
            </Text>
            {product.cities.length === 0 ? (
              <Text size="sm" c="dimmed">
                No city trades it.
              </Text>
            ) : (
              <ScrollBox maxHeight={320} label={`Prices of ${product.name} by city`}>
                <TableScroll minWidth={480} label={`Prices of ${product.name} by city`}>
                  <Table striped verticalSpacing={4}>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>City</Table.Th>
                        <Table.Th ta="right">Price</Table.Th>
                        <Table.Th ta="right">Demand</Table.Th>
                        <Table.Th ta="right">Stores</Table.Th>
                        <Table.Th ta="right">Unserved a week</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {product.cities.map((city) => (
                        <Table.Tr key={city.city_id}>
                          <Table.Td>
                            {city.city_name}
                            <Text span size="xs" c="dimmed">
                              {' '}
                              {city.country_name}
                            </Text>
                          </Table.Td>
                          <Table.Td ta="right">{formatMoney(city.market_price)}</Table.Td>
                          <Table.Td ta="right">{city.demand_level}</Table.Td>
                          <Table.Td ta="right">{city.stores_selling}</Table.Td>
                          <Table.Td ta="right" title={`${city.weekly_demand} a week at this price, ${city.sold_last_week} sold by stores last week`}>
                            {city.unserved_demand}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </TableScroll>
              </ScrollBox>
            )}
          </Card>
        </Stack>
      )}
    </QueryState>
  );
}
