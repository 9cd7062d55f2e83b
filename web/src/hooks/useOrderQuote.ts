/**
 * The price of an order before it is sent, always from the API: the exchange's quote for goods
 * (GET /api/market/quote: the price curve walked by the whole order, plus the spread) and for shares
 * (GET /api/stocks/quote). The web never computes a market price itself. Fixed prices (hiring) use
 * the game's rule for them (shared `hireCost`).
 */
import type { Figure } from '@marketcraft/shared';
import { trpc } from '../trpc';

export interface OrderQuote {
  quantity: number;
  /** Average dollars per unit of the order. */
  unitPrice: number;
  total: number;
  /** How the total comes about, when the API says ("why this number"). */
  why?: Figure;
}

export interface QuoteState {
  /** Null while the quantity is not valid, or the answer is on its way. */
  quote: OrderQuote | null;
  pending: boolean;
  /** The API's refusal (an order too large for the market, ...). */
  error: unknown;
}

/** A goods order's quote; `quantity` null (the typed text is not a valid quantity): none. */
export function useMarketQuote(productId: number, quantity: number | null, action: 'buy' | 'sell'): QuoteState {
  const query = trpc.market.quote.useQuery(
    { product_id: productId, quantity: quantity ?? 1, action },
    { enabled: quantity !== null && quantity > 0, placeholderData: (previous) => (previous?.quantity === quantity ? previous : undefined) },
  );
  const data = quantity !== null && query.data?.quantity === quantity ? query.data : null;
  return {
    quote: data ? { quantity: data.quantity, unitPrice: data.unit_price, total: data.total, why: data.why } : null,
    pending: quantity !== null && query.isFetching,
    error: quantity !== null ? query.error : null,
  };
}

/** A share order's quote; `shares` null: none. */
export function useShareQuote(companyId: number, shares: number | null, action: 'buy' | 'sell', enabled = true): QuoteState {
  const query = trpc.stocks.quote.useQuery({ company_id: companyId, shares: shares ?? 1, action }, { enabled: enabled && shares !== null && shares > 0 });
  const data = shares !== null && query.data?.shares === shares ? query.data : null;
  return {
    quote: data ? { quantity: data.shares, unitPrice: data.price, total: data.total, why: data.why } : null,
    pending: shares !== null && query.isFetching,
    error: shares !== null ? query.error : null,
  };
}

/** A fixed price per unit (hiring: `hireCost`), in whole cents. */
export function fixedPriceQuote(unitPrice: number, quantity: number | null): OrderQuote | null {
  if (quantity === null) return null;
  return { quantity, unitPrice, total: (Math.round(unitPrice * 100) * quantity) / 100 };
}
