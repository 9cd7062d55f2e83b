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
} from '@marketcraft/shared';
import { companyResearch, researchUpgrades } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';
import { sqlTemplate } from '../../sqlTemplate.ts';
import { changeCash } from '../books/ledger.ts';
import { currentWeek, lockCompanyInWorld } from '../worlds/state.ts';

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
  (slot) => sql`select ${companyResearch.upgradeId} as upgrade_id from ${companyResearch} where ${companyResearch.companyId} = ${slot('companyId')}::int order by 1`,
);

/** GET /api/research/company: the ids of the upgrades the company researched, in id order. */
export async function researchedUpgradeIds(db: DbExecutor, companyId: number): Promise<number[]> {
  const rows = await db.execute<{ upgrade_id: number }>(researchedUpgradeIdsSql({ companyId }));
  return rows.map((row) => Number(row.upgrade_id));
}

/** POST /api/research/purchase: researches one upgrade for the company, permanently. */
export async function purchaseResearch(db: DbExecutor, input: { companyId: number; upgradeId: number }): Promise<ResearchPurchaseResult> {
  return db.transaction(async (tx) => {
    // The company row first, as the turn locks it: everything below (the week included) is read after
    // any turn that held it has committed, not in the week that turn closed.
    const worldId = await lockCompanyInWorld(tx, input.companyId);
    const [upgrade] = await tx
      .select({ id: researchUpgrades.id, name: researchUpgrades.name, costCents: researchUpgrades.researchCostCents, prerequisiteId: researchUpgrades.prerequisiteId })
      .from(researchUpgrades)
      .where(eq(researchUpgrades.id, input.upgradeId));
    if (!upgrade) throw new GameError('NOT_FOUND', `No research upgrade found with id ${input.upgradeId}`);
    if (upgrade.prerequisiteId !== null) {
      const [prerequisite] = await tx.execute<{ name: string; researched: boolean }>(sql`
        select u.name, exists (select 1 from company_research r where r.company_id = ${input.companyId} and r.upgrade_id = u.id) as researched
        from research_upgrades u where u.id = ${upgrade.prerequisiteId}`);
      if (prerequisite && !prerequisite.researched) throw new GameError('RULE_BROKEN', `Research ${prerequisite.name} first`);
    }
    const discount = await companyResearchDiscount(tx, input.companyId);
    const costCents = discountedResearchCostCents(upgrade.costCents, discount);
    // The primary key makes a second purchase (even a concurrent one) insert nothing.
    const inserted = await tx
      .insert(companyResearch)
      .values({ worldId, companyId: input.companyId, upgradeId: upgrade.id, researchedWeek: await currentWeek(tx, worldId) })
      .onConflictDoNothing()
      .returning({ upgradeId: companyResearch.upgradeId });
    if (inserted.length === 0) throw new GameError('CONFLICT', `${upgrade.name} is already researched`);
    const cashCents = await changeCash(tx, {
      companyId: input.companyId,
      amountCents: -costCents,
      type: 'other',
      reason: 'research',
      description: `Research: ${upgrade.name}`,
    });
    return { upgrade_id: upgrade.id, name: upgrade.name, cost: centsToDollars(costCents), discount_percent: discount, cash: centsToDollars(cashCents) };
  });
}
