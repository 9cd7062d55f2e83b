/**
 * The building actions, each one function over a list of requests (action.ts, docs/actions.md):
 * build, hire, equipment, production rate, recipe, category, sell. Money is integer cents; every
 * cash change is a ledger row written in the same statement as the conditional cash update.
 *
 * Lock order (as the turn and every other action): the companies' rows in id order, then the
 * buildings' rows, then stock rows.
 */
import { sql } from 'drizzle-orm';
import {
  BUILDING_TYPES,
  GameError,
  MAX_EQUIPMENT_LEVEL,
  dollarsToCents,
  equipmentUpgradeCost,
  hireCost,
  isBuildingType,
  type BuildBuildingInput,
  type BuildingTypeSpec,
  type HireEmployeesInput,
  type ProductCategory,
  type ProductionRateInput,
  type UpgradeEquipmentInput,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { changeCashOfMany, type CashChange } from '../books/ledger.ts';
import {
  NO_COMPANY,
  Purses,
  applied,
  idList,
  inOneRoundTrip,
  inTransaction,
  lockCompanies,
  oneByOne,
  refused,
  type ActionRequest,
  type LockedCompany,
  type Outcome,
  type PlayerAction,
} from '../action.ts';
import { BUILDING_NOT_FOUND, sellOneBuilding } from './buildings.ts';
import type { SellBuildingResult } from '@marketcraft/shared';

/** What a building action changed: the building (the API answers its view, buildingView). */
export interface BuildingChanged {
  building_id: number;
}

/** A building of the list, read under its row lock. */
export interface LockedBuilding {
  id: number;
  companyId: number;
  worldId: number;
  type: string;
  spec: BuildingTypeSpec;
  cityName: string;
  employees: number;
  equipmentLevel: number;
}

/**
 * Locks the list's companies (id order), then their buildings the list names (id order), and reads
 * them. Only the locked companies' buildings: another company's building is never locked without its
 * company (the turn's order), and answers like an unknown id.
 */
export async function lockBuildings(
  db: DbExecutor,
  requests: readonly ActionRequest<{ id: number }>[],
): Promise<{ companies: Map<number, LockedCompany>; buildings: Map<number, LockedBuilding> }> {
  const companyIds = requests.map((request) => request.companyId);
  const ids = [...new Set(requests.map((request) => request.input.id))].sort((a, b) => a - b);
  // The companies' locks, then the buildings', in one round trip.
  const [companies, rows] = await inOneRoundTrip(
    lockCompanies(db, companyIds),
    db.execute<{
      id: number;
      company_id: number;
      world_id: number;
      type: string;
      city_name: string;
      employees: number;
      equipment_level: number;
    }>(sql`
      select b.id, b.company_id, b.world_id, b.type, c.name as city_name, b.employees, b.equipment_level
      from buildings b join cities c on c.id = b.city_id
      where b.id in ${idList(ids)} and b.company_id in ${idList(companyIds)} order by b.id for update of b`),
  );
  const buildings = new Map<number, LockedBuilding>();
  for (const row of rows) {
    if (!isBuildingType(row.type)) continue;
    buildings.set(Number(row.id), {
      id: Number(row.id),
      companyId: Number(row.company_id),
      worldId: Number(row.world_id),
      type: row.type,
      spec: BUILDING_TYPES[row.type],
      cityName: row.city_name,
      employees: Number(row.employees),
      equipmentLevel: Number(row.equipment_level),
    });
  }
  return { companies, buildings };
}

/** The request's building if it is its company's (another company's answers like an unknown id). */
export function ownBuilding(buildings: ReadonlyMap<number, LockedBuilding>, request: ActionRequest<{ id: number }>): LockedBuilding | GameError {
  const building = buildings.get(request.input.id);
  if (!building || building.companyId !== request.companyId) return new GameError('NOT_FOUND', BUILDING_NOT_FOUND);
  return building;
}

/** `update buildings set <column> = v.value from (values (id, value), ...)`: the last value of each building wins. */
async function setBuildingColumn(
  db: DbExecutor,
  column: 'employees' | 'equipment_level' | 'production_rate' | 'selected_recipe_id' | 'selected_category',
  values: ReadonlyMap<number, number | string>,
  cast: 'int' | 'text',
): Promise<void> {
  if (values.size === 0) return;
  const rows = sql.join(
    [...values].map(([id, value]) => sql`(${id}::int, ${value}::${sql.raw(cast)})`),
    sql`, `,
  );
  await db.execute(sql`update buildings b set ${sql.raw(column)} = v.value from (values ${rows}) as v(id, value) where b.id = v.id`);
}

/**
 * POST /buildings: pays the type's construction cost (ledger building/build) and builds it in the
 * city. Extraction buildings start with their type's first extraction recipe (lowest id) selected.
 */
export const buildBuilding: PlayerAction<BuildBuildingInput, BuildingChanged> = (db, requests) =>
  inTransaction(db, async (tx) => {
    // One round trip: the catalogue's facts need nothing the lock reads.
    const [companies, facts] = await inOneRoundTrip(
      lockCompanies(
        tx,
        requests.map((request) => request.companyId),
      ),
      tx.execute<{ city_id: number; city_name: string; type: string; first_recipe_id: number | null }>(sql`
        select c.id as city_id, c.name as city_name, t.type,
               (select min(r.id) from recipes r where lower(r.building_type) = lower(t.type))::int as first_recipe_id
        from cities c cross join (select distinct type from jsonb_to_recordset(${JSON.stringify(requests.map((request) => ({ type: request.input.type })))}::jsonb) as t(type text)) t
        where c.id in ${idList(requests.map((request) => request.input.city_id))}`),
    );
    const cityName = new Map(facts.map((row) => [Number(row.city_id), row.city_name]));
    const firstRecipe = new Map(facts.map((row) => [row.type, row.first_recipe_id === null ? null : Number(row.first_recipe_id)]));
    const purses = new Purses(companies);
    const outcomes: (Outcome<BuildingChanged> | null)[] = [];
    const built: { seq: number; companyId: number; worldId: number; type: string; cityId: number; recipeId: number | null; costCents: number }[] = [];
    requests.forEach((request, seq) => {
      const company = companies.get(request.companyId);
      if (!company) return outcomes.push(refused(new GameError('NOT_FOUND', NO_COMPANY)));
      if (!cityName.has(request.input.city_id)) return outcomes.push(refused(new GameError('NOT_FOUND', 'City not found')));
      const spec = BUILDING_TYPES[request.input.type];
      const costCents = dollarsToCents(spec.constructionCost);
      const short = purses.spend(request.companyId, costCents);
      if (short) return outcomes.push(refused(short));
      const recipeId = spec.category === 'extraction' ? (firstRecipe.get(request.input.type) ?? null) : null;
      built.push({ seq, companyId: request.companyId, worldId: company.worldId, type: request.input.type, cityId: request.input.city_id, recipeId, costCents });
      outcomes.push(null);
    });
    if (built.length > 0) {
      // Ids in the list's order (one nextval per row, in order).
      const created = await tx.execute<{ seq: number; id: number }>(sql`
        with b as (
          select *, nextval(pg_get_serial_sequence('buildings', 'id'))::int as new_id
          from (select * from jsonb_to_recordset(${JSON.stringify(built.map((b) => ({ seq: b.seq, world_id: b.worldId, company_id: b.companyId, type: b.type, city_id: b.cityId, recipe_id: b.recipeId, cost_cents: b.costCents })))}::jsonb)
                as b(seq int, world_id int, company_id int, type text, city_id int, recipe_id int, cost_cents bigint) order by seq) ordered
        ), inserted as (
          insert into buildings (world_id, id, company_id, type, city_id, selected_recipe_id, construction_cost_cents, built_week)
          overriding system value
          select world_id, new_id, company_id, type, city_id, recipe_id, cost_cents, (select current_week from worlds w where w.id = b.world_id) from b
          returning id
        )
        select b.seq, b.new_id as id from b join inserted i on i.id = b.new_id order by b.seq`);
      const idOf = new Map(created.map((row) => [Number(row.seq), Number(row.id)]));
      // Paid after the insert so the ledger line names the new building.
      await changeCashOfMany(
        tx,
        built.map((b) => ({
          companyId: b.companyId,
          amountCents: -b.costCents,
          type: 'building' as const,
          reason: 'build',
          description: `Built a ${BUILDING_TYPES[b.type as BuildBuildingInput['type']].name} in ${cityName.get(b.cityId)}`,
          ref: { buildingId: idOf.get(b.seq)! },
        })),
      );
      for (const b of built) outcomes[b.seq] = applied({ building_id: idOf.get(b.seq)! });
    }
    return outcomes as Outcome<BuildingChanged>[];
  });

/**
 * A building action decided request by request on the locked rows, then written set-based: `decide`
 * answers the refusal, or the cash change (if any) and the building's new state.
 */
function buildingAction<I extends { id: number }>(
  decide: (building: LockedBuilding, input: I) => GameError | { cash?: Omit<CashChange, 'companyId'> },
  write: (tx: DbExecutor, changed: ReadonlyMap<number, LockedBuilding>, requests: readonly { building: LockedBuilding; input: I }[]) => Promise<void>,
): PlayerAction<I, BuildingChanged> {
  return (db, requests) =>
    inTransaction(db, async (tx) => {
      const { companies, buildings } = await lockBuildings(tx, requests);
      const purses = new Purses(companies);
      const outcomes: Outcome<BuildingChanged>[] = [];
      const cash: CashChange[] = [];
      const done: { building: LockedBuilding; input: I }[] = [];
      // Each building's state as the list changes it (a copy: `decide` updates it).
      const state = new Map([...buildings].map(([id, building]) => [id, { ...building }]));
      for (const request of requests) {
        const building = ownBuilding(state, request);
        if (building instanceof GameError) {
          outcomes.push(refused(building));
          continue;
        }
        const before = { ...building };
        const decision = decide(building, request.input);
        if (decision instanceof GameError) {
          Object.assign(building, before);
          outcomes.push(refused(decision));
          continue;
        }
        if (decision.cash) {
          const short = purses.spend(request.companyId, -decision.cash.amountCents);
          if (short) {
            Object.assign(building, before);
            outcomes.push(refused(short));
            continue;
          }
          cash.push({ companyId: request.companyId, ...decision.cash });
        }
        done.push({ building, input: request.input });
        outcomes.push(applied({ building_id: building.id }));
      }
      await changeCashOfMany(tx, cash);
      const changed = new Map(done.map((item) => [item.building.id, item.building]));
      await write(tx, changed, done);
      return outcomes;
    });
}

/** POST /buildings/{id}/hire-employees: count x $5,000 (ledger building/hire). */
export const hireEmployees = buildingAction<HireEmployeesInput>(
  (building, input) => {
    building.employees += input.count;
    return {
      cash: {
        amountCents: -dollarsToCents(hireCost(input.count)),
        type: 'building',
        reason: 'hire',
        description: `Hired ${input.count} ${input.count === 1 ? 'employee' : 'employees'} at the ${building.spec.name} in ${building.cityName}`,
        ref: { buildingId: building.id },
      },
    };
  },
  (tx, changed) => setBuildingColumn(tx, 'employees', new Map([...changed].map(([id, b]) => [id, b.employees])), 'int'),
);

/** POST /buildings/{id}/upgrade-equipment: up to `target_level`, paying the ladder (ledger building/equipment). */
export const upgradeEquipment = buildingAction<UpgradeEquipmentInput>(
  (building, input) => {
    const level = building.equipmentLevel;
    if (level >= MAX_EQUIPMENT_LEVEL) return new GameError('RULE_BROKEN', `Equipment is already at the highest level (${MAX_EQUIPMENT_LEVEL})`);
    if (input.target_level <= level || input.target_level > MAX_EQUIPMENT_LEVEL) {
      return new GameError('RULE_BROKEN', `Equipment is at level ${level}: choose a level from ${level + 1} to ${MAX_EQUIPMENT_LEVEL}`);
    }
    building.equipmentLevel = input.target_level;
    return {
      cash: {
        amountCents: -dollarsToCents(equipmentUpgradeCost(level, input.target_level)),
        type: 'building',
        reason: 'equipment',
        description: `Upgraded the ${building.spec.name} in ${building.cityName} to equipment level ${input.target_level}`,
        ref: { buildingId: building.id },
      },
    };
  },
  (tx, changed) => setBuildingColumn(tx, 'equipment_level', new Map([...changed].map(([id, b]) => [id, b.equipmentLevel])), 'int'),
);

/** PUT /buildings/{id}/production-rate: stored now, used by the next turn. */
export const setProductionRate = buildingAction<ProductionRateInput>(
  () => ({}),
  (tx, _changed, done) => setBuildingColumn(tx, 'production_rate', new Map(done.map((item) => [item.building.id, item.input.new_rate])), 'int'),
);

/** PUT /buildings/{id}/select-category: stores only. */
export const selectCategory = buildingAction<{ id: number; category: ProductCategory }>(
  (building) =>
    building.spec.category !== 'retail' ? new GameError('RULE_BROKEN', `Only stores choose a product category: this building is a ${building.spec.name}`) : {},
  (tx, _changed, done) => setBuildingColumn(tx, 'selected_category', new Map(done.map((item) => [item.building.id, item.input.category])), 'text'),
);

/** PUT /buildings/{id}/select-recipe: a recipe of the building's own type (case-insensitive); not for stores. */
export const selectRecipe: PlayerAction<{ id: number; recipe_id: number }, BuildingChanged> = async (db, requests) => {
  const recipeRows = await db.execute<{ id: number; building_type: string }>(sql`
    select id, building_type from recipes where id in ${idList(requests.map((request) => request.input.recipe_id))}`);
  const recipeType = new Map(recipeRows.map((row) => [Number(row.id), row.building_type.toLowerCase()]));
  return buildingAction<{ id: number; recipe_id: number }>(
    (building, input) => {
      if (building.spec.category === 'retail') return new GameError('RULE_BROKEN', 'A store has no recipe: choose a product category instead');
      const type = recipeType.get(input.recipe_id);
      if (type === undefined) return new GameError('NOT_FOUND', 'Recipe not found');
      if (type !== building.type.toLowerCase()) {
        const typeName = isBuildingType(type) ? BUILDING_TYPES[type].name : type;
        return new GameError('RULE_BROKEN', `This recipe is made in a ${typeName}, not in a ${building.spec.name}`);
      }
      return {};
    },
    (tx, _changed, done) => setBuildingColumn(tx, 'selected_recipe_id', new Map(done.map((item) => [item.building.id, item.input.recipe_id])), 'int'),
  )(db, requests);
};

/**
 * POST /buildings/{id}/sell: refunds half of construction + equipment spending, moves the store's
 * stock into the warehouse, deletes the building (rare: request by request).
 */
export const sellBuilding: PlayerAction<{ id: number }, SellBuildingResult> = oneByOne((db, request) =>
  sellOneBuilding(db, request.companyId, request.input.id),
);
