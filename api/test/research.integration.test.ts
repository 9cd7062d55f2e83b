import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  buildingTypes,
  companies,
  companyResearch,
  companyResearchEffects,
  ledgerMismatches,
  researchUpgrades,
  transactions,
  type Database,
} from '@marketcraft/db';
import { effectsForBuildingType } from '@marketcraft/shared';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

type UpgradeValues = typeof researchUpgrades.$inferInsert;
async function createUpgrade(db: Database, values: Partial<UpgradeValues> & { costCents?: number }) {
  const name = values.name ?? `Upgrade ${Math.random().toString(36).slice(2, 9)}`;
  const [upgrade] = await db
    .insert(researchUpgrades)
    .values({
      name,
      description: values.description ?? 'Makes things better.',
      category: values.category ?? 'productivity',
      tier: values.tier ?? 1,
      researchCostCents: values.costCents ?? 1_000_000,
      prerequisiteId: values.prerequisiteId ?? null,
      buildingType: values.buildingType ?? null,
      effects: values.effects ?? { production_bonus: 10 },
    })
    .returning({ id: researchUpgrades.id });
  return { id: upgrade!.id, name };
}

async function anyBuildingType(db: Database): Promise<string> {
  const [existing] = await db.select({ type: buildingTypes.type }).from(buildingTypes).limit(1);
  if (existing) return existing.type;
  await db
    .insert(buildingTypes)
    .values({ type: 'farm', name: 'Farm', category: 'extraction', constructionCostCents: 5_000_000, baseCapacity: 100, weeklyOperatingCostCents: 100_000 })
    .onConflictDoNothing();
  return 'farm';
}

async function cashOf(db: Database, companyId: number): Promise<number> {
  const [row] = await db.select({ cash: companies.cashCents }).from(companies).where(eq(companies.id, companyId));
  return row!.cash;
}

describe('research API', () => {
  let app: TestApp;
  let db: Database;
  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists upgrades with cost, prerequisite, researched and locked; purchases follow the prerequisite', async () => {
    const player = await app.createPlayer({ cash: 100_000 });
    const basic = await createUpgrade(db, { costCents: 1_500_000, effects: { production_bonus: 10 } });
    const advanced = await createUpgrade(db, {
      costCents: 3_000_000,
      prerequisiteId: basic.id,
      tier: 2,
      category: 'efficiency',
      effects: { cost_reduction: 15 },
    });

    const list = await app.api('GET', '/research/upgrades', { token: player.token });
    expect(list.status).toBe(200);
    expect(list.body.find((upgrade: { id: number }) => upgrade.id === advanced.id)).toEqual({
      id: advanced.id,
      name: advanced.name,
      description: 'Makes things better.',
      category: 'efficiency',
      tier: 2,
      research_cost: 30_000,
      effective_cost: 30_000,
      prerequisite_id: basic.id,
      prerequisite_name: basic.name,
      building_type: null,
      effects: { cost_reduction: 15 },
      researched: false,
      locked: true,
    });

    expect(await app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: advanced.id } })).toMatchObject({
      status: 422,
      body: { error: `Research ${basic.name} first` },
    });
    const bought = await app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: basic.id } });
    expect(bought).toMatchObject({ status: 200, body: { upgrade_id: basic.id, name: basic.name, cost: 15_000, discount_percent: 0, cash: 85_000 } });
    expect(await app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: basic.id } })).toMatchObject({
      status: 409,
      body: { error: `${basic.name} is already researched` },
    });
    expect((await app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: advanced.id } })).status).toBe(200);
    expect((await app.api('GET', '/research/company', { token: player.token })).body).toEqual([basic.id, advanced.id]);
    const after = await app.api('GET', '/research/upgrades', { token: player.token });
    expect(after.body.find((upgrade: { id: number }) => upgrade.id === advanced.id)).toMatchObject({ researched: true, locked: false });
    const [ledger] = await db.select().from(transactions).where(eq(transactions.companyId, player.companyId)).limit(1);
    expect(ledger).toMatchObject({ type: 'other', reason: 'research', amountCents: -1_500_000 });
    expect(await cashOf(db, player.companyId)).toBe(5_500_000);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('applies research_discount, summed and capped at 50%', async () => {
    const player = await app.createPlayer({ cash: 1_000_000 });
    const discountA = await createUpgrade(db, { costCents: 100_000, category: 'efficiency', effects: { research_discount: 30 } });
    const discountB = await createUpgrade(db, { costCents: 100_000, category: 'efficiency', effects: { research_discount: 40 } });
    const target = await createUpgrade(db, { costCents: 10_000_000 });
    await app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: discountA.id } });
    let list = await app.api('GET', '/research/upgrades', { token: player.token });
    expect(list.body.find((upgrade: { id: number }) => upgrade.id === target.id)).toMatchObject({ research_cost: 100_000, effective_cost: 70_000 });
    const second = await app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: discountB.id } });
    expect(second.body).toMatchObject({ cost: 700, discount_percent: 30 });
    list = await app.api('GET', '/research/upgrades', { token: player.token });
    expect(list.body.find((upgrade: { id: number }) => upgrade.id === target.id)).toMatchObject({ effective_cost: 50_000 });
    const bought = await app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: target.id } });
    expect(bought.body).toMatchObject({ cost: 50_000, discount_percent: 50 });
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('refuses unknown upgrades (404), invalid ids (400), too little cash (409) and anonymous calls (401)', async () => {
    const player = await app.createPlayer({ cash: 100 });
    const upgrade = await createUpgrade(db, { costCents: 1_000_000 });
    expect(await app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: 99_999_999 } })).toMatchObject({
      status: 404,
      body: { error: 'No research upgrade found with id 99999999' },
    });
    for (const upgradeId of [0, -1, 1.5, 'abc', null]) {
      expect((await app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: upgradeId } })).status).toBe(400);
    }
    expect(await app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: upgrade.id } })).toMatchObject({
      status: 409,
      body: { error: 'Not enough cash: this costs $10,000.00 and you have $100.00' },
    });
    expect((await app.api('GET', '/research/company', { token: player.token })).body).toEqual([]);
    for (const path of ['/research/upgrades', '/research/company']) expect((await app.api('GET', path)).status).toBe(401);
    expect((await app.api('POST', '/research/purchase', { body: { upgrade_id: upgrade.id } })).status).toBe(401);
  });

  it('parallel purchases of the same upgrade charge once', async () => {
    const player = await app.createPlayer({ cash: 100_000 });
    const upgrade = await createUpgrade(db, { costCents: 2_000_000 });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: upgrade.id } })),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(19);
    expect(await cashOf(db, player.companyId)).toBe(8_000_000);
    expect(await db.select().from(companyResearch).where(eq(companyResearch.companyId, player.companyId))).toHaveLength(1);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('companyResearchEffects sums effects globally and per building type', async () => {
    const player = await app.createPlayer({ cash: 1_000_000 });
    const type = await anyBuildingType(db);
    const global1 = await createUpgrade(db, { costCents: 100, effects: { production_bonus: 10, unlock_feature: 'bulk_trading' } });
    const global2 = await createUpgrade(db, { costCents: 100, effects: { production_bonus: 5, automation: true } });
    const typed = await createUpgrade(db, { costCents: 100, buildingType: type, effects: { production_bonus: 25 } });
    for (const upgrade of [global1, global2, typed]) {
      expect((await app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: upgrade.id } })).status).toBe(200);
    }
    const effects = await companyResearchEffects(db, player.companyId);
    expect(effects).toEqual({ all: { production_bonus: 15, automation: 1 }, byBuildingType: { [type]: { production_bonus: 25 } }, features: ['bulk_trading'] });
    expect(effectsForBuildingType(effects, type)).toEqual({ production_bonus: 40, automation: 1 });
    expect(effectsForBuildingType(effects, 'no_such_type')).toEqual({ production_bonus: 15, automation: 1 });
  });
});
