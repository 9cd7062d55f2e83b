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
import { changeCash } from '../books/ledger.ts';
import { currentWeek, lockCompanyInWorld } from '../worlds/state.ts';

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
    .select({ countryId: influenceRecords.countryId, countryName: countries.name, points: influenceRecords.influencePoints, platform: influenceRecords.platform })
    .from(influenceRecords)
    .innerJoin(countries, eq(countries.id, influenceRecords.countryId))
    .where(eq(influenceRecords.companyId, companyId))
    .orderBy(asc(countries.name));
  return rows.map((row) => ({ country_id: row.countryId, country_name: row.countryName, influence_points: row.points, platform: row.platform as PoliticalPlatform }));
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

function toEventView(row: { id: number; countryId: number; countryName: string; eventType: PoliticalEventType; description: string; activeUntilWeek: number; createdAt: Date }): PoliticalEventView {
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
 * POST /api/politics/invest: `amountDollars` must be a positive whole number of $1,000 units. The
 * company's influence in the country backs `platform` (default lower taxes); investing with the
 * other platform moves all its points there to that platform.
 */
export async function investInPolitics(
  db: DbExecutor,
  input: { companyId: number; countryId: number; amountDollars: number; platform?: PoliticalPlatform },
): Promise<InvestResult> {
  const platform = input.platform ?? 'lower_taxes';
  const units = input.amountDollars / INFLUENCE_UNIT_COST;
  if (!Number.isSafeInteger(units) || units <= 0) {
    throw new GameError('INVALID_INPUT', `Amount must be a whole number of units of ${formatDollars(INFLUENCE_UNIT_COST)}`);
  }
  const [country] = await db.select({ id: countries.id, name: countries.name }).from(countries).where(eq(countries.id, input.countryId));
  if (!country) throw new GameError('NOT_FOUND', `No country found with id ${input.countryId}`);
  const pointsAdded = units * INFLUENCE_POINTS_PER_UNIT;
  if (pointsAdded > MAX_INFLUENCE_POINTS) {
    throw new GameError('RULE_BROKEN', influenceCapMessage(country.name, 0));
  }
  const amountCents = dollarsToCents(units * INFLUENCE_UNIT_COST);
  return db.transaction(async (tx) => {
    // The company row first, as the turn locks it (then the influence rows, which an election week's
    // turn halves): taken the other way round, an investment during that turn held its influence
    // row while waiting for the company, the turn waited for the influence row, and PostgreSQL broke
    // the deadlock by failing one of them (a 500, or the turn, again at each retry).
    const worldId = await lockCompanyInWorld(tx, input.companyId);
    // Insert or add in one statement; the row lock serialises concurrent investments in the country.
    const [record] = await tx.execute<{ influence_points: number }>(sql`
      insert into influence_records (world_id, company_id, country_id, influence_points, platform)
      values (${worldId}::int, ${input.companyId}::int, ${country.id}::int, ${pointsAdded}::int, ${platform})
      on conflict (world_id, company_id, country_id) do update
        set influence_points = influence_records.influence_points + excluded.influence_points, platform = excluded.platform
        where influence_records.influence_points + excluded.influence_points <= ${MAX_INFLUENCE_POINTS}
      returning influence_points`);
    if (!record) {
      const [current] = await tx
        .select({ points: influenceRecords.influencePoints })
        .from(influenceRecords)
        .where(sql`${influenceRecords.companyId} = ${input.companyId} and ${influenceRecords.countryId} = ${country.id}`);
      throw new GameError('RULE_BROKEN', influenceCapMessage(country.name, current?.points ?? 0));
    }
    const cashCents = await changeCash(tx, {
      companyId: input.companyId,
      amountCents: -amountCents,
      type: 'other',
      reason: 'politics',
      description: `Political investment in ${country.name}: ${units} ${units === 1 ? 'unit' : 'units'} for ${platform === 'lower_taxes' ? 'lower' : 'higher'} taxes`,
      ref: { countryId: country.id },
    });
    return {
      country_id: country.id,
      country_name: country.name,
      units,
      amount: centsToDollars(amountCents),
      points_added: pointsAdded,
      influence_points: Number(record.influence_points),
      platform,
      cash: centsToDollars(cashCents),
    };
  });
}

function influenceCapMessage(countryName: string, currentPoints: number): string {
  const roomUnits = Math.floor((MAX_INFLUENCE_POINTS - currentPoints) / INFLUENCE_POINTS_PER_UNIT);
  if (roomUnits <= 0) return `Your influence in ${countryName} is already at the maximum of ${MAX_INFLUENCE_POINTS.toLocaleString('en-US')} points`;
  return `Influence in ${countryName} is capped at ${MAX_INFLUENCE_POINTS.toLocaleString('en-US')} points: you can invest at most ${roomUnits} more ${roomUnits === 1 ? 'unit' : 'units'} (${formatDollars(roomUnits * INFLUENCE_UNIT_COST)})`;
}
