/**
 * Starting cash at sign-up: SIGNUP_BONUS early-bird (the first 50 bonuses of $500,000, at most
 * EARLY_BIRD_PER_ADDRESS of them to sign-ups from one address) or flat. And the sign-up throttle:
 * at most SIGNUPS_PER_ADDRESS_PER_HOUR sign-ups from one address in an hour.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { inArray, sql } from 'drizzle-orm';
import { EARLY_BIRD_PER_ADDRESS, SIGNUPS_PER_ADDRESS_PER_HOUR, SIGNUP_THROTTLE_MESSAGE } from '@marketcraft/shared';
import { loadApiConfig } from '../src/config.ts';
import { companies, createPlayerCompany, users } from '@marketcraft/db';
import { signupAddressKey } from '../src/clientIp.ts';
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

  it('early-bird: of 55 concurrent signups into an empty game (55 addresses), exactly the first 50 founded get $500,000', async () => {
    app = await startTestApp({ env: { SIGNUP_BONUS: 'early-bird', TRUST_PROXY_HOPS: '1' } });
    const emails = Array.from({ length: 55 }, (_, i) => `rush-${i}@example.com`);
    const responses = await Promise.all(
      emails.map((email, i) =>
        app!.api('POST', '/auth/signup', { body: { email, password: 'secret1' }, headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(55).fill(200));

    // What each player sees of their own company.
    const cash = await Promise.all(responses.map(async (response) => (await app!.api('GET', '/company', { token: response.body.token })).body.cash as number));
    expect(cash.filter((dollars) => dollars === 500_000)).toHaveLength(50);
    expect(cash.filter((dollars) => dollars === 100_000)).toHaveLength(5);

    // In founding order (company ids are taken under the founding lock): the 51st to 55th did not get it.
    const founded = await app.database.db
      .select({ cashCents: companies.cashCents })
      .from(companies)
      .where(
        inArray(
          companies.userId,
          responses.map((response) => response.body.user.id as number),
        ),
      )
      .orderBy(companies.id);
    expect(founded.map((company) => company.cashCents)).toEqual([...Array(50).fill(BONUS_CENTS), ...Array(5).fill(INITIAL_CENTS)]);
  });

  it('early-bird: one address takes at most 3 bonuses, whatever the concurrency; everyone from it still joins', async () => {
    expect(EARLY_BIRD_PER_ADDRESS).toBe(3);
    app = await startTestApp({ env: { SIGNUP_BONUS: 'early-bird', TRUST_PROXY_HOPS: '1' } });
    const from = (address: string) => ({ 'x-forwarded-for': address });
    // A class (or one person) behind one address: 12 sign-ups at once.
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        app!.api('POST', '/auth/signup', { body: { email: `class-${i}@example.com`, password: 'secret1' }, headers: from('203.0.113.7') }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(200));
    const cash = await Promise.all(responses.map(async (response) => (await app!.api('GET', '/company', { token: response.body.token })).body.cash as number));
    expect(cash.filter((dollars) => dollars === 500_000)).toHaveLength(3);
    expect(cash.filter((dollars) => dollars === 100_000)).toHaveLength(9);

    // The same address written IPv4-mapped counts as that address; another IPv6 address of one /64 as that /64.
    const mapped = await app.api('POST', '/auth/signup', { body: { email: 'mapped@example.com', password: 'secret1' }, headers: from('::ffff:203.0.113.7') });
    expect((await app.api('GET', '/company', { token: mapped.body.token })).body.cash).toBe(100_000);
    const home = await Promise.all(
      ['2001:db8:1:2::a', '2001:db8:1:2:ffff::1', '2001:0db8:0001:0002::b', '2001:db8:1:2::c'].map((address, i) =>
        app!.api('POST', '/auth/signup', { body: { email: `home-${i}@example.com`, password: 'secret1' }, headers: from(address) }),
      ),
    );
    const homeCash = await Promise.all(home.map(async (response) => (await app!.api('GET', '/company', { token: response.body.token })).body.cash as number));
    expect(homeCash.filter((dollars) => dollars === 500_000)).toHaveLength(3);

    // The throttled sign-ups used none of the 50: the next address still gets a bonus (3 + 3 granted so far).
    const neighbour = await app.api('POST', '/auth/signup', { body: { email: 'neighbour@example.com', password: 'secret1' }, headers: from('203.0.113.8') });
    expect((await app.api('GET', '/company', { token: neighbour.body.token })).body.cash).toBe(500_000);
    const granted = await app.database.db
      .select({ address: companies.signupAddress, cashCents: companies.startingCashCents, isBot: companies.isBot })
      .from(companies);
    expect(
      granted
        .filter((row) => !row.isBot && row.cashCents === BONUS_CENTS)
        .map((row) => row.address)
        .sort(),
    ).toEqual(['2001:db8:1:2::/64', '2001:db8:1:2::/64', '2001:db8:1:2::/64', '203.0.113.7', '203.0.113.7', '203.0.113.7', '203.0.113.8']);

    // The game's own machine is not capped: its sign-ups (a player at the console, scripted players) all get the bonus.
    const local = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        app!.api('POST', '/auth/signup', { body: { email: `console-${i}@example.com`, password: 'secret1' }, headers: from('127.0.0.1') }),
      ),
    );
    const localCash = await Promise.all(local.map(async (response) => (await app!.api('GET', '/company', { token: response.body.token })).body.cash as number));
    expect(localCash).toEqual(Array(5).fill(500_000));
  });

  it('the address a bonus is counted against: IPv4 as it is, IPv6 by its /64', () => {
    expect(signupAddressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(signupAddressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(signupAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(signupAddressKey('2001:DB8:0:0:1::1')).toBe('2001:db8:0:0::/64');
    expect(signupAddressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(signupAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(signupAddressKey('unknown')).toBe('unknown');
  });

  it('flat: everyone starts with $100,000, even the first player', async () => {
    app = await startTestApp({ env: { SIGNUP_BONUS: 'flat' } });
    const signup = await app.api('POST', '/auth/signup', { body: { email: 'first@example.com', password: 'secret1' } });
    expect(signup.status).toBe(200);
    const company = await app.api('GET', '/company', { token: signup.body.token });
    expect(company.status).toBe(200);
    const [row] = await app.database.db
      .select({ cashCents: companies.cashCents })
      .from(companies)
      .where(inArray(companies.userId, [signup.body.user.id]));
    expect(row?.cashCents).toBe(INITIAL_CENTS);
  });

  it('EARLY_BIRD_PLAYERS changes how many first players get the bonus: with 2, the third starts with $100,000', async () => {
    app = await startTestApp({ env: { EARLY_BIRD_PLAYERS: '2' } });
    const cashOf: number[] = [];
    for (const name of ['one', 'two', 'three']) {
      const signup = await app.api('POST', '/auth/signup', { body: { email: `${name}@example.com`, password: 'secret1' } });
      expect(signup.status).toBe(200);
      const [row] = await app.database.db
        .select({ cashCents: companies.cashCents })
        .from(companies)
        .where(inArray(companies.userId, [signup.body.user.id]));
      cashOf.push(row!.cashCents);
    }
    expect(cashOf).toEqual([BONUS_CENTS, BONUS_CENTS, INITIAL_CENTS]);
  });

  it('throttle: one address signs up at most SIGNUPS_PER_ADDRESS_PER_HOUR times an hour, whatever the concurrency (429, nothing written); others and later are fine', async () => {
    expect(SIGNUPS_PER_ADDRESS_PER_HOUR).toBe(30);
    expect(loadApiConfig({ DATABASE_URL: 'postgres://x@localhost/x' }).SIGNUPS_PER_ADDRESS_PER_HOUR).toBe(30);
    app = await startTestApp({ env: { SIGNUPS_PER_ADDRESS_PER_HOUR: '5', TRUST_PROXY_HOPS: '1' } });
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const countUsers = async () => (await app!.database.db.execute<{ n: number }>(sql`select count(*)::int as n from users`))[0]!.n;
    const before = await countUsers();
    // A script creating accounts: 12 at once from one address.
    const flood = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        app!.api('POST', '/auth/signup', { body: { email: `flood-${i}@example.com`, password: 'secret1' }, headers: from('198.51.100.9') }),
      ),
    );
    expect(flood.map((response) => response.status).sort()).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    const refused = flood.find((response) => response.status === 429)!;
    expect(refused.body).toEqual({ error: SIGNUP_THROTTLE_MESSAGE });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3_500);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    // Nothing of the refused ones was written: 5 users, 5 companies.
    expect(await countUsers()).toBe(before + 5);
    // Another address signs up.
    expect(
      (await app.api('POST', '/auth/signup', { body: { email: 'other-address@example.com', password: 'secret1' }, headers: from('198.51.100.10') })).status,
    ).toBe(200);
    // An hour later the address may sign up again.
    await app.database.db.execute(sql`update companies set founded_at = founded_at - interval '61 minutes' where signup_address = '198.51.100.9'`);
    expect(
      (await app.api('POST', '/auth/signup', { body: { email: 'next-hour@example.com', password: 'secret1' }, headers: from('198.51.100.9') })).status,
    ).toBe(200);
    // The game's own machine (its operator, test runs, drills) is not throttled.
    for (const address of ['127.0.0.1', '::1']) {
      const local = await Promise.all(
        Array.from({ length: 7 }, (_, i) =>
          app!.api('POST', '/auth/signup', {
            body: { email: `local-${address.replace(/\W/g, '')}-${i}@example.com`, password: 'secret1' },
            headers: from(address),
          }),
        ),
      );
      expect(local.map((response) => response.status)).toEqual(Array(7).fill(200));
    }
  });

  it('throttle: a proxy TRUST_PROXY_HOPS does not declare (its requests come from loopback with a forwarding header) gets no loopback exemption', async () => {
    // TRUST_PROXY_HOPS 0: the test's requests come from 127.0.0.1, as from nginx on the same host.
    app = await startTestApp({ env: { SIGNUPS_PER_ADDRESS_PER_HOUR: '3' } });
    const relayed = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        app!.api('POST', '/auth/signup', {
          body: { email: `relayed-${i}@example.com`, password: 'secret1' },
          headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
        }),
      ),
    );
    expect(relayed.map((response) => response.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    // The machine itself, without a proxy's header, still is exempt.
    const local = await Promise.all(
      Array.from({ length: 4 }, (_, i) => app!.api('POST', '/auth/signup', { body: { email: `console-${i}@example.com`, password: 'secret1' } })),
    );
    expect(local.map((response) => response.status)).toEqual(Array(4).fill(200));
  });
});
