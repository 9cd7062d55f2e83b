/**
 * The call auction's price and shares (db/src/game/exchange/auction.ts, docs/exchange.md): one
 * price maximising the volume, ties by least imbalance then nearest the posted price, pro rata at
 * the margin, and the market maker's standing schedule so a lone order still fills; and no round
 * trip between the instant market, the auction and contracts pays (the same week or the next).
 */
import { describe, expect, it } from 'vitest';
import { MARKET_HALF_SPREAD_BP, exchangeFeeRule, goodsBuyCostRule, marketSellProceedsRule, nextMarketPriceRule } from '@marketcraft/shared';
import { clearAuction, cumulativeLevels, makerDemandAt, makerSupplyAt, type AuctionBook } from '../src/game/exchange/auction.ts';

function book(bids: [number, number][], asks: [number, number][], maker: AuctionBook['maker'] = null): AuctionBook {
  return {
    productId: 1,
    bids: bids.map(([priceCents, quantity]) => ({ priceCents, quantity })),
    asks: asks.map(([priceCents, quantity]) => ({ priceCents, quantity })),
    maker,
  };
}

describe('the call auction', () => {
  it('clears players alone at the price that trades the most (the worked example of docs/exchange.md)', () => {
    // Bids: 30 at $12, 50 at $11, 40 at $10. Asks: 20 at $9, 40 at $10.50, 60 at $11.50.
    const clearing = clearAuction(
      book(
        [
          [1200, 30],
          [1100, 50],
          [1000, 40],
        ],
        [
          [900, 20],
          [1050, 40],
          [1150, 60],
        ],
      ),
    );
    // From $10.50 to $11.00: demand 80, supply 60: volume 60 (at $11.01 to $11.49 demand is 30, at
    // $10.49 supply 20). Unbalanced: the crossing price, $11.00, the highest price with supply 60
    // below demand 80 (at $11.01 supply would meet demand: 60 against 30).
    expect(clearing).toMatchObject({ priceCents: 1100, volume: 60, rationed: 'buy', demand: 80, supply: 60 });
    // The bids above $11 (30) fill in full; the 50 at exactly $11 share the other 30.
    expect(clearing.marginPlayers).toBe(30);
  });

  it('breaks ties by the least imbalance, then by the price nearest the posted price', () => {
    // 10 wanted up to $10, 10 offered from $8: any price from $8 to $10 trades 10 with no imbalance.
    // A maker with a depth of 1 unit far from there: it trades nothing at these prices, only its posted price counts.
    const thin = (priceCents: number) => ({ priceCents, depth: 1, flow: 0, marginBp: 0 });
    expect(makerSupplyAt(thin(950), 1000) + makerDemandAt(thin(950), 800)).toBe(0);
    expect(clearAuction(book([[1000, 10]], [[800, 10]], thin(950)))).toMatchObject({ volume: 10, priceCents: 950 });
    expect(clearAuction(book([[1000, 10]], [[800, 10]], thin(5000)))).toMatchObject({ volume: 10, priceCents: 1000 });
    // No posted price to be near: the lowest of them.
    expect(clearAuction(book([[1000, 10]], [[800, 10]]))).toMatchObject({ volume: 10, priceCents: 800 });
    // Least imbalance first: at $8.00 demand 15 meets supply 10; from $8.01 to $10 demand 10 meets supply 10.
    expect(
      clearAuction(
        book(
          [
            [1000, 10],
            [800, 5],
          ],
          [[800, 10]],
          thin(700),
        ),
      ),
    ).toMatchObject({ volume: 10, priceCents: 801 });
    expect(
      clearAuction(
        book(
          [
            [1000, 10],
            [800, 5],
          ],
          [[800, 10]],
          thin(850),
        ),
      ),
    ).toMatchObject({ volume: 10, priceCents: 850 });
  });

  it('does not trade when the best bid is below the best ask', () => {
    expect(clearAuction(book([[900, 10]], [[1000, 10]]))).toMatchObject({ priceCents: null, volume: 0 });
  });

  it("fills a lone order against the maker's schedule, never better than its curve", () => {
    const maker = { priceCents: 1000, depth: 1000, flow: 0, marginBp: 0 };
    const ask = 1000 * (1 + MARKET_HALF_SPREAD_BP / 10_000);
    const clearing = clearAuction(book([[1200, 50]], [], maker));
    expect(clearing.volume).toBe(50);
    expect(clearing.makerSold).toBe(50);
    // The lowest price at which the maker offers 50: its 50th unit on the curve, P e^(50/D) (1 + h).
    expect(clearing.priceCents!).toBeGreaterThanOrEqual(Math.floor(ask * Math.exp(50 / 1000)));
    expect(clearing.priceCents!).toBeLessThanOrEqual(Math.ceil(ask * Math.exp(50 / 1000)) + 1);
    expect(makerSupplyAt(maker, clearing.priceCents!)).toBeGreaterThanOrEqual(50);
    // A bid below the maker's bid side trades nothing with a lone buyer; a lone seller is bought from.
    const seller = clearAuction(book([], [[800, 30]], maker));
    expect(seller).toMatchObject({ volume: 30, makerBought: 30 });
    expect(makerDemandAt(maker, seller.priceCents!)).toBeGreaterThanOrEqual(30);
    expect(seller.priceCents!).toBeLessThan(1000 * (1 - MARKET_HALF_SPREAD_BP / 10_000));
  });

  it('publishes cumulative curves: bids high to low, asks low to high, equal prices merged', () => {
    expect(
      cumulativeLevels(
        [
          { priceCents: 1000, quantity: 5 },
          { priceCents: 1200, quantity: 3 },
          { priceCents: 1000, quantity: 2 },
        ],
        'buy',
      ),
    ).toEqual([
      { priceCents: 1200, quantity: 3 },
      { priceCents: 1000, quantity: 10 },
    ]);
    expect(
      cumulativeLevels(
        [
          { priceCents: 1000, quantity: 5 },
          { priceCents: 900, quantity: 1 },
        ],
        'sell',
      ),
    ).toEqual([
      { priceCents: 900, quantity: 1 },
      { priceCents: 1000, quantity: 6 },
    ]);
  });

  it('over random books: the volume at the price is the most any price trades, and the shares add up to it', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round += 1) {
      const levels = (n: number) => Array.from({ length: n }, () => [800 + Math.floor(random() * 400), 1 + Math.floor(random() * 50)] as [number, number]);
      const maker = { priceCents: 900 + Math.floor(random() * 200), depth: 50 + Math.floor(random() * 500), flow: Math.floor(random() * 40) - 20, marginBp: 0 };
      const b = book(levels(1 + Math.floor(random() * 6)), levels(1 + Math.floor(random() * 6)), maker);
      const clearing = clearAuction(b);
      const volumeAt = (p: number) => {
        const d = b.bids.filter((l) => l.priceCents >= p).reduce((s, l) => s + l.quantity, 0) + makerDemandAt(maker, p);
        const s = b.asks.filter((l) => l.priceCents <= p).reduce((s2, l) => s2 + l.quantity, 0) + makerSupplyAt(maker, p);
        return Math.min(d, s);
      };
      for (let p = 700; p <= 1400; p += 1) expect(volumeAt(p)).toBeLessThanOrEqual(clearing.volume === 0 ? volumeAt(p) : clearing.volume);
      if (clearing.priceCents !== null) {
        const p = clearing.priceCents;
        expect(volumeAt(p)).toBe(clearing.volume);
        // The rationed side: the orders better than the price fill in full within the volume, and the players at the price share what is left.
        const playersAt = (side: 'buy' | 'sell') => (side === 'buy' ? b.bids : b.asks).filter((l) => l.priceCents === p).reduce((s2, l) => s2 + l.quantity, 0);
        expect(clearing.marginPlayers).toBeGreaterThanOrEqual(0);
        if (clearing.rationed) expect(clearing.marginPlayers).toBeLessThanOrEqual(playersAt(clearing.rationed));
        const playersBought =
          b.bids.filter((l) => l.priceCents > p).reduce((s2, l) => s2 + l.quantity, 0) +
          (clearing.rationed === 'buy' ? clearing.marginPlayers : playersAt('buy'));
        const playersSold =
          b.asks.filter((l) => l.priceCents < p).reduce((s2, l) => s2 + l.quantity, 0) +
          (clearing.rationed === 'sell' ? clearing.marginPlayers : playersAt('sell'));
        // Every unit bought was sold: players' and the maker's shares add up to the volume on both sides.
        expect(playersBought + clearing.makerBought).toBe(clearing.volume);
        expect(playersSold + clearing.makerSold).toBe(clearing.volume);
      }
    }
  });

  it('clears a book of single orders as the book of their price levels: the turn reads every order, several at one limit add up', () => {
    let seed = 23;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round += 1) {
      const levels = (n: number) =>
        Array.from({ length: n }, (_, index) => [800 + index * 25 + Math.floor(random() * 20), 2 + Math.floor(random() * 50)] as [number, number]);
      // Each level as 1-3 orders (their units adding up to it), in a shuffled order.
      const orders = (of: [number, number][]) =>
        of
          .flatMap(([price, units]) => {
            const first = Math.floor(random() * units);
            return first > 0 ? [[price, first] as [number, number], [price, units - first] as [number, number]] : [[price, units] as [number, number]];
          })
          .map((order) => ({ order, key: random() }))
          .sort((a, b) => a.key - b.key)
          .map(({ order }) => order);
      const maker = { priceCents: 900 + Math.floor(random() * 200), depth: 50 + Math.floor(random() * 500), flow: Math.floor(random() * 40) - 20, marginBp: 0 };
      const bids = levels(1 + Math.floor(random() * 8));
      const asks = levels(1 + Math.floor(random() * 8));
      const bySingleOrders = book(orders(bids), orders(asks), maker);
      expect(clearAuction(bySingleOrders)).toEqual(clearAuction(book(bids, asks, maker)));
      expect(cumulativeLevels(bySingleOrders.bids, 'buy')).toEqual(cumulativeLevels(book(bids, [], maker).bids, 'buy'));
      expect(cumulativeLevels(bySingleOrders.asks, 'sell')).toEqual(cumulativeLevels(book([], asks, maker).asks, 'sell'));
    }
  });

  it('no round trip between the instant market and the auction pays (random markets, the maker the only counterparty)', () => {
    let seed = 99;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const fee = (value: number) => exchangeFeeRule.evaluate({ value });
    for (let round = 0; round < 300; round += 1) {
      const maker = {
        priceCents: 50 + Math.floor(random() * 20_000),
        depth: 100 + Math.floor(random() * 5_000),
        flow: 0,
        marginBp: random() < 0.3 ? 2_000 : 0,
      };
      maker.flow = Math.floor((random() - 0.5) * maker.depth);
      const q = 1 + Math.floor(random() * Math.min(500, maker.depth));
      const curve = (flow: number) => ({ price: maker.priceCents, depth: maker.depth, flow, quantity: q });
      // 1. Buy q in the auction (a bid far above), then sell them at once to the market.
      const bought = clearAuction({ productId: 1, bids: [{ priceCents: maker.priceCents * 100, quantity: q }], asks: [], maker });
      expect(bought.volume).toBe(q);
      const paid = q * bought.priceCents! + fee(q * bought.priceCents!);
      expect(marketSellProceedsRule.evaluate(curve(maker.flow + q))).toBeLessThan(paid);
      // 2. Buy q on the instant market, then sell them in the auction (an ask at a cent).
      const cost = goodsBuyCostRule.evaluate({ ...curve(maker.flow), marginBp: maker.marginBp });
      const sold = clearAuction({ productId: 1, bids: [], asks: [{ priceCents: 1, quantity: q }], maker: { ...maker, flow: maker.flow + q } });
      const received = sold.volume * (sold.priceCents ?? 0) - fee(sold.volume * (sold.priceCents ?? 0));
      expect(received).toBeLessThan(cost);
      // 3. Buy q in one auction, sell them in the next (the flow as the purchase left it).
      const resold = clearAuction({ productId: 1, bids: [], asks: [{ priceCents: 1, quantity: q }], maker: { ...maker, flow: maker.flow + q } });
      expect(resold.volume * (resold.priceCents ?? 0) - fee(resold.volume * (resold.priceCents ?? 0))).toBeLessThan(paid);
    }
  });

  it('no round trip through a contract pays either: two companies buy on one side, pass the goods by contract at any price, sell on the other (same week or next)', () => {
    let seed = 2_026;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const fee = (value: number) => exchangeFeeRule.evaluate({ value });
    type Maker = NonNullable<AuctionBook['maker']>;
    /** Buys q from the maker (instant: its curve; auction: a bid far above, at the clearing price plus the fee); the cost and the maker's flow after. */
    const buyFrom = (how: 'instant' | 'auction', maker: Maker, q: number) => {
      if (how === 'instant') {
        return {
          cost: goodsBuyCostRule.evaluate({ price: maker.priceCents, depth: maker.depth, flow: maker.flow, quantity: q, marginBp: maker.marginBp }),
          flow: maker.flow + q,
        };
      }
      const clearing = clearAuction({ productId: 1, bids: [{ priceCents: maker.priceCents * 100, quantity: q }], asks: [], maker });
      expect(clearing.volume).toBe(q);
      return { cost: q * clearing.priceCents! + fee(q * clearing.priceCents!), flow: maker.flow + q };
    };
    /** Sells q to the maker (instant: its curve; auction: an ask at a cent, the clearing price less the fee). */
    const sellTo = (how: 'instant' | 'auction', maker: Maker, q: number) => {
      if (how === 'instant') return marketSellProceedsRule.evaluate({ price: maker.priceCents, depth: maker.depth, flow: maker.flow, quantity: q });
      const clearing = clearAuction({ productId: 1, bids: [], asks: [{ priceCents: 1, quantity: q }], maker });
      expect(clearing.volume).toBe(q);
      return q * clearing.priceCents! - fee(q * clearing.priceCents!);
    };
    for (let round = 0; round < 400; round += 1) {
      const maker: Maker = {
        priceCents: 50 + Math.floor(random() * 20_000),
        depth: 100 + Math.floor(random() * 5_000),
        flow: 0,
        marginBp: random() < 0.3 ? 2_000 : 0,
      };
      maker.flow = Math.floor((random() - 0.5) * maker.depth * 0.5);
      const q = 1 + Math.floor(random() * Math.min(500, maker.depth / 2));
      const buyVia = random() < 0.5 ? 'instant' : 'auction';
      const sellVia = random() < 0.5 ? 'instant' : 'auction';
      const nextWeek = random() < 0.5;
      // A contract between the two moves no flow and has no fee: the buyer pays what the seller gets, whatever the price agreed.
      const unitPrice = 1 + Math.floor(random() * maker.priceCents * 3);
      const contract = { sellerGets: q * unitPrice, buyerPays: q * unitPrice };
      // Company A buys from the maker and passes the goods to company B by contract.
      const bought = buyFrom(buyVia, maker, q);
      // B sells them back: this week (the flow as A's purchase left it) or next week (the posted price
      // moved by it, at the noise's expectation, drifting toward a base at this week's price; a new week's flow).
      const after: Maker = nextWeek
        ? {
            ...maker,
            priceCents: nextMarketPriceRule.evaluate({
              price: maker.priceCents,
              depth: maker.depth,
              flow: bought.flow,
              basePrice: maker.priceCents,
              targetPrice: maker.priceCents,
              noiseBp: 0,
            }),
            flow: 0,
          }
        : { ...maker, flow: bought.flow };
      const received = sellTo(sellVia, after, q);
      const companyA = contract.sellerGets - bought.cost;
      const companyB = received - contract.buyerPays;
      // Together they end where they began in goods, and poorer in cash: one of them may gain only what the other loses.
      expect(companyA + companyB, JSON.stringify({ maker, q, buyVia, sellVia, nextWeek, unitPrice })).toBeLessThan(0);
    }
  });
});
