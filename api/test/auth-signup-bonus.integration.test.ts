/** Starting cash at sign-up: SIGNUP_BONUS early-bird (first 50 player companies $500,000) or flat. */
import { afterEach, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { companies, createPlayerCompany, users } from '@marketcraft/db';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

const BONUS_CENTS = 50_000_000;
const INITIAL_CENTS = 10_000_000;

describe('signup bonus', () => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('early-bird: of 6 concurrent signups after 48 players, exactly the first 2 get $500,000', async () => {
    app = await startTestApp({ env: { SIGNUP_BONUS: 'early-bird' } });
    const db = app.database.db;
    await db.transaction(async (tx) => {
      const created = await tx
        .insert(users)
        .values(Array.from({ length: 48 }, (_, i) => ({ email: `early-${i}@example.com` })))
        .returning({ id: users.id, email: users.email });
      for (const user of created) await createPlayerCompany(tx, { worldId: 1, userId: user.id, email: user.email, mode: 'early-bird' });
    });

    const emails = Array.from({ length: 6 }, (_, i) => `boundary-${i}@example.com`);
    const responses = await Promise.all(emails.map((email) => app!.api('POST', '/auth/signup', { body: { email, password: 'secret1' } })));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);

    const userIds = responses.map((response) => response.body.user.id as number);
    const founded = await db
      .select({ id: companies.id, cashCents: companies.cashCents, startingCashCents: companies.startingCashCents })
      .from(companies)
      .where(inArray(companies.userId, userIds))
      .orderBy(companies.id);
    expect(founded.map((company) => company.cashCents)).toEqual([BONUS_CENTS, BONUS_CENTS, INITIAL_CENTS, INITIAL_CENTS, INITIAL_CENTS, INITIAL_CENTS]);
    expect(founded.map((company) => company.startingCashCents)).toEqual(founded.map((company) => company.cashCents));
  });

  it('early-bird: of 55 concurrent signups into an empty game, exactly the first 50 founded get $500,000', async () => {
    app = await startTestApp({ env: { SIGNUP_BONUS: 'early-bird' } });
    const emails = Array.from({ length: 55 }, (_, i) => `rush-${i}@example.com`);
    const responses = await Promise.all(emails.map((email) => app!.api('POST', '/auth/signup', { body: { email, password: 'secret1' } })));
    expect(responses.map((response) => response.status)).toEqual(Array(55).fill(200));

    // What each player sees of their own company.
    const cash = await Promise.all(responses.map(async (response) => (await app!.api('GET', '/company', { token: response.body.token })).body.cash as number));
    expect(cash.filter((dollars) => dollars === 500_000)).toHaveLength(50);
    expect(cash.filter((dollars) => dollars === 100_000)).toHaveLength(5);

    // In founding order (company ids are taken under the founding lock): the 51st to 55th did not get it.
    const founded = await app.database.db
      .select({ cashCents: companies.cashCents })
      .from(companies)
      .where(inArray(companies.userId, responses.map((response) => response.body.user.id as number)))
      .orderBy(companies.id);
    expect(founded.map((company) => company.cashCents)).toEqual([...Array(50).fill(BONUS_CENTS), ...Array(5).fill(INITIAL_CENTS)]);
  });

  it('flat: everyone starts with $100,000, even the first player', async () => {
    app = await startTestApp({ env: { SIGNUP_BONUS: 'flat' } });
    const signup = await app.api('POST', '/auth/signup', { body: { email: 'first@example.com', password: 'secret1' } });
    expect(signup.status).toBe(200);
    const company = await app.api('GET', '/company', { token: signup.body.token });
    expect(company.status).toBe(200);
    const [row] = await app.database.db.select({ cashCents: companies.cashCents }).from(companies).where(inArray(companies.userId, [signup.body.user.id]));
    expect(row?.cashCents).toBe(INITIAL_CENTS);
  });
});
