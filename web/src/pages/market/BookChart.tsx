/**
 * A product's published curves (GET /api/exchange/books/{id}): total demand (players' bids and the
 * market maker's) falling and total supply rising, as steps over the units, with the indicative
 * price where they cross. Lazy: it pulls in recharts.
 */
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Text } from '@mantine/core';
import { formatMoney } from '../../lib/format';
import type { RouterOutputs } from '../../trpc';
import { bookWindow } from './bookWindow';

type Book = RouterOutputs['exchange']['book'];
type Level = { price: number; quantity: number };

/** Each price's total: the players' units at that price or better plus the maker's there (both cumulative, from the API). */
function total(players: Level[], maker: Level[], side: 'buy' | 'sell'): Level[] {
  const prices = [...new Set([...players, ...maker].map((level) => level.price))].sort((a, b) => (side === 'buy' ? b - a : a - b));
  const at = (levels: Level[], price: number) =>
    levels.filter((level) => (side === 'buy' ? level.price >= price : level.price <= price)).reduce((most, level) => Math.max(most, level.quantity), 0);
  return prices.map((price) => ({ price, quantity: at(players, price) + at(maker, price) }));
}

export default function BookChart({ book }: { book: Book }) {
  const demand = total(book.bids, book.maker.bids, 'buy');
  const supply = total(book.asks, book.maker.asks, 'sell');
  if (demand.length === 0 && supply.length === 0) return null;
  const view = bookWindow(book.posted_price, book.indicative_price, [...demand, ...supply]);
  return (
    <div
      role="figure"
      aria-label={`Demand and supply of ${book.product_name} this week${book.indicative_price === null ? '' : `, crossing at ${formatMoney(book.indicative_price)}`}`}
    >
      <ResponsiveContainer width="100%" height={260}>
        <LineChart margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            type="number"
            dataKey="quantity"
            name="Units"
            allowDuplicatedCategory={false}
            tickFormatter={(value: number) => value.toLocaleString('en-US')}
            domain={view.maxUnits > 0 ? [0, view.maxUnits] : [0, 'auto']}
            allowDataOverflow
          />
          <YAxis
            type="number"
            dataKey="price"
            name="Price"
            tickFormatter={(value: number) => formatMoney(value)}
            width={72}
            domain={view.maxPrice > 0 ? [0, view.maxPrice] : [0, 'auto']}
            allowDataOverflow
          />
          <Tooltip formatter={(value) => (typeof value === 'number' ? formatMoney(value) : String(value ?? ''))} />
          <Legend />
          <Line data={demand} dataKey="price" name="Demand" type="stepAfter" stroke="var(--mantine-color-blue-6)" dot={false} />
          <Line data={supply} dataKey="price" name="Supply" type="stepAfter" stroke="var(--mantine-color-orange-6)" dot={false} />
          {book.indicative_price !== null && (
            <ReferenceLine
              y={book.indicative_price}
              stroke="var(--mantine-color-green-7)"
              strokeDasharray="4 4"
              label={`Indicative ${formatMoney(book.indicative_price)}`}
            />
          )}
        </LineChart>
      </ResponsiveContainer>
      {view.clipped && (
        <Text size="xs" c="dimmed">
          Orders priced below {formatMoney(view.lowPrice)} or above {formatMoney(view.highPrice)}, far from the market, are off the chart; they still count in
          the auction.
        </Text>
      )}
    </div>
  );
}
