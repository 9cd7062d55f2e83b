/**
 * A typed client for the Marketcraft API (docs/scripting.md, "The typed TypeScript client"):
 * openapi-fetch over the types openapi-typescript generates from the OpenAPI document
 * (src/schema.ts), so every path, query, body and answer is checked by the compiler.
 *
 *   const game = createMarketcraftClient({ baseUrl: 'http://localhost:3000', token: 'mc_pat_...' });
 *   const { data, error } = await game.GET('/market/quote', { params: { query: { product_id: 3, quantity: 5, action: 'buy' } } });
 *
 * A call over the rate limit (429) waits Retry-After seconds and is sent again; any other error is
 * the answer's `error` ({ error: message }), as openapi-fetch gives it.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.ts';

export type { paths, components, operations } from './schema.ts';
export type MarketcraftClient = Client<paths>;

export interface MarketcraftClientOptions {
  /** The game's address, e.g. http://localhost:3000 (the API is under /api). */
  baseUrl: string;
  /** A personal access token (mc_pat_...) from the Company Profile. */
  token: string;
  /** A class world to act in (X-World-Id); default the public world. */
  worldId?: number;
  /** Called before waiting out a 429 (default: nothing). */
  onRateLimited?: (seconds: number) => void;
}

export function createMarketcraftClient(options: MarketcraftClientOptions): MarketcraftClient {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
  if (options.worldId !== undefined) headers['x-world-id'] = String(options.worldId);
  /** fetch that waits out the rate limit (Retry-After) and sends the request again. */
  const patientFetch = async (request: Request): Promise<Response> => {
    for (;;) {
      const response = await fetch(request.clone());
      if (response.status !== 429) return response;
      const seconds = Number(response.headers.get('retry-after') ?? '5');
      options.onRateLimited?.(seconds);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  };
  return createClient<paths>({ baseUrl: `${options.baseUrl.replace(/\/$/, '')}/api`, headers, fetch: patientFetch });
}
