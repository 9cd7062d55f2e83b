import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import {
  companies,
  ledgerMismatches,
  portfolioEntries,
  shareMismatches,
  shareRecords,
  stockPriceHistory,
  transactions,
  valuationSql,
  type Database,
  act,
  actTogether,
} from '@marketcraft/db';
import { formatCents, liquidationValueRule, marketBuyCostRule, marketSellProceedsRule, shareDepthRule } from '@marketcraft/shared';
import { untilAStatementWaitsForALock } from './helpers/lockWaits.ts';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

let botCounter = 0;
async function createBot(db: Database, options: { totalShares?: number; priceCents?: number; name?: string; cashCents?: number } = {}) {
  botCounter += 1;
  const name = options.name ?? `Stock Bot ${botCounter} ${Math.random().toString(36).slice(2, 7)}`;
  const cashCents = options.cashCents ?? 50_000_000;
  const [bot] = await db
    .insert(companies)
    .values({ worldId: 1, name, cashCents, startingCashCents: cashCents, isBot: true, strategy: 'value_investor' })
    .returning({ id: companies.id });
  const priceCents = options.priceCents ?? 10_000;
  await db
    .insert(shareRecords)
    .values({ worldId: 1, companyId: bot!.id, totalShares: options.totalShares ?? 100, sharePriceCents: priceCents, fundamentalCents: priceCents });
  return { id: bot!.id, name };
}

/** What the issuer charges for (buy) or pays for (sell) `shares` now, by the shared rules, from its share record. */
async function shareOrderCents(db: Database, issuerId: number, shares: number, action: 'buy' | 'sell'): Promise<number> {
  const [record] = await db
    .select({ price: shareRecords.sharePriceCents, total: shareRecords.totalShares, flow: shareRecords.weekFlow })
    .from(shareRecords)
    .where(eq(shareRecords.companyId, issuerId));
  const rule = action === 'buy' ? marketBuyCostRule : marketSellProceedsRule;
  return rule.evaluate({ price: record!.price, depth: shareDepthRule.evaluate({ totalShares: record!.total }), flow: record!.flow, quantity: shares });
}

async function netWorthCents(db: Database, companyId: number): Promise<number> {
  const [row] = await db.execute<{ net_worth_cents: number }>(sql`
    select net_worth_cents from ${valuationSql(sql`(select id as company_id, cash_cents from companies where id = ${companyId})`, { worldId: 1 })} v`);
  return Number(row!.net_worth_cents);
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

  it('lists share records with the spec fields, the book value per share and the price of one share to buy and to sell', async () => {
    const player = await app.createPlayer();
    const bot = await createBot(db, { totalShares: 100, priceCents: 12_345 });
    const response = await app.api('GET', '/shares', { token: player.token });
    expect(response.status).toBe(200);
    const record = response.body.find((row: { company_id: number }) => row.company_id === bot.id);
    expect(record).toMatchObject({
      company_name: bot.name,
      is_bot: true,
      total_shares: 100,
      share_price: 123.45,
      last_dividend: 0,
      book_value_per_share: 123.45,
      shares_held_by_companies: 0,
      buy_price: (await shareOrderCents(db, bot.id, 1, 'buy')) / 100,
      sell_price: (await shareOrderCents(db, bot.id, 1, 'sell')) / 100,
    });
    expect(record.buy_price).toBeGreaterThan(record.share_price);
    expect(record.sell_price).toBeLessThan(record.share_price);
    expect(typeof record.updated_at).toBe('string');
    // A new company lists at its book value: one share per $100 of it ($100,000 of cash: 1,000 shares at $100).
    expect(response.body.find((row: { company_id: number }) => row.company_id === player.companyId)).toMatchObject({
      total_shares: 1_000,
      share_price: 100,
      is_bot: false,
    });
    const same = await app.api('GET', '/company-shares', { token: player.token });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(response.body);
  });

  it('a second purchase adds to the position at the average price paid, weighted by the shares held', async () => {
    const player = await app.createPlayer({ cash: 10_000 });
    const bot = await createBot(db, { priceCents: 25_000, totalShares: 200 });
    const firstCents = await shareOrderCents(db, bot.id, 10, 'buy');
    expect((await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 10, action: 'buy' } })).status).toBe(200);
    const secondCents = await shareOrderCents(db, bot.id, 5, 'buy');
    const second = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 5, action: 'buy' } });
    expect(second.body).toMatchObject({ shares: 5, total: secondCents / 100, shares_owned: 15 });
    const portfolio = await app.api('GET', '/portfolio', { token: player.token });
    const averageCents = Math.round((10 * Math.round(firstCents / 10) + secondCents) / 15);
    expect(portfolio.body).toMatchObject([{ company_id: bot.id, shares_owned: 15, average_price: averageCents / 100 }]);
  });

  it('buys new shares from the company and sells them back to it on its price curve: both sides ledgered, the portfolio valued at what selling pays', async () => {
    const player = await app.createPlayer({ cash: 10_000 });
    const bot = await createBot(db, { priceCents: 25_000, totalShares: 200 });
    const botCash = await cashOf(db, bot.id);
    const buyCents = await shareOrderCents(db, bot.id, 10, 'buy');
    expect(buyCents).toBeGreaterThan(10 * 25_000 * 1.025);
    const buy = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 10, action: 'buy' } });
    expect(buy.status).toBe(200);
    expect(buy.body).toMatchObject({
      action: 'buy',
      company_id: bot.id,
      company_name: bot.name,
      shares: 10,
      total: buyCents / 100,
      shares_owned: 10,
      cash: (1_000_000 - buyCents) / 100,
    });
    // The company issued 10 new shares and got the money: its capital grows.
    expect(await cashOf(db, bot.id)).toBe(botCash + buyCents);
    const [record] = await db
      .select({ total: shareRecords.totalShares, flow: shareRecords.weekFlow })
      .from(shareRecords)
      .where(eq(shareRecords.companyId, bot.id));
    expect(record).toEqual({ total: 210, flow: 10 });

    const portfolio = await app.api('GET', '/portfolio', { token: player.token });
    expect(portfolio.status).toBe(200);
    const value = liquidationValueRule.evaluate({ price: 25_000, depth: shareDepthRule.evaluate({ totalShares: 210 }), quantity: 10 });
    expect(portfolio.body).toEqual([
      {
        company_id: bot.id,
        company_name: bot.name,
        is_bot: true,
        shares_owned: 10,
        average_price: Math.round(buyCents / 10) / 100,
        current_price: 250,
        value: value / 100,
      },
    ]);
    expect(value).toBeLessThan(buyCents); // buying never raises net worth by itself

    const sellCents = await shareOrderCents(db, bot.id, 4, 'sell');
    const sell = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 4, action: 'sell' } });
    expect(sell.body).toMatchObject({ action: 'sell', shares: 4, total: sellCents / 100, shares_owned: 6 });
    const sellAllCents = await shareOrderCents(db, bot.id, 6, 'sell');
    const sellAll = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 6, action: 'sell' } });
    expect(sellAll.body).toMatchObject({ shares_owned: 0, cash: (1_000_000 - buyCents + sellCents + sellAllCents) / 100 });
    expect((await app.api('GET', '/portfolio', { token: player.token })).body).toEqual([]);
    // The round trip lost money; the company kept the difference.
    expect(sellCents + sellAllCents).toBeLessThan(buyCents);
    expect(await cashOf(db, bot.id)).toBe(botCash + buyCents - sellCents - sellAllCents);

    const ledger = await db
      .select({ reason: transactions.reason, amount: transactions.amountCents })
      .from(transactions)
      .where(eq(transactions.companyId, player.companyId));
    expect(ledger).toEqual([
      { reason: 'stock_buy', amount: -buyCents },
      { reason: 'stock_sell', amount: sellCents },
      { reason: 'stock_sell', amount: sellAllCents },
    ]);
    const issuerLedger = await db
      .select({ reason: transactions.reason, amount: transactions.amountCents })
      .from(transactions)
      .where(eq(transactions.companyId, bot.id));
    expect(issuerLedger).toEqual([
      { reason: 'share_issue', amount: buyCents },
      { reason: 'share_buyback', amount: -sellCents },
      { reason: 'share_buyback', amount: -sellAllCents },
    ]);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('lets share swaps between friendly companies create no net worth: what one holds is what the other owes', async () => {
    const alice = await app.createPlayer({ cash: 200_000 });
    const bob = await app.createPlayer({ cash: 200_000 });
    const before = (await netWorthCents(db, alice.companyId)) + (await netWorthCents(db, bob.companyId));
    for (let round = 0; round < 3; round += 1) {
      expect((await app.api('POST', '/stocks/trade', { token: alice.token, body: { company_id: bob.companyId, shares: 300, action: 'buy' } })).status).toBe(
        200,
      );
      expect((await app.api('POST', '/stocks/trade', { token: bob.token, body: { company_id: alice.companyId, shares: 300, action: 'buy' } })).status).toBe(
        200,
      );
    }
    const after = (await netWorthCents(db, alice.companyId)) + (await netWorthCents(db, bob.companyId));
    expect(after).toBeLessThanOrEqual(before);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('refuses trades that break the rules with precise messages, changing nothing', async () => {
    const player = await app.createPlayer({ cash: 100_000 });
    const bot = await createBot(db, { totalShares: 50, priceCents: 10_000 });
    const oversell = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 6, action: 'sell' } });
    expect(oversell).toMatchObject({ status: 409, body: { error: `You own only 0 shares of ${bot.name}` } });
    expect((await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 5, action: 'buy' } })).status).toBe(200);
    const tooMany = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 6, action: 'sell' } });
    expect(tooMany).toMatchObject({ status: 409, body: { error: `You own only 5 shares of ${bot.name}` } });
    // An issuer without the cash cannot buy its shares back.
    await db
      .update(companies)
      .set({ cashCents: 0, startingCashCents: sql`${companies.startingCashCents} - ${companies.cashCents}` })
      .where(eq(companies.id, bot.id));
    const broke = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 1, action: 'sell' } });
    expect(broke.status).toBe(422);
    expect(broke.body.error).toContain(`${bot.name} cannot buy back 1 share now`);
    const insolvent = await createBot(db, { priceCents: 0 });
    const noPrice = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: insolvent.id, shares: 1, action: 'buy' } });
    expect(noPrice).toMatchObject({
      status: 422,
      body: { error: `${insolvent.name} is insolvent: its shares cannot be traded until its book value is positive again` },
    });
    const unowned = await createBot(db);
    await db.update(shareRecords).set({ isListed: false }).where(eq(shareRecords.companyId, unowned.id));
    const delisted = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: unowned.id, shares: 1, action: 'buy' } });
    expect(delisted).toMatchObject({ status: 422, body: { error: `${unowned.name} is no longer listed on the stock exchange` } });
    const self = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: player.companyId, shares: 1, action: 'buy' } });
    expect(self).toMatchObject({ status: 422, body: { error: "You cannot trade your own company's shares" } });
    const unknown = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: 99_999_999, shares: 1, action: 'buy' } });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'No company found with id 99999999' } });
    const huge = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 1_000_000, action: 'buy' } });
    expect(huge).toMatchObject({ status: 422, body: { error: expect.stringContaining('too large') } });
    expect(await sharesHeld(db, player.companyId, bot.id)).toBe(5);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('answers not enough cash with the costs and the cash', async () => {
    const player = await app.createPlayer({ cash: 150 });
    const bot = await createBot(db, { priceCents: 10_000 });
    const cost = await shareOrderCents(db, bot.id, 2, 'buy');
    const response = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 2, action: 'buy' } });
    expect(response).toMatchObject({ status: 409, body: { error: `Not enough cash: this costs ${formatCents(cost)} and you have $150.00` } });
    expect(await cashOf(db, player.companyId)).toBe(15_000);
    const [record] = await db
      .select({ total: shareRecords.totalShares, flow: shareRecords.weekFlow })
      .from(shareRecords)
      .where(eq(shareRecords.companyId, bot.id));
    expect(record).toEqual({ total: 100, flow: 0 }); // nothing issued
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
    expect((await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 0, action: 'buy' } })).body.error).toMatch(
      /shares/,
    );
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
      { worldId: 1, companyId: bot.id, week: 1, priceCents: 10_000 },
      { worldId: 1, companyId: bot.id, week: 2, priceCents: 8_000 },
      { worldId: 1, companyId: bot.id, week: 3, priceCents: 11_000 },
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
    expect(prices.body.find((row: { company_id: number }) => row.company_id === quiet.id)).toMatchObject({
      price: 50,
      previous_price: null,
      change_percent: 0,
      week: null,
    });
    expect(prices.body[0].company_id).toBe(bot.id); // biggest mover first

    const history = await app.api('GET', `/stocks/history?company_id=${bot.id}`, { token: player.token });
    expect(history).toMatchObject({
      status: 200,
      body: [
        { week: 1, price: 100 },
        { week: 2, price: 80 },
        { week: 3, price: 110 },
      ],
    });
    expect((await app.api('GET', '/stocks/history?company_id=99999999', { token: player.token })).status).toBe(404);
    expect((await app.api('GET', '/stocks/history?company_id=abc', { token: player.token })).status).toBe(400);
    expect((await app.api('GET', '/stocks/history', { token: player.token })).status).toBe(400);
  });

  it('50 parallel buys by five players never overdraw: each success walks the curve once, the money goes to the issuer', async () => {
    const bot = await createBot(db, { totalShares: 100, priceCents: 10_000 });
    const botCash = await cashOf(db, bot.id);
    const buyers = await Promise.all(Array.from({ length: 5 }, () => app.createPlayer({ cash: 3_000 })));
    const requests = buyers.flatMap((buyer) =>
      Array.from({ length: 10 }, () => app.api('POST', '/stocks/trade', { token: buyer.token, body: { company_id: bot.id, shares: 3, action: 'buy' } })),
    );
    const responses = await Promise.all(requests);
    expect(responses.every((response) => response.status === 200 || response.status === 409)).toBe(true);
    const succeeded = responses.filter((response) => response.status === 200).length;
    let held = 0;
    let spent = 0;
    for (const buyer of buyers) {
      const cash = await cashOf(db, buyer.companyId);
      expect(cash).toBeGreaterThanOrEqual(0);
      held += await sharesHeld(db, buyer.companyId, bot.id);
      spent += 300_000 - cash;
    }
    expect(held).toBe(3 * succeeded);
    const [record] = await db.select({ total: shareRecords.totalShares }).from(shareRecords).where(eq(shareRecords.companyId, bot.id));
    expect(record!.total).toBe(100 + held);
    expect(await cashOf(db, bot.id)).toBe(botCash + spent);
    // Sent at once, they went together (actTogether): their log entries were committed by fewer
    // transactions than requests, every request logged once.
    const logged = await db.execute<{ tx: string }>(sql`
      select xmin::text as tx from world_actions
      where action = 'tradeShares' and company_id in ${sql.raw(`(${buyers.map((buyer) => buyer.companyId).join(',')})`)}`);
    expect(logged).toHaveLength(50);
    expect(new Set(logged.map((row) => row.tx)).size).toBeLessThan(50);
    expect(await shareMismatches(db)).toEqual([]);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('share trades sent while another runs go together: one commit for the batch, each priced as if one after the other in the log, a refusal only its own', async () => {
    const bot = await createBot(db, { totalShares: 1_000, priceCents: 10_000 });
    const botCash = await cashOf(db, bot.id);
    const players = await Promise.all(Array.from({ length: 12 }, (_, index) => app.createPlayer({ cash: index === 5 ? 1 : 10_000 })));
    // Sent without waiting: the first runs alone, the eleven others queue behind it and go as one
    // batch; the sixth cannot pay and the eighth sells shares it does not hold.
    const answers = await Promise.allSettled(
      players.map((player, index) =>
        actTogether(db, 'tradeShares', 1, {
          companyId: player.companyId,
          actingUserId: player.userId,
          input: { company_id: bot.id, shares: 2, action: index === 7 ? 'sell' : 'buy' },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(players.map((_, index) => (index === 5 || index === 7 ? 'rejected' : 'fulfilled')));
    expect((answers[5] as PromiseRejectedResult).reason.message).toMatch(/^Not enough cash/);
    expect((answers[7] as PromiseRejectedResult).reason.message).toBe(`You own only 0 shares of ${bot.name}`);
    // The log: one entry per request, in two transactions (the first alone, then the batch).
    const logged = await db.execute<{ company_id: number; outcome: { applied: boolean }; tx: string }>(sql`
      select company_id, outcome, xmin::text as tx from world_actions
      where action = 'tradeShares' and company_id in ${sql.raw(`(${players.map((player) => player.companyId).join(',')})`)} order by seq`);
    expect(logged.map((row) => Number(row.company_id))).toEqual(players.map((player) => player.companyId));
    expect(logged.map((row) => row.outcome.applied)).toEqual(players.map((_, index) => index !== 5 && index !== 7));
    expect(new Set(logged.map((row) => row.tx)).size).toBe(2);
    // Priced along the issuer's curve in the log's order, as one trade after another.
    let bought = 0;
    let paid = 0;
    for (const [index, answer] of answers.entries()) {
      if (answer.status !== 'fulfilled') continue;
      const cents = marketBuyCostRule.evaluate({ price: 10_000, depth: shareDepthRule.evaluate({ totalShares: 1_000 + bought }), flow: bought, quantity: 2 });
      expect(answer.value).toMatchObject({ action: 'buy', shares: 2, total: cents / 100, shares_owned: 2, cash: (1_000_000 - cents) / 100 });
      expect(await cashOf(db, players[index]!.companyId)).toBe(1_000_000 - cents);
      bought += 2;
      paid += cents;
    }
    expect(bought).toBe(20);
    expect(await cashOf(db, players[5]!.companyId)).toBe(100);
    expect(await cashOf(db, bot.id)).toBe(botCash + paid);
    expect(await shareMismatches(db)).toEqual([]);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('50 parallel buys by one player that exceed the cash leave cash >= 0', async () => {
    const bot = await createBot(db, { totalShares: 1_000, priceCents: 10_000 });
    const player = await app.createPlayer({ cash: 2_050 });
    // They run one after another on the share record: the k-th success buys 1 share at flow k - 1.
    const depth = shareDepthRule.evaluate({ totalShares: 1_000 });
    let fits = 0;
    let spent = 0;
    const cost = (k: number) => marketBuyCostRule.evaluate({ price: 10_000, depth: shareDepthRule.evaluate({ totalShares: 1_000 + k }), flow: k, quantity: 1 });
    while (spent + cost(fits) <= 205_000) {
      spent += cost(fits);
      fits += 1;
    }
    expect(depth).toBe(500);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 1, action: 'buy' } })),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(fits);
    expect(responses.filter((response) => response.status === 409).every((response) => response.body.error.startsWith('Not enough cash'))).toBe(true);
    expect(await cashOf(db, player.companyId)).toBe(205_000 - spent);
    expect(await sharesHeld(db, player.companyId, bot.id)).toBe(fits);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('50 parallel sells of the same holding never sell more than owned', async () => {
    const bot = await createBot(db, { totalShares: 100, priceCents: 10_000 });
    const player = await app.createPlayer({ cash: 5_000 });
    expect((await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 10, action: 'buy' } })).status).toBe(200);
    const cashAfterBuy = await cashOf(db, player.companyId);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 3, action: 'sell' } })),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(3);
    const refused = responses.filter((response) => response.status !== 200);
    expect(refused).toHaveLength(47);
    expect(refused.every((response) => response.status === 409 && response.body.error.startsWith('You own only'))).toBe(true);
    const sells = await db
      .select({ amount: transactions.amountCents })
      .from(transactions)
      .where(and(eq(transactions.companyId, player.companyId), eq(transactions.reason, 'stock_sell')));
    expect(sells).toHaveLength(3);
    expect(await sharesHeld(db, player.companyId, bot.id)).toBe(1);
    expect(await cashOf(db, player.companyId)).toBe(cashAfterBuy + sells.reduce((sum, row) => sum + row.amount, 0));
    expect(await ledgerMismatches(db)).toEqual([]);
  });
  it("a sale that waited for the same holder's buy sells from the shares that buy added", async () => {
    // The sale's statement starts while the buy holds the holder's row; the shares it sells exist
    // only once the buy commits. The sale must see them (and sell), not answer 'You own only 10'.
    const bot = await createBot(db, { totalShares: 1_000, priceCents: 1_000 });
    const player = await app.createPlayer({ cash: 5_000 });
    expect((await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 10, action: 'buy' } })).status).toBe(200);
    let sale: Promise<Awaited<ReturnType<TestApp['api']>>> | undefined;
    await db.transaction(async (tx) => {
      await act(tx, 'tradeShares', { companyId: player.companyId, actingUserId: null, input: { company_id: bot.id, shares: 5, action: 'buy' } });
      sale = app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.id, shares: 12, action: 'sell' } });
      // Commit only once the sale's statement waits for the holder's row.
      await untilAStatementWaitsForALock(db, 'order by id for update');
    });
    const sold = await sale!;
    expect(sold).toMatchObject({ status: 200, body: { action: 'sell', shares: 12, shares_owned: 3 } });
    expect(await sharesHeld(db, player.companyId, bot.id)).toBe(3);
    expect(await ledgerMismatches(db)).toEqual([]);
  });
});
