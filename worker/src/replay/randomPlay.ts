/**
 * Players who make random (seeded) requests through the action door: the replay test's and the
 * replay benchmark's class (`npm run replay -- --bench`). Their requests are what a careless class
 * sends: builds, hires, trades, shelves, politics, research, shares, and many refusals among them.
 */
import { sql } from 'drizzle-orm';
import { GameError } from '@marketcraft/shared';
import { act, type ActionName, type Database } from '@marketcraft/db';

/** A refusal is an answer like any other (and logged): the player goes on. Anything else is a bug. */
function refusedToo(error: unknown): void {
  if (!(error instanceof GameError)) throw error;
}

/** A small seeded generator (mulberry32): the same play every run. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!,
  };
}

export interface Player {
  userId: number;
  companyId: number;
}

/** The catalogue ids the random players choose from. */
interface Choices {
  cities: number[];
  countries: number[];
  products: number[];
  upgrades: number[];
  farmRecipe: number;
}

export async function choicesIn(db: Database): Promise<Choices> {
  const ids = async (query: ReturnType<typeof sql>) => (await db.execute<{ id: number }>(query)).map((row) => Number(row.id));
  return {
    cities: await ids(sql`select id from cities order by id limit 6`),
    countries: await ids(sql`select id from countries order by id limit 3`),
    products: await ids(sql`select id from products where name in ('Wheat', 'Wheat Flour', 'White Bread', 'Cola', 'Iron Ore') order by id`),
    upgrades: await ids(sql`select id from research_upgrades order by id limit 8`),
    farmRecipe: (await ids(sql`select id from recipes where building_type = 'farm' order by id limit 1`))[0]!,
  };
}

/** A request of a random move: an action of the door and its input (a building's `id` among them). */
export interface RandomRequest {
  name: ActionName;
  input: Record<string, unknown>;
}

/**
 * One random move of a player who owns `buildings`: one request, or two (a store buys stock, then
 * shelves it). `companies`: the companies whose shares it may trade.
 */
export function randomMove(
  random: ReturnType<typeof seededRandom>,
  choices: Choices,
  buildings: readonly { id: number; type: string }[],
  companies: readonly number[],
): RandomRequest[] {
  const { cities, countries, products, upgrades, farmRecipe } = choices;
  const building = buildings.length > 0 ? random.pick(buildings) : null;
  const id = Number(building?.id ?? 0);
  const choice = random.int(0, 9);
  if (choice <= 1 || !building)
    return [{ name: 'buildBuilding', input: { type: random.pick(['farm', 'store', 'mill'] as const), city_id: random.pick(cities) } }];
  if (choice === 2) return [{ name: 'hireEmployees', input: { id, count: random.int(1, 4) } }];
  if (choice === 3 && building.type === 'farm') return [{ name: 'selectRecipe', input: { id, recipe_id: farmRecipe } }];
  if (choice === 4) {
    const input = { product_id: random.pick(products), quantity: random.int(1, 300), action: random.pick(['buy', 'sell'] as const) };
    return [{ name: 'marketTrade', input }];
  }
  if (choice === 5) return [{ name: 'investInPolitics', input: { country_id: random.pick(countries), amount: random.int(1, 30) * 1_000 } }];
  if (choice === 6) return [{ name: 'purchaseResearch', input: { upgrade_id: random.pick(upgrades) } }];
  if (choice === 7 && building.type === 'store') {
    const product = random.pick(products);
    const purchase = { id, product_id: product, quantity: random.int(10, 100) };
    const shelving = { id, product_id: product, quantity: random.int(5, 60), retail_price: random.int(5, 90) };
    return [
      { name: 'purchaseForBuilding', input: purchase },
      { name: 'transferToStore', input: shelving },
    ];
  }
  if (choice === 8) {
    const input = { company_id: random.pick(companies), shares: random.int(1, 5), action: random.pick(['buy', 'sell'] as const) };
    return [{ name: 'tradeShares', input }];
  }
  return [{ name: 'upgradeEquipment', input: { id, target_level: random.int(2, 3) } }];
}

/**
 * A week of random requests through the action door: each player makes `moves` moves one after
 * the other, the players at the same time (concurrent requests). Refusals are answered and logged
 * like any other.
 */
export async function playRandomWeek(db: Database, players: readonly Player[], random: ReturnType<typeof seededRandom>, moves = 4): Promise<void> {
  const choices = await choicesIn(db);
  const companies = players.map((player) => player.companyId);
  const move = async (player: Player) => {
    const buildings = await db.execute<{ id: number; type: string }>(sql`select id, type from buildings where company_id = ${player.companyId} order by id`);
    for (const { name, input } of randomMove(random, choices, buildings, companies)) {
      await act(db, name, { companyId: player.companyId, actingUserId: player.userId, input: input as never }).catch(refusedToo);
    }
  };
  await Promise.all(
    players.map(async (player) => {
      for (let step = 0; step < moves; step += 1) await move(player);
    }),
  );
}
