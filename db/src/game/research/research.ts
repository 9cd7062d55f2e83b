/**
 * Research: the upgrade catalogue as one company sees it, buying an upgrade (prerequisite first,
 * once only, at the cost after the company's research_discount, capped at 50%), and the summed
 * effects of a company's research for the turn engine and the building screens.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  GameError,
  centsToDollars,
  discountedResearchCostCents,
  researchDiscountPercent,
  sumResearchEffects,
  type ResearchEffects,
  type BuildingType,
  type ResearchPurchaseResult,
  type ResearchUpgradeView,
  type ResearchEffectValue,
} from '@marketcraft/shared';
import { companyResearch, researchUpgrades } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';
import { sqlTemplate } from '../../sqlTemplate.ts';
import { changeCashOfMany } from '../books/ledger.ts';
import { NO_COMPANY, Purses, applied, idList, inOneRoundTrip, inTransaction, lockCompanies, refused, type Outcome, type PlayerAction } from '../action.ts';

/**
 * The summed effects of every upgrade the company researched:
 * `{ all: {production_bonus: 10, ...}, byBuildingType: {farm: {production_bonus: 25}}, features: [...] }`.
 * `all` holds upgrades without a building type (they apply to every building); `byBuildingType`
 * holds the type-restricted ones only. Use `effectsForBuildingType(effects, type)` from
 * @marketcraft/shared for one building. Values are percents as stored in the upgrade's effects.
 */
export async function companyResearchEffects(db: DbExecutor, companyId: number): Promise<ResearchEffects> {
  const rows = await db
    .select({ buildingType: researchUpgrades.buildingType, effects: researchUpgrades.effects })
    .from(companyResearch)
    .innerJoin(researchUpgrades, eq(researchUpgrades.id, companyResearch.upgradeId))
    .where(eq(companyResearch.companyId, companyId));
  return sumResearchEffects(rows);
}

/** The company's research discount in percent (0-50). */
async function companyResearchDiscount(db: DbExecutor, companyId: number): Promise<number> {
  return researchDiscountPercent(await companyResearchEffects(db, companyId));
}

/** GET /api/research/upgrades: every upgrade, with this company's price and state. */
export async function listResearchUpgrades(db: DbExecutor, companyId: number): Promise<ResearchUpgradeView[]> {
  const prerequisite = alias(researchUpgrades, 'prerequisite');
  const [rows, researched, discount] = await Promise.all([
    db
      .select({
        id: researchUpgrades.id,
        name: researchUpgrades.name,
        description: researchUpgrades.description,
        category: researchUpgrades.category,
        tier: researchUpgrades.tier,
        researchCostCents: researchUpgrades.researchCostCents,
        prerequisiteId: researchUpgrades.prerequisiteId,
        prerequisiteName: prerequisite.name,
        buildingType: researchUpgrades.buildingType,
        effects: researchUpgrades.effects,
      })
      .from(researchUpgrades)
      .leftJoin(prerequisite, eq(prerequisite.id, researchUpgrades.prerequisiteId))
      .orderBy(asc(researchUpgrades.tier), asc(researchUpgrades.id)),
    researchedUpgradeIds(db, companyId),
    companyResearchDiscount(db, companyId),
  ]);
  const done = new Set(researched);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    tier: row.tier,
    research_cost: centsToDollars(row.researchCostCents),
    effective_cost: centsToDollars(discountedResearchCostCents(row.researchCostCents, discount)),
    prerequisite_id: row.prerequisiteId,
    prerequisite_name: row.prerequisiteName,
    building_type: row.buildingType as BuildingType | null, // a foreign key to building_types
    effects: row.effects,
    researched: done.has(row.id),
    locked: row.prerequisiteId !== null && !done.has(row.prerequisiteId),
  }));
}

/** GET /api/research/company: the ids of the upgrades the company researched. */
/** researchedUpgradeIds' query, built once (sqlTemplate): building it with drizzle on every call cost more CPU than running it. */
const researchedUpgradeIdsSql = sqlTemplate<'companyId'>(
  (slot) =>
    sql`select ${companyResearch.upgradeId} as upgrade_id from ${companyResearch} where ${companyResearch.companyId} = ${slot('companyId')}::int order by 1`,
);

/** GET /api/research/company: the ids of the upgrades the company researched, in id order. */
export async function researchedUpgradeIds(db: DbExecutor, companyId: number): Promise<number[]> {
  const rows = await db.execute<{ upgrade_id: number }>(researchedUpgradeIdsSql({ companyId }));
  return rows.map((row) => Number(row.upgrade_id));
}

/**
 * POST /api/research/purchase, the player action: researches an upgrade for the company,
 * permanently: its prerequisite researched first, never twice, at its cost less the company's
 * research discount (which an upgrade researched earlier in the list already counts). Set-based
 * over the list: the companies locked, each request decided in order, one insert and one cash
 * statement.
 */
export const purchaseResearch: PlayerAction<{ upgrade_id: number }, ResearchPurchaseResult> = (db, requests) =>
  inTransaction(db, async (tx) => {
    const companyIds = requests.map((request) => request.companyId);
    // One round trip: the companies locked, then the upgrades and what the companies researched.
    const [companies, upgradeRows, researchedRows] = await inOneRoundTrip(
      lockCompanies(tx, companyIds),
      tx.execute<{
        id: number;
        name: string;
        cost_cents: number;
        prerequisite_id: number | null;
        prerequisite_name: string | null;
        building_type: string | null;
        effects: Record<string, ResearchEffectValue>;
      }>(sql`
      select u.id, u.name, u.research_cost_cents as cost_cents, u.prerequisite_id, p.name as prerequisite_name, u.building_type, u.effects
      from research_upgrades u left join research_upgrades p on p.id = u.prerequisite_id
      where u.id in ${idList(requests.map((request) => request.input.upgrade_id))}`),
      tx.execute<{
        company_id: number;
        upgrade_id: number;
        building_type: string | null;
        effects: Record<string, ResearchEffectValue>;
      }>(sql`
        select r.company_id, r.upgrade_id, u.building_type, u.effects from company_research r join research_upgrades u on u.id = r.upgrade_id
        where r.company_id in ${idList(companyIds)}`),
    );
    const upgrades = new Map(upgradeRows.map((row) => [Number(row.id), row]));
    const researched = new Map<number, Map<number, { buildingType: string | null; effects: Record<string, ResearchEffectValue> }>>();
    for (const company of companies.keys()) researched.set(company, new Map());
    for (const row of researchedRows)
      researched.get(Number(row.company_id))!.set(Number(row.upgrade_id), { buildingType: row.building_type, effects: row.effects });
    const purses = new Purses(companies);
    const added: { companyId: number; upgradeId: number; costCents: number; name: string }[] = [];
    const outcomes = requests.map(({ companyId, input }): Outcome<ResearchPurchaseResult> => {
      const done = researched.get(companyId);
      if (!done) return refused(new GameError('NOT_FOUND', NO_COMPANY));
      const upgrade = upgrades.get(input.upgrade_id);
      if (!upgrade) return refused(new GameError('NOT_FOUND', `No research upgrade found with id ${input.upgrade_id}`));
      if (upgrade.prerequisite_id !== null && !done.has(Number(upgrade.prerequisite_id)))
        return refused(new GameError('RULE_BROKEN', `Research ${upgrade.prerequisite_name} first`));
      const discount = researchDiscountPercent(sumResearchEffects([...done.values()]));
      const costCents = discountedResearchCostCents(Number(upgrade.cost_cents), discount);
      if (done.has(upgrade.id)) return refused(new GameError('CONFLICT', `${upgrade.name} is already researched`));
      const short = purses.spend(companyId, costCents);
      if (short) return refused(short);
      done.set(upgrade.id, { buildingType: upgrade.building_type, effects: upgrade.effects });
      added.push({ companyId, upgradeId: upgrade.id, costCents, name: upgrade.name });
      return applied({
        upgrade_id: upgrade.id,
        name: upgrade.name,
        cost: centsToDollars(costCents),
        discount_percent: discount,
        cash: centsToDollars(purses.of(companyId)),
      });
    });
    if (added.length > 0) {
      const values = sql.join(
        added.map((row) => sql`(${companies.get(row.companyId)!.worldId}::int, ${row.companyId}::int, ${row.upgradeId}::int)`),
        sql`, `,
      );
      await tx.execute(sql`
        insert into company_research (world_id, company_id, upgrade_id, researched_week)
        select v.world_id, v.company_id, v.upgrade_id, (select current_week from worlds w where w.id = v.world_id) from (values ${values}) as v(world_id, company_id, upgrade_id)`);
      await changeCashOfMany(
        tx,
        added.map((row) => ({
          companyId: row.companyId,
          amountCents: -row.costCents,
          type: 'other' as const,
          reason: 'research',
          description: `Research: ${row.name}`,
        })),
      );
    }
    return outcomes;
  });
