/**
 * What an order will cost (or pay) before the player confirms: the API's quote for the typed
 * quantity (hooks/useOrderQuote.ts), a warning when it is more than the cash at hand, and the
 * API's refusal when the market cannot take the order. Nothing shows while the quantity is not
 * valid, so a wrong quantity never shows a wrong total.
 */
import { Group, Loader, Stack, Text } from '@mantine/core';
import { errorMessage } from '../lib/errors';
import { formatMoney } from '../lib/format';
import type { OrderQuote, QuoteState } from '../hooks/useOrderQuote';
import { WhyThisNumber } from './WhyThisNumber';

export function OrderSummary({
  quote,
  cash,
  verb = 'Total',
  testId = 'order-total',
}: {
  /** A quote, or the state of one being fetched. */
  quote: OrderQuote | QuoteState | null;
  /** Buying: the cash at hand (the total turns red above it). */
  cash?: number;
  verb?: string;
  testId?: string;
}) {
  const state: QuoteState = quote && 'pending' in quote ? quote : { quote: quote as OrderQuote | null, pending: false, error: null };
  if (state.error) {
    return (
      <Text size="sm" c="red" data-testid={testId} role="alert">
        {errorMessage(state.error, 'The market cannot quote this order.')}
      </Text>
    );
  }
  if (!state.quote) {
    return state.pending ? (
      <Group gap={6} data-testid={testId}>
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Asking the market...
        </Text>
      </Group>
    ) : null;
  }
  quote = state.quote;
  const short = cash !== undefined && quote.total > cash;
  // A curve-priced order's unit price is its total over the quantity, rounded to the cent: 20 x $9.23
  // would read $184.60 beside a total of $184.56, so an inexact one says it is an average.
  const exact = Math.round(quote.unitPrice * 100) * quote.quantity === Math.round(quote.total * 100);
  return (
    <Stack gap={2} data-testid={testId}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" c="dimmed">
          {quote.quantity.toLocaleString('en-US')} x {formatMoney(quote.unitPrice)}
          {exact ? '' : ' on average'}
        </Text>
        <Group gap={2} wrap="nowrap">
          <Text size="sm" fw={700} c={short ? 'red' : undefined}>
            {verb}: {formatMoney(quote.total)}
          </Text>
          {quote.why && <WhyThisNumber figure={quote.why} label={verb} />}
        </Group>
      </Group>
      {short && (
        <Text size="xs" c="red">
          More than your cash ({formatMoney(cash)}).
        </Text>
      )}
    </Stack>
  );
}
