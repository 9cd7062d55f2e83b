import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { changeCash, companies, financialHistory, ledgerMismatches, shareRecords, users, type Database } from '@marketcraft/db';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { BANKRUPTCY_TURNS } from '@marketcraft/shared';
import { createSession } from '../src/auth/session.ts';

describe('company API', () => {
  let app: TestApp;
  let db: Database;
  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
  });
  afterAll(async () => {
    await app.close();
  });

  it("GET /api/company answers the spec fields of the player's company only", async () => {
    const player = await app.createPlayer({ cash: 12_345.67, name: 'Acme Corp' });
    const response = await app.api('GET', '/company', { token: player.token });
    expect(response.status).toBe(200);
    // Listed at founding ($100,000: 1,000 shares at $100); net worth = cash alone (no goods, buildings or holdings).
    expect(response.body).toMatchObject({
      id: player.companyId,
      name: 'Acme Corp',
      bio: null,
      cash: 12_345.67,
      is_bot: false,
      status: 'active',
      share_price: 100,
      total_shares: 1_000,
      net_worth: 12_345.67,
      tax_loss_carried: 0,
    });
    expect(response.body.net_worth_why).toMatchObject({ value: 12_345.67, unit: 'dollars', formula: 'cash + goods + buildings + holdings - claims' });
    expect(response.body.net_worth_why.terms.map((term: { name: string; value: number; unit: string }) => [term.name, term.value, term.unit])).toEqual([
      ['cash', 12_345.67, 'dollars'],
      ['goods', 0, 'dollars'],
      ['buildings', 0, 'dollars'],
      ['holdings', 0, 'dollars'],
      ['claims', 0, 'dollars'],
    ]);
    expect(new Date(response.body.founded_at).toString()).not.toBe('Invalid Date');
    expect(Object.keys(response.body)).not.toContain('user_id');
    expect((await app.api('GET', '/company')).status).toBe(401);
  });

  it('GET /api/company counts the turns in a row that ended with negative cash, out of the bankruptcy limit', async () => {
    const player = await app.createPlayer({ cash: 500 });
    expect((await app.api('GET', '/company', { token: player.token })).body).toMatchObject({ negative_turns: 0, bankruptcy_turns: BANKRUPTCY_TURNS });
    // As the turn leaves it after two turns ending below zero: its costs may take cash negative
    // (a real ledger row, as the turn's wages), and its bankruptcy phase counts the turns.
    await changeCash(db, { companyId: player.companyId, amountCents: -95_000, type: 'other', reason: 'wages', description: 'Wages', allowNegative: true });
    await db.update(companies).set({ negativeCashTurns: 2 }).where(eq(companies.id, player.companyId));
    const inDebt = await app.api('GET', '/company', { token: player.token });
    expect(inDebt.status).toBe(200);
    expect(inDebt.body).toMatchObject({ cash: -450, negative_turns: 2, bankruptcy_turns: 4 });
    // The same fields come back from the profile update (one view of the company).
    const updated = await app.api('PATCH', '/company/profile', { token: player.token, body: { name: 'Deep Red Ltd' } });
    expect(updated.body).toMatchObject({ name: 'Deep Red Ltd', negative_turns: 2, bankruptcy_turns: 4 });
    // Another player's count is their own.
    const other = await app.createPlayer();
    expect((await app.api('GET', '/company', { token: other.token })).body.negative_turns).toBe(0);
  });

  it('answers 404 "No company found" when the user has no active company', async () => {
    const [user] = await db
      .insert(users)
      .values({ email: `nocompany-${Date.now()}@example.com` })
      .returning({ id: users.id });
    const { token } = await createSession(db, user!.id);
    expect(await app.api('GET', '/company', { token })).toMatchObject({ status: 404, body: { error: 'No company found' } });
  });

  it('updates the profile: name trimmed, bio trimmed, empty bio becomes null', async () => {
    const player = await app.createPlayer();
    const update = await app.api('PATCH', '/company/profile', { token: player.token, body: { name: '  Blue Harbor Trading  ', bio: '  We ship things.  ' } });
    expect(update.status).toBe(200);
    expect(update.body).toMatchObject({ name: 'Blue Harbor Trading', bio: 'We ship things.' });
    const cleared = await app.api('PATCH', '/company/profile', { token: player.token, body: { name: 'Blue Harbor Trading', bio: '   ' } });
    expect(cleared.body.bio).toBeNull();
    await app.api('PATCH', '/company/profile', { token: player.token, body: { name: 'Blue Harbor', bio: 'Kept' } });
    const keep = await app.api('PATCH', '/company/profile', { token: player.token, body: { name: 'Blue Harbor Two' } });
    expect(keep.body).toMatchObject({ name: 'Blue Harbor Two', bio: 'Kept' });
    const nullBio = await app.api('PATCH', '/company/profile', { token: player.token, body: { name: 'Blue Harbor Two', bio: null } });
    expect(nullBio.body.bio).toBeNull();
  });

  it('refuses invalid profiles with the spec messages', async () => {
    const player = await app.createPlayer();
    expect(await app.api('PATCH', '/company/profile', { token: player.token, body: { name: '   ', bio: null } })).toMatchObject({
      status: 400,
      body: { error: 'Company name cannot be empty' },
    });
    expect(await app.api('PATCH', '/company/profile', { token: player.token, body: { name: 'Fine', bio: 'x'.repeat(501) } })).toMatchObject({
      status: 400,
      body: { error: 'Bio must be 500 characters or less' },
    });
    expect((await app.api('PATCH', '/company/profile', { token: player.token, body: { name: 'Fine', bio: ` ${'x'.repeat(500)} ` } })).status).toBe(200);
    expect((await app.api('PATCH', '/company/profile', { token: player.token, body: { bio: 'no name' } })).status).toBe(400);
    expect((await app.api('PATCH', '/company/profile', { token: player.token, body: { name: 42 } })).status).toBe(400);
    expect((await app.api('PATCH', '/company/profile', { token: player.token, body: '{"name":' })).status).toBe(400);
    expect((await app.api('PATCH', '/company/profile', { body: { name: 'x' } })).status).toBe(401);
  });

  it('refuses NUL and other control characters in the name and the bio with a 400, and keeps the profile', async () => {
    const player = await app.createPlayer({ name: 'Clean Name Co' });
    const patch = (body: unknown) => app.api('PATCH', '/company/profile', { token: player.token, body });
    // NUL used to reach PostgreSQL (which cannot store it in text) and answer 500.
    expect(await patch({ name: 'a\u0000b' })).toMatchObject({ status: 400, body: { error: 'Company name cannot contain control characters' } });
    expect(await patch({ name: 'Clean Name Co', bio: 'a\u0000b' })).toMatchObject({ status: 400, body: { error: 'Bio cannot contain control characters' } });
    expect(await patch({ name: 'Red\u001b[31m Co' })).toMatchObject({ status: 400, body: { error: 'Company name cannot contain control characters' } });
    const [row] = await db.select({ name: companies.name, bio: companies.bio }).from(companies).where(eq(companies.id, player.companyId));
    expect(row).toEqual({ name: 'Clean Name Co', bio: null });
    // A bio may span lines.
    expect(await patch({ name: 'Clean Name Co', bio: 'We grow wheat.\nAnd bake bread.' })).toMatchObject({
      status: 200,
      body: { bio: 'We grow wheat.\nAnd bake bread.' },
    });
  });

  it('answers the financial history oldest first, the last 52 entries', async () => {
    const player = await app.createPlayer();
    await db.insert(financialHistory).values(
      Array.from({ length: 60 }, (_, index) => ({
        worldId: 1,
        companyId: player.companyId,
        week: index + 1,
        amountCents: (index + 1) * 100,
        cashAfterCents: 10_000_000 + (index + 1) * 100,
      })),
    );
    const response = await app.api('GET', '/company/financial-history', { token: player.token });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(52);
    expect(response.body[0]).toEqual({ week: 9, amount: 9, cash_after: 100_009, profit: 0, net_worth: null });
    expect(response.body[51]).toEqual({ week: 60, amount: 60, cash_after: 100_060, profit: 0, net_worth: null });
    const fresh = await app.createPlayer();
    expect((await app.api('GET', '/company/financial-history', { token: fresh.token })).body).toEqual([]);
  });

  it('lists active companies by net worth (one definition: cash, goods, buildings, holdings, less claims) with public fields and marks the caller', async () => {
    const rich = await app.createPlayer({ cash: 900_000, name: 'Rich Co' });
    const poor = await app.createPlayer({ cash: 10, name: 'Poor Co' });
    const [bot] = await db
      .insert(companies)
      .values({ worldId: 1, name: `Bot ${Date.now()}`, cashCents: 100, startingCashCents: 100, isBot: true, strategy: 'aggressive_growth' })
      .returning({ id: companies.id });
    // A share price of $5,000 does not make the company rich: its shares are claims on its own $1 of cash.
    await db.insert(shareRecords).values({ worldId: 1, companyId: bot!.id, totalShares: 1_000, sharePriceCents: 500_000 });
    const response = await app.api('GET', '/companies', { token: poor.token });
    expect(response.status).toBe(200);
    const list = response.body as { id: number; net_worth: number; is_you: boolean }[];
    const worths = list.map((company) => company.net_worth);
    expect(worths).toEqual([...worths].sort((a, b) => b - a));
    expect(list.find((company) => company.id === bot!.id)).toMatchObject({
      is_bot: true,
      strategy: 'aggressive_growth',
      cash: 1,
      share_price: 5_000,
      total_shares: 1_000,
      net_worth: 1,
      is_you: false,
    });
    expect(list.find((company) => company.id === rich.companyId)).toMatchObject({
      name: 'Rich Co',
      cash: 900_000,
      net_worth: 900_000,
      is_you: false,
      strategy: null,
    });
    expect(list.filter((company) => company.is_you).map((company) => company.id)).toEqual([poor.companyId]);
    expect(Object.keys(list[0]!).sort()).toEqual([
      'cash',
      'founded_at',
      'id',
      'is_bot',
      'is_you',
      'name',
      'net_worth',
      'rank',
      'share_price',
      'strategy',
      'total_shares',
      'uses_api',
    ]);
    // The dashboard's and the leaderboard's net worth are the same number.
    expect((await app.api('GET', '/company', { token: rich.token })).body.net_worth).toBe(900_000);
    // Bankrupt companies leave the leaderboard.
    await db.update(companies).set({ status: 'bankrupt' }).where(eq(companies.id, rich.companyId));
    const after = await app.api('GET', '/companies', { token: poor.token });
    expect(after.body.some((company: { id: number }) => company.id === rich.companyId)).toBe(false);
  });

  it('founds a new company after bankruptcy with what the liquidation left, never a fresh grant, and refuses a second one (409)', async () => {
    const player = await app.createPlayer({ cash: 5 });
    expect(await app.api('POST', '/company', { token: player.token })).toMatchObject({ status: 409, body: { error: 'You already have a company' } });
    // The turn's bankruptcy left the company $2,500 (its goods sold for more than its debts).
    await changeCash(db, { companyId: player.companyId, amountCents: 250_000 - 500, type: 'other', reason: 'liquidation', description: 'Liquidation' });
    await db.update(companies).set({ status: 'bankrupt', bankruptAt: new Date() }).where(eq(companies.id, player.companyId));
    expect((await app.api('GET', '/company', { token: player.token })).status).toBe(404);
    // Parallel founding attempts: exactly one company, and the leftover moves once.
    const attempts = await Promise.all(
      Array.from({ length: 5 }, () => app.api('POST', '/company', { token: player.token, body: { name: 'Second Wind Ltd' } })),
    );
    expect(attempts.filter((response) => response.status === 200)).toHaveLength(1);
    expect(attempts.filter((response) => response.status === 409)).toHaveLength(4);
    const company = await app.api('GET', '/company', { token: player.token });
    expect(company.body).toMatchObject({ name: 'Second Wind Ltd', cash: 2_500, status: 'active' });
    expect(company.body.id).not.toBe(player.companyId);
    const [bankrupt] = await db.select({ cashCents: companies.cashCents }).from(companies).where(eq(companies.id, player.companyId));
    expect(bankrupt?.cashCents).toBe(0);
    const ledger = await app.api('GET', '/transactions', { token: player.token });
    expect(ledger.body.items).toEqual([
      expect.objectContaining({
        type: 'other',
        reason: 'restart_capital',
        amount: 2_500,
        description: '$2,500.00 left by your bankrupt company',
        concerns: { kind: 'company', id: player.companyId },
      }),
    ]);
    expect((await app.api('POST', '/company', { token: player.token, body: { name: '' } })).status).toBe(400);
    expect((await app.api('POST', '/company')).status).toBe(401);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it("founding again after bankruptcy: cash parked in a friend's shares, then bankruptcy, then a new company gets no fresh starting grant", async () => {
    // The conduit (economy audit): A signs up, parks its cash in its friend B's shares (B gets it),
    // goes bankrupt (B kept its cash low, so the buyback was cancelled) and founds again.
    const signup = async (email: string) => {
      const response = await app.api('POST', '/auth/signup', { body: { email, password: 'secret1' } });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const company = await app.api('GET', '/company', { token: response.body.token });
      return { token: response.body.token as string, companyId: company.body.id as number, cash: company.body.cash as number };
    };
    const parker = await signup(`parker-${Date.now()}@example.com`);
    const friend = await signup(`friend-${Date.now()}@example.com`);
    expect(parker.cash).toBeGreaterThanOrEqual(100_000);
    const bought = await app.api('POST', '/stocks/trade', { token: parker.token, body: { company_id: friend.companyId, shares: 600, action: 'buy' } });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    // Four turns in debt and the liquidation: the parker ends with $1,234 of debts (its shares cancelled).
    const [parked] = await db.select({ cashCents: companies.cashCents }).from(companies).where(eq(companies.id, parker.companyId));
    await changeCash(db, {
      companyId: parker.companyId,
      amountCents: -Number(parked!.cashCents) - 123_400,
      type: 'production',
      reason: 'wages',
      description: 'Wages',
      allowNegative: true,
    });
    await db.update(companies).set({ status: 'bankrupt', bankruptAt: new Date() }).where(eq(companies.id, parker.companyId));
    const again = await app.api('POST', '/company', { token: parker.token, body: { name: 'Fresh Start Ltd' } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ name: 'Fresh Start Ltd', cash: 0, net_worth: 0, status: 'active' });
    const [record] = await db.select({ startingCashCents: companies.startingCashCents }).from(companies).where(eq(companies.id, again.body.id));
    expect(record?.startingCashCents).toBe(0);
    // Bankrupt again at once: the third company gets nothing either.
    await db.update(companies).set({ status: 'bankrupt', bankruptAt: new Date() }).where(eq(companies.id, again.body.id));
    const third = await app.api('POST', '/company', { token: parker.token, body: { name: 'Third Try Ltd' } });
    expect(third.body).toMatchObject({ cash: 0 });
    // The friend still has the parked cash; the pair has no more money than it started with.
    const [friendRow] = await db.select({ cashCents: companies.cashCents }).from(companies).where(eq(companies.id, friend.companyId));
    expect(Number(friendRow?.cashCents)).toBe(Math.round((friend.cash + bought.body.total) * 100));
    expect(await ledgerMismatches(db)).toEqual([]);
  });
});
