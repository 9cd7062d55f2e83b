/**
 * The share speculator, with a friendly company it controls (founded with it; the two are measured
 * together, so value moved between them counts for nothing). Three plays the old game paid for:
 * - new listings: buys about $50,000 of every newly founded company's shares the week it appears
 *   and sells them back 4 weeks later;
 * - pump and dump: every 6 weeks buys about $100,000 of one company's shares (the newest listing:
 *   an idle company whose value does not move by itself), pushing the price up the curve, and sells
 *   them all the next week;
 * - swaps: every 6 weeks it and its friend each buy about $50,000 of the other's shares, and both
 *   sell them back 2 weeks later.
 */
import { sql } from 'drizzle-orm';
import { act } from '@marketcraft/db';
import { attempt, type Strategy, type StrategyContext } from './common.ts';

const NEW_LISTING_CENTS = 5_000_000;
const PUMP_CENTS = 10_000_000;
const SWAP_CENTS = 5_000_000;

interface Position {
  holder: number;
  issuer: number;
  shares: number;
  sellWeek: number;
  play: string;
}

export function speculatorStrategy(): Strategy {
  const positions: Position[] = [];
  const seen = new Set<number>();
  let startWeek: number | null = null;
  const plays = new Map<string, number>();

  async function sharePriceCents(ctx: StrategyContext, issuer: number): Promise<number> {
    const [row] = await ctx.db.execute<{ price: number }>(sql`select share_price_cents as price from share_records where company_id = ${issuer}`);
    return Number(row?.price ?? 0);
  }

  async function buy(ctx: StrategyContext, holder: number, issuer: number, cents: number, sellWeek: number, play: string): Promise<void> {
    const price = await sharePriceCents(ctx, issuer);
    if (price <= 0) return;
    const shares = Math.max(1, Math.floor(cents / price));
    const trade = await attempt(ctx, `${play} buy`, () =>
      act(ctx.db, 'tradeShares', { companyId: holder, actingUserId: null, input: { company_id: issuer, shares, action: 'buy' } }),
    );
    if (trade) {
      positions.push({ holder, issuer, shares, sellWeek, play });
      plays.set(play, (plays.get(play) ?? 0) + 1);
    }
  }

  return {
    name: 'share speculator',
    kind: 'shares',
    partners: 1,
    figures: () => Object.fromEntries([...plays].map(([play, count]) => [`${play} plays`, String(count)])),
    play: async (ctx, week) => {
      startWeek ??= week;
      const me = ctx.companyId;
      const friend = ctx.partnerIds[0]!;
      // Sell what is due (a refusal, e.g. an issuer short of cash, is retried next week).
      for (const position of positions.filter((item) => item.sellWeek <= week)) {
        const sold = await attempt(ctx, `${position.play} sell`, () =>
          act(ctx.db, 'tradeShares', {
            companyId: position.holder,
            actingUserId: null,
            input: { company_id: position.issuer, shares: position.shares, action: 'sell' },
          }),
        );
        if (sold) positions.splice(positions.indexOf(position), 1);
      }
      for (const issuer of ctx.newcomers()) {
        if (seen.has(issuer)) continue;
        seen.add(issuer);
        await buy(ctx, me, issuer, NEW_LISTING_CENTS, week + 4, 'new listing');
      }
      const age = week - startWeek;
      const latest = ctx.newcomers().at(-1);
      if (age % 6 === 1 && latest !== undefined) await buy(ctx, me, latest, PUMP_CENTS, week + 1, 'pump and dump');
      if (age % 6 === 3) {
        await buy(ctx, me, friend, SWAP_CENTS, week + 2, 'swap');
        await buy(ctx, friend, me, SWAP_CENTS, week + 2, 'swap');
      }
    },
  };
}
