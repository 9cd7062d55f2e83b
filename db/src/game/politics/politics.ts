/**
 * Politics: countries, a company's influence, political events, and investing in influence.
 * One unit costs INFLUENCE_UNIT_COST ($1,000) and adds INFLUENCE_POINTS_PER_UNIT (10) points in
 * that country; a company's influence in a country is capped at MAX_INFLUENCE_POINTS (1,000, the
 * spec's full bar), and an investment that would pass the cap is refused before any money moves.
 */
import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import {
  GameError,
  INFLUENCE_POINTS_PER_UNIT,
  INFLUENCE_UNIT_COST,
  MAX_INFLUENCE_POINTS,
  POLITICAL_EVENTS_LIST_SIZE,
  centsToDollars,
  dollarsToCents,
  formatDollars,
  type PoliticalPlatform,
  type PoliticalEventType,
  type CountryView,
  type InfluenceView,
  type InvestResult,
  type PoliticalEventView,
} from '@marketcraft/shared';
import { countries, influenceRecords, politicalEvents, worldCountries } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';
import { changeCashOfMany, type CashChange } from '../books/ledger.ts';
import { currentWeek } from '../clock/state.ts';
import { NO_COMPANY, Purses, applied, idList, inOneRoundTrip, inTransaction, lockCompanies, refused, type Outcome, type PlayerAction } from '../action.ts';

/** GET /api/countries: every country with its tax rate in the world. */
export async function listCountries(db: DbExecutor, worldId: number): Promise<CountryView[]> {
  const rows = await db
    .select({ id: countries.id, name: countries.name, taxRate: worldCountries.taxRate })
    .from(countries)
    .innerJoin(worldCountries, and(eq(worldCountries.worldId, worldId), eq(worldCountries.countryId, countries.id)))
    .orderBy(asc(countries.name));
  return rows.map((row) => ({ id: row.id, name: row.name, tax_rate: row.taxRate }));
}

/** GET /api/influence: the company's influence records. */
export async function listInfluence(db: DbExecutor, companyId: number): Promise<InfluenceView[]> {
  const rows = await db
    .select({
      countryId: influenceRecords.countryId,
      countryName: countries.name,
      points: influenceRecords.influencePoints,
      platform: influenceRecords.platform,
    })
    .from(influenceRecords)
    .innerJoin(countries, eq(countries.id, influenceRecords.countryId))
    .where(eq(influenceRecords.companyId, companyId))
    .orderBy(asc(countries.name));
  return rows.map((row) => ({
    country_id: row.countryId,
    country_name: row.countryName,
    influence_points: row.points,
    platform: row.platform as PoliticalPlatform,
  }));
}

const eventColumns = {
  id: politicalEvents.id,
  countryId: politicalEvents.countryId,
  countryName: countries.name,
  eventType: politicalEvents.eventType,
  description: politicalEvents.description,
  activeUntilWeek: politicalEvents.activeUntilWeek,
  createdAt: politicalEvents.createdAt,
};

function toEventView(row: {
  id: number;
  countryId: number;
  countryName: string;
  eventType: PoliticalEventType;
  description: string;
  activeUntilWeek: number;
  createdAt: Date;
}): PoliticalEventView {
  return {
    id: row.id,
    country_id: row.countryId,
    country_name: row.countryName,
    event_type: row.eventType,
    description: row.description,
    active_until_week: row.activeUntilWeek,
    created_at: row.createdAt.toISOString(),
  };
}

/** GET /api/events: events still active this week (active_until_week >= current week), newest first. */
export async function listActiveEvents(db: DbExecutor, worldId: number): Promise<PoliticalEventView[]> {
  const week = await currentWeek(db, worldId);
  const rows = await db
    .select(eventColumns)
    .from(politicalEvents)
    .innerJoin(countries, eq(countries.id, politicalEvents.countryId))
    .where(and(eq(politicalEvents.worldId, worldId), gte(politicalEvents.activeUntilWeek, week)))
    .orderBy(desc(politicalEvents.createdAt), desc(politicalEvents.id));
  return rows.map(toEventView);
}

/** GET /api/political-events: the latest 20 events, active or not, newest first. */
export async function listRecentEvents(db: DbExecutor, worldId: number, limit = POLITICAL_EVENTS_LIST_SIZE): Promise<PoliticalEventView[]> {
  const rows = await db
    .select(eventColumns)
    .from(politicalEvents)
    .innerJoin(countries, eq(countries.id, politicalEvents.countryId))
    .where(eq(politicalEvents.worldId, worldId))
    .orderBy(desc(politicalEvents.createdAt), desc(politicalEvents.id))
    .limit(limit);
  return rows.map(toEventView);
}

/**
 * POST /api/politics/invest, the player action: `amount` must be a positive whole number of $1,000
 * units. The company's influence in the country backs `platform` (default lower taxes); investing
 * with the other platform moves all its points there to that platform. Set-based over the list: the
 * companies locked (then the influence rows, which an election week's turn halves, as the turn
 * does), each request decided in order on the points the earlier ones left, one upsert and one cash
 * statement.
 */
export const investInPolitics: PlayerAction<{ country_id: number; amount: number; platform?: PoliticalPlatform | undefined }, InvestResult> = (db, requests) =>
  inTransaction(db, async (tx) => {
    const companyIds = requests.map((request) => request.companyId);
    const countryIds = requests.map((request) => request.input.country_id);
    // One round trip: the companies locked, then the countries read and the influence rows locked.
    const [companies, countryRows, recordRows] = await inOneRoundTrip(
      lockCompanies(tx, companyIds),
      tx.execute<{ id: number; name: string }>(sql`select id, name from countries where id in ${idList(countryIds)}`),
      tx.execute<{ company_id: number; country_id: number; influence_points: number; platform: PoliticalPlatform }>(sql`
        select company_id, country_id, influence_points, platform from influence_records
        where company_id in ${idList(companyIds)} and country_id in ${idList(countryIds)}
        order by company_id, country_id for update`),
    );
    const countryName = new Map(countryRows.map((row) => [Number(row.id), row.name]));
    const records = new Map(recordRows.map((row) => [`${row.company_id}:${row.country_id}`, { points: Number(row.influence_points), platform: row.platform }]));
    const changed = new Map<string, { points: number; platform: PoliticalPlatform }>();
    const purses = new Purses(companies);
    const cash: CashChange[] = [];
    const outcomes = requests.map(({ companyId, input }): Outcome<InvestResult> => {
      const platform = input.platform ?? 'lower_taxes';
      const units = input.amount / INFLUENCE_UNIT_COST;
      if (!Number.isSafeInteger(units) || units <= 0)
        return refused(new GameError('INVALID_INPUT', `Amount must be a whole number of units of ${formatDollars(INFLUENCE_UNIT_COST)}`));
      const name = countryName.get(input.country_id);
      if (name === undefined) return refused(new GameError('NOT_FOUND', `No country found with id ${input.country_id}`));
      const pointsAdded = units * INFLUENCE_POINTS_PER_UNIT;
      if (pointsAdded > MAX_INFLUENCE_POINTS) return refused(new GameError('RULE_BROKEN', influenceCapMessage(name, 0)));
      if (!companies.has(companyId)) return refused(new GameError('NOT_FOUND', NO_COMPANY));
      const key = `${companyId}:${input.country_id}`;
      const current = records.get(key)?.points ?? 0;
      if (current + pointsAdded > MAX_INFLUENCE_POINTS) return refused(new GameError('RULE_BROKEN', influenceCapMessage(name, current)));
      const amountCents = dollarsToCents(units * INFLUENCE_UNIT_COST);
      const short = purses.spend(companyId, amountCents);
      if (short) return refused(short);
      const record = { points: current + pointsAdded, platform };
      records.set(key, record);
      changed.set(key, record);
      cash.push({
        companyId,
        amountCents: -amountCents,
        type: 'other',
        reason: 'politics',
        description: `Political investment in ${name}: ${units} ${units === 1 ? 'unit' : 'units'} for ${platform === 'lower_taxes' ? 'lower' : 'higher'} taxes`,
        ref: { countryId: input.country_id },
      });
      return applied({
        country_id: input.country_id,
        country_name: name,
        units,
        amount: centsToDollars(amountCents),
        points_added: pointsAdded,
        influence_points: record.points,
        platform,
        cash: centsToDollars(purses.of(companyId)),
      });
    });
    if (changed.size > 0) {
      const values = sql.join(
        [...changed].map(([key, record]) => {
          const [companyId, countryId] = key.split(':').map(Number) as [number, number];
          return sql`(${companies.get(companyId)!.worldId}::int, ${companyId}::int, ${countryId}::int, ${record.points}::int, ${record.platform}::text)`;
        }),
        sql`, `,
      );
      await tx.execute(sql`
        insert into influence_records (world_id, company_id, country_id, influence_points, platform) values ${values}
        on conflict (world_id, company_id, country_id) do update set influence_points = excluded.influence_points, platform = excluded.platform`);
      await changeCashOfMany(tx, cash);
    }
    return outcomes;
  });

function influenceCapMessage(countryName: string, currentPoints: number): string {
  const roomUnits = Math.floor((MAX_INFLUENCE_POINTS - currentPoints) / INFLUENCE_POINTS_PER_UNIT);
  if (roomUnits <= 0) return `Your influence in ${countryName} is already at the maximum of ${MAX_INFLUENCE_POINTS.toLocaleString('en-US')} points`;
  return `Influence in ${countryName} is capped at ${MAX_INFLUENCE_POINTS.toLocaleString('en-US')} points: you can invest at most ${roomUnits} more ${roomUnits === 1 ? 'unit' : 'units'} (${formatDollars(roomUnits * INFLUENCE_UNIT_COST)})`;
}
