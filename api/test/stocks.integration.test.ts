import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { companies, ledgerMismatches, portfolioEntries, shareMismatches, shareRecords, stockPriceHistory, transactions, type Database } from '@marketcraft/db';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

let botCounter = 0;
async function createBot(db: Database, options: { totalShares?: number; priceCents?: number; name?: string } = {}) {
  botCounter += 1;
  const name = options.name ?? `Stock Bot ${botCounter} ${Math.random().toString(36).slice(2, 7)}`;
  const [bot] = await db
    .insert(companies)
    .values({ name, cashCents: 50_000_000, startingCashCents: 50_000_000, isBot: true, strategy: 'value_investor' })
    .returning({ id: companies.id });
  await db.insert(shareRecords).values({ companyId: bot!.id, totalShares: options.totalShares ?? 100, sharePriceCents: options.priceCents ?? 10_000 });
  return { id: bot!.id, name };
}

async function cashOf(db: Database, companyId: number): Promise<number> {
  const [row] = await db.select({ cash: companies.cashCents }).from(companies).where(eq(companies.id, companyId));
  return row!.cash;
}

async function sharesHeld(db: Database, holder: number, issuer: number): Promise<number> {
  const [row] = await db
    .select({ shares: portfolioEntries.sharesOwned })
    .from(portfolioEntries)
    .where(and(eq(portfolioEntries.holderCompanyId, holder), eq(portfolioEntries.issuerCompanyId, issuer)));
  return row?.shares ?? 0;
}

describe('stocks API', () => {
  let app: TestApp;
  let db: Database;
  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists share records with the spec fields and shares_available', async () => {
    const player = await app.createPlayer();
    const bot = await createBot(db, { totalShares: 100, priceCents: 12_345 });
    const response = await app.api('GET', '/shares', { token: player.token });
    expect(response.status).toBe(200);
    const record = response.body.find((row: { company_id: number }) => row.company_id === bot.id);
    expect(record).toMatchObject({ company_name: bot.name, is_bot: true, total_shares: 100, share_price: 123.45, last_dividend: 0, shares_available: 100 });
    expect(typeof record.updated_at).toBe('string');
    // The player's own company is listed too, with the spec's defaults (100 shares at $100).
    expect(response.body.find((row: { company_id: number }) => row.company_id === player.companyId)).toMatchObject({ total_shares: 100, share_price: 100, is_bot: false });
    const same = await app.api('GET', '/company-shares', { token: player.token });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(response.body);
  });

  it('buys and sells shares at the current price, ledgered, with the portfolio updated', async () => {
    const player = await app.createPlayer({ cash: 10_000 });
    const bot = await createBot(db, { priceCents: 25_000 });
    const buy = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 10, action: 'buy' } });
    expect(buy.status).toBe(200);
    expect(buy.body).toMatchObject({ action: 'buy', company_id: bot.id, company_name: bot.name, shares: 10, price: 250, total: 2500, shares_owned: 10, cash: 7500 });

    const portfolio = await app.api('GET', '/portfolio', { token: player.token });
    expect(portfolio.status).toBe(200);
    expect(portfolio.body).toEqual([
      { company_id: bot.id, company_name: bot.name, is_bot: true, shares_owned: 10, average_price: 250, current_price: 250, value: 2500 },
    ]);
    const shares = await app.api('GET', '/shares', { token: player.token });
    expect(shares.body.find((row: { company_id: number }) => row.company_id === bot.id).shares_available).toBe(90);

    // The price moves (turn engine); selling pays the new price.
    await db.update(shareRecords).set({ sharePriceCents: 30_000 }).where(eq(shareRecords.companyId, bot.id));
    const sell = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 4, action: 'sell' } });
    expect(sell.body).toMatchObject({ action: 'sell', shares: 4, price: 300, total: 1200, shares_owned: 6, cash: 8700 });
    const sellAll = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: '6', action: 'sell' } });
    expect(sellAll.body).toMatchObject({ shares_owned: 0, cash: 10_500 });
    expect((await app.api('GET', '/portfolio', { token: player.token })).body).toEqual([]);

    const ledger = await db.select({ type: transactions.type, amount: transactions.amountCents, description: transactions.description }).from(transactions).where(eq(transactions.companyId, player.companyId));
    expect(ledger.map((row) => row.amount)).toEqual([-250_000, 120_000, 180_000]);
    expect(ledger.every((row) => row.type === 'stock_trade')).toBe(true);
    expect(ledger[0]!.description).toBe(`Bought 10 shares of ${bot.name} at $250.00`);
    expect(await cashOf(db, bot.id)).toBe(50_000_000); // the market, not the issuer, is the counterparty
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('refuses trades that break the rules with precise messages, changing nothing', async () => {
    const player = await app.createPlayer({ cash: 1_000 });
    const bot = await createBot(db, { totalShares: 50, priceCents: 10_000 });
    const other = await app.createPlayer({ cash: 100_000 });
    expect((await app.api('POST', '/stocks/trade', { token: other.token, body: { company_id: bot.id, shares: 45, action: 'buy' } })).status).toBe(200);

    const tooMany = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 6, action: 'buy' } });
    expect(tooMany).toMatchObject({ status: 409, body: { error: `Only 5 shares of ${bot.name} are available` } });
    expect((await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 5, action: 'buy' } })).status).toBe(200);
    const soldOut = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 1, action: 'buy' } });
    expect(soldOut).toMatchObject({ status: 409, body: { error: `Only 0 shares of ${bot.name} are available` } });
    const oversell = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 6, action: 'sell' } });
    expect(oversell).toMatchObject({ status: 409, body: { error: `You own only 5 shares of ${bot.name}` } });
    const unowned = await createBot(db);
    const sellUnowned = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: unowned.id, shares: 1, action: 'sell' } });
    expect(sellUnowned).toMatchObject({ status: 409, body: { error: `You own only 0 shares of ${unowned.name}` } });
    await db.update(shareRecords).set({ isListed: false }).where(eq(shareRecords.companyId, unowned.id));
    const delisted = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: unowned.id, shares: 1, action: 'buy' } });
    expect(delisted).toMatchObject({ status: 422, body: { error: `${unowned.name} is no longer listed on the stock exchange` } });
    const self = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: player.companyId, shares: 1, action: 'buy' } });
    expect(self).toMatchObject({ status: 422, body: { error: "You cannot trade your own company's shares" } });
    const unknown = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: 99_999_999, shares: 1, action: 'buy' } });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'No company found with id 99999999' } });
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('answers not enough cash with the costs and the cash', async () => {
    const player = await app.createPlayer({ cash: 150 });
    const bot = await createBot(db, { priceCents: 10_000 });
    const response = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 2, action: 'buy' } });
    expect(response).toMatchObject({ status: 409, body: { error: 'Not enough cash: this costs $200.00 and you have $150.00' } });
    expect(await cashOf(db, player.companyId)).toBe(15_000);
  });

  it('validates the trade body (400) and needs a session (401)', async () => {
    const player = await app.createPlayer();
    const bot = await createBot(db);
    const cases: unknown[] = [
      {},
      { company_id: bot.id, shares: 0, action: 'buy' },
      { company_id: bot.id, shares: -3, action: 'buy' },
      { company_id: bot.id, shares: 1.5, action: 'buy' },
      { company_id: bot.id, shares: 'ten', action: 'buy' },
      { company_id: bot.id, shares: 1, action: 'hold' },
      { company_id: 'abc', shares: 1, action: 'buy' },
      { company_id: bot.id, shares: 1e12, action: 'buy' },
    ];
    for (const body of cases) {
      const response = await app.api('POST', '/stocks/trade', { token: player.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.body.error).toBe('string');
    }
    expect((await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 0, action: 'buy' } })).body.error).toMatch(/shares/);
    expect((await app.api('POST', '/stocks/trade', { body: { company_id: bot.id, shares: 1, action: 'buy' } })).status).toBe(401);
    for (const path of ['/shares', '/company-shares', '/portfolio', '/stock-prices', `/stocks/history?company_id=${bot.id}`]) {
      expect((await app.api('GET', path)).status, path).toBe(401);
    }
  });

  it('reports stock prices with the previous price and change, and the history oldest first', async () => {
    const player = await app.createPlayer();
    const bot = await createBot(db, { priceCents: 11_000 });
    const quiet = await createBot(db, { priceCents: 5_000 });
    await db.insert(stockPriceHistory).values([
      { companyId: bot.id, week: 1, priceCents: 10_000 },
      { companyId: bot.id, week: 2, priceCents: 8_000 },
      { companyId: bot.id, week: 3, priceCents: 11_000 },
    ]);
    const prices = await app.api('GET', '/stock-prices', { token: player.token });
    expect(prices.status).toBe(200);
    expect(prices.body.find((row: { company_id: number }) => row.company_id === bot.id)).toEqual({
      company_id: bot.id,
      company_name: bot.name,
      is_bot: true,
      week: 3,
      price: 110,
      previous_price: 80,
      change_percent: 37.5,
    });
    expect(prices.body.find((row: { company_id: number }) => row.company_id === quiet.id)).toMatchObject({ price: 50, previous_price: null, change_percent: 0, week: null });
    expect(prices.body[0].company_id).toBe(bot.id); // biggest mover first

    const history = await app.api('GET', `/stocks/history?company_id=${bot.id}`, { token: player.token });
    expect(history).toMatchObject({ status: 200, body: [{ week: 1, price: 100 }, { week: 2, price: 80 }, { week: 3, price: 110 }] });
    expect((await app.api('GET', '/stocks/history?company_id=99999999', { token: player.token })).status).toBe(404);
    expect((await app.api('GET', '/stocks/history?company_id=abc', { token: player.token })).status).toBe(400);
    expect((await app.api('GET', '/stocks/history', { token: player.token })).status).toBe(400);
  });

  it('50 parallel buys that together exceed the float and the cash never oversell or overdraw', async () => {
    const bot = await createBot(db, { totalShares: 100, priceCents: 10_000 });
    // Five buyers with $3,000 each, 10 parallel buys of 3 shares ($300) each: the float (100) runs out
    // before the cash of all of them (5 x 10 shares = 150 wanted), and each buyer's cash covers 10.
    const buyers = await Promise.all(Array.from({ length: 5 }, () => app.createPlayer({ cash: 3_000 })));
    const requests = buyers.flatMap((buyer) =>
      Array.from({ length: 10 }, () => app.api('POST', '/stocks/trade', { token: buyer.token, body: { company_id: bot.id, shares: 3, action: 'buy' } })),
    );
    const responses = await Promise.all(requests);
    const succeeded = responses.filter((response) => response.status === 200).length;
    expect(responses.every((response) => response.status === 200 || response.status === 409)).toBe(true);
    expect(succeeded).toBe(33); // floor(100 / 3)
    let held = 0;
    for (const buyer of buyers) {
      const cash = await cashOf(db, buyer.companyId);
      const shares = await db
        .select({ shares: portfolioEntries.sharesOwned })
        .from(portfolioEntries)
        .where(eq(portfolioEntries.holderCompanyId, buyer.companyId));
      const owned = shares[0]?.shares ?? 0;
      held += owned;
      expect(cash).toBeGreaterThanOrEqual(0);
      expect(cash).toBe(300_000 - owned * 10_000);
    }
    expect(held).toBe(99);
    expect(await shareMismatches(db)).toEqual([]);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('50 parallel buys by one player that exceed the cash leave cash >= 0', async () => {
    const bot = await createBot(db, { totalShares: 1_000, priceCents: 10_000 });
    const player = await app.createPlayer({ cash: 2_050 });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 1, action: 'buy' } })),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(20);
    expect(responses.filter((response) => response.status === 409).every((response) => response.body.error.startsWith('Not enough cash'))).toBe(true);
    expect(await cashOf(db, player.companyId)).toBe(5_000);
    expect(await sharesHeld(db, player.companyId, bot.id)).toBe(20);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('50 parallel sells of the same holding never sell more than owned', async () => {
    const bot = await createBot(db, { totalShares: 100, priceCents: 10_000 });
    const player = await app.createPlayer({ cash: 5_000 });
    expect((await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 10, action: 'buy' } })).status).toBe(200);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 3, action: 'sell' } })),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(3);
    const refused = responses.filter((response) => response.status !== 200);
    expect(refused).toHaveLength(47);
    expect(refused.every((response) => response.status === 409 && response.body.error.startsWith('You own only'))).toBe(true);
    // Every success is one stock_sell ledger row of 3 x $100.
    const sells = await db
      .select({ amount: transactions.amountCents })
      .from(transactions)
      .where(and(eq(transactions.companyId, player.companyId), eq(transactions.reason, 'stock_sell')));
    expect(sells.map((row) => row.amount)).toEqual([30_000, 30_000, 30_000]);
    expect(await sharesHeld(db, player.companyId, bot.id)).toBe(1);
    expect(await cashOf(db, player.companyId)).toBe(500_000 - 100_000 + 90_000);
    expect(await ledgerMismatches(db)).toEqual([]);
  });
});
