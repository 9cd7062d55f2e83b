/**
 * A product's exchange (docs/exchange.md): this week's published curves crossing at the indicative
 * price (GET /api/exchange/books/{id}), an order form that says what the order would hold and where
 * it stands against the indicative price, my orders of the product with their escrow (cancel), and
 * the past clearings (GET /api/exchange/auctions/{id}). Every figure is the API's, or the shared
 * fee rule's (exchangeFeeRule) for what an order would hold before it is sent.
 */
import { lazy, Suspense, useState } from 'react';
import { Badge, Button, Card, Group, SegmentedControl, Select, Stack, Table, Text, Title } from '@mantine/core';
import { exchangeFeeRule, EXCHANGE_FEE_BP } from '@marketcraft/shared';
import { NumberField, useFieldText } from '../../components/NumberField';
import { PageLoader } from '../../components/FullScreenLoader';
import { QueryState } from '../../components/QueryState';
import { TableScroll } from '../../components/TableScroll';
import { checkExchangeOrder } from '../../lib/formChecks';
import { formatMoney } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc, type RouterOutputs } from '../../trpc';

const BookChart = lazy(() => import('./BookChart'));

type Book = RouterOutputs['exchange']['book'];
type Order = RouterOutputs['exchange']['orders'][number];

const WEEK_CHOICES = ['1', '2', '3', '4', '5', '6', '7', '8'].map((value) => ({ value, label: value === '1' ? 'This week only' : `${value} weeks` }));

/**
 * Where an order at this limit would stand now: against the indicative price when the book trades,
 * else against the market maker's first offer (a buy) or bid (a sell), both from the API's book.
 */
function standing(book: Book, side: 'buy' | 'sell', limit: number): string {
  const indicative = book.indicative_price;
  if (indicative !== null) {
    return (side === 'buy' ? limit >= indicative : limit <= indicative)
      ? `Now it would fill at the indicative price, ${formatMoney(indicative)}.`
      : `Now it would not fill: the indicative price is ${formatMoney(indicative)}.`;
  }
  const maker = side === 'buy' ? book.maker.asks[0] : book.maker.bids[0];
  if (!maker) return 'Nothing would trade if the auction ran now.';
  return (side === 'buy' ? limit >= maker.price : limit <= maker.price)
    ? `Now it would fill: the market maker ${side === 'buy' ? 'sells from' : 'buys at up to'} ${formatMoney(maker.price)}.`
    : `Now it would not fill: nobody ${side === 'buy' ? 'sells' : 'buys'} at that price yet (the market maker ${side === 'buy' ? 'from' : 'up to'} ${formatMoney(maker.price)}).`;
}

function OrderForm({ book, held, cash }: { book: Book; held: number; cash: number | null }) {
  const [side, setSide] = useState<'buy' | 'sell'>('buy');
  const [weeks, setWeeks] = useState('1');
  const quantity = useFieldText('');
  const limit = useFieldText('');
  const place = trpc.exchange.placeOrder.useMutation({
    onSuccess: (order) => {
      notifySuccess(
        'Order placed',
        `${order.side === 'buy' ? 'Buy' : 'Sell'} ${order.quantity.toLocaleString('en-US')} ${order.product_name} at ${order.side === 'buy' ? 'up to' : 'at least'} ${formatMoney(order.limit_price)}`,
      );
      quantity.reset('');
      limit.reset('');
    },
    onError: (error) => notifyFailure('Order refused', error, 'The order could not be placed'),
  });
  const checked = checkExchangeOrder({ product_id: book.product_id, side, quantity: quantity.text, limit_price: limit.text, weeks: Number(weeks) });
  const request = checked.ok ? checked.request : null;
  // What it would hold: the limit x units plus the fee (exchangeFeeRule, the server's rule), or the units.
  const valueCents = request ? Math.round(request.limit_price * 100) * request.quantity : 0;
  const holdsCents = request ? valueCents + exchangeFeeRule.evaluate({ value: valueCents }) : 0;
  const tooMuch = request !== null && (side === 'buy' ? cash !== null && holdsCents / 100 > cash : request.quantity > held);
  return (
    <Stack gap="xs">
      <Group gap="xs" align="flex-end" wrap="wrap">
        <SegmentedControl
          value={side}
          onChange={(value) => setSide(value as 'buy' | 'sell')}
          data={[
            { value: 'buy', label: 'Buy' },
            { value: 'sell', label: 'Sell' },
          ]}
          aria-label="Side of the order"
        />
        <NumberField label="Units" field={quantity} error={checked.errors.quantity} w={120} disabled={place.isPending} />
        <NumberField
          label={side === 'buy' ? 'Up to (per unit)' : 'At least (per unit)'}
          field={limit}
          error={checked.errors.limit_price}
          w={150}
          disabled={place.isPending}
        />
        <Select label="For" data={WEEK_CHOICES} value={weeks} onChange={(value) => setWeeks(value ?? '1')} w={150} allowDeselect={false} />
        <Button onClick={() => request && place.mutate(request)} disabled={!request || tooMuch || place.isPending}>
          {place.isPending ? 'Placing...' : 'Place order'}
        </Button>
      </Group>
      {request && (
        <Text size="sm" data-testid="order-holds">
          {side === 'buy'
            ? `It holds ${formatMoney(holdsCents / 100)} of your cash until it fills, you cancel it or it expires (${request.quantity.toLocaleString('en-US')} x ${formatMoney(request.limit_price)} plus the ${EXCHANGE_FEE_BP / 100}% fee).`
            : `It takes ${request.quantity.toLocaleString('en-US')} units out of your warehouse (you hold ${held.toLocaleString('en-US')}) until it fills, you cancel it or it expires.`}{' '}
          {standing(book, side, request.limit_price)}
        </Text>
      )}
      {tooMuch && (
        <Text size="xs" c="red">
          {side === 'buy' ? 'Not enough cash for what this order would hold.' : `You hold ${held.toLocaleString('en-US')} in your warehouse.`}
        </Text>
      )}
    </Stack>
  );
}

function MyOrders({ productId }: { productId: number }) {
  const orders = trpc.exchange.orders.useQuery({ product_id: productId });
  const cancel = trpc.exchange.cancelOrder.useMutation({
    onSuccess: (order) => notifySuccess('Order cancelled', `Order #${order.id}: what it held is back in your cash and warehouse.`),
    onError: (error) => notifyFailure('Cancel failed', error, 'The order could not be cancelled'),
  });
  return (
    <QueryState query={orders} empty="You have no orders of this product.">
      {(list: Order[]) => (
        <TableScroll minWidth={560} label="Your orders of this product">
          <Table striped verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Order</Table.Th>
                <Table.Th ta="right">Filled</Table.Th>
                <Table.Th ta="right">Limit</Table.Th>
                <Table.Th ta="right">Holds</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((order) => {
                const live = order.status === 'open' || order.status === 'partially_filled';
                return (
                  <Table.Tr key={order.id}>
                    <Table.Td>
                      {order.side === 'buy' ? 'Buy' : 'Sell'} {order.quantity.toLocaleString('en-US')}
                      <Text span size="xs" c="dimmed">
                        {' '}
                        week {order.week_placed}
                        {order.expires_week > order.week_placed ? `-${order.expires_week}` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">
                      {order.filled_quantity.toLocaleString('en-US')}
                      {order.average_fill_price !== null && ` at ${formatMoney(order.average_fill_price)}`}
                    </Table.Td>
                    <Table.Td ta="right">{formatMoney(order.limit_price)}</Table.Td>
                    <Table.Td ta="right">{order.side === 'buy' ? formatMoney(order.escrow) : `${order.escrow_units.toLocaleString('en-US')} units`}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={live ? 'blue' : order.status === 'filled' ? 'green' : 'gray'} tt="none">
                        {order.status.replace('_', ' ')}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {live && (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          onClick={() => cancel.mutate({ id: order.id })}
                          disabled={cancel.isPending}
                          aria-label={`Cancel order ${order.id}`}
                        >
                          Cancel
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
    </QueryState>
  );
}

function Clearings({ productId }: { productId: number }) {
  const auctions = trpc.exchange.auctions.useQuery({ product_id: productId, weeks: 12 });
  return (
    <QueryState query={auctions} empty="No auction has cleared this product yet: the first clears at the next turn.">
      {(list) => (
        <TableScroll minWidth={420} label="Past clearings of this product">
          <Table striped verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Week</Table.Th>
                <Table.Th ta="right">Price</Table.Th>
                <Table.Th ta="right">Units</Table.Th>
                <Table.Th ta="right">Player to player</Table.Th>
                <Table.Th ta="right">Maker bought / sold</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...list].reverse().map((auction) => (
                <Table.Tr key={auction.week}>
                  <Table.Td>{auction.week}</Table.Td>
                  <Table.Td ta="right">{auction.price === null ? 'no trade' : formatMoney(auction.price)}</Table.Td>
                  <Table.Td ta="right">{auction.volume.toLocaleString('en-US')}</Table.Td>
                  <Table.Td ta="right">{auction.players_volume.toLocaleString('en-US')}</Table.Td>
                  <Table.Td ta="right">
                    {auction.maker_bought.toLocaleString('en-US')} / {auction.maker_sold.toLocaleString('en-US')}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
    </QueryState>
  );
}

/** The exchange card of a product's panel on the Market page. */
export function ExchangePanel({ productId, held, cash }: { productId: number; held: number; cash: number | null }) {
  const book = trpc.exchange.book.useQuery({ product_id: productId });
  return (
    <Card withBorder padding="lg" data-testid="exchange-panel">
      <Title order={3} fz="md" mb={4}>
        Weekly Auction
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        Orders of all players are collected all week and cleared by the turn at one price, with the market maker's schedule (docs: How the exchange works).
      </Text>
      <QueryState query={book}>
        {(current) => (
          <Stack gap="md">
            <Group gap="lg">
              <div>
                <Text size="xs" c="dimmed">
                  Indicative price (if the auction ran now)
                </Text>
                <Text fw={700} data-testid="indicative-price">
                  {current.indicative_price === null ? 'No trade' : formatMoney(current.indicative_price)}
                </Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  Units it would trade
                </Text>
                <Text fw={700} data-testid="indicative-volume">
                  {current.indicative_volume.toLocaleString('en-US')}
                </Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  Posted price
                </Text>
                <Text fw={700}>{formatMoney(current.posted_price)}</Text>
              </div>
            </Group>
            <Suspense fallback={<PageLoader />}>
              <BookChart book={current} />
            </Suspense>
            <OrderForm book={current} held={held} cash={cash} />
          </Stack>
        )}
      </QueryState>
      <Title order={4} fz="sm" mt="md" mb="xs">
        Your Orders
      </Title>
      <MyOrders productId={productId} />
      <Title order={4} fz="sm" mt="md" mb="xs">
        Past Clearings
      </Title>
      <Clearings productId={productId} />
    </Card>
  );
}
