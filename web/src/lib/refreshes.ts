/**
 * The one place that says which cached answers each mutation makes stale. The query client's
 * mutation cache (queryClient.ts) reads this after every successful mutation, so pages never
 * invalidate by hand: they show their toast and reset their form, nothing else.
 *
 * The table is typed against the API: every mutation procedure must have an entry (a new mutation
 * without one does not typecheck), and every entry names routers or procedures that exist.
 */
import type { AnyTRPCMutationProcedure, AnyTRPCQueryProcedure } from '@trpc/server';
import type { AppRouter } from '@marketcraft/api';

type Routers = AppRouter['_def']['record'];
type RouterNames = keyof Routers & string;
/** A router's procedures by name (the record's values are plain records of procedures). */
type ProceduresOf<Name extends RouterNames> = Routers[Name];

/** "market.trade", "buildings.hireEmployees", ...: every mutation of the API. */
type MutationPath = {
  [Name in RouterNames]: {
    [Procedure in keyof ProceduresOf<Name> & string]: ProceduresOf<Name>[Procedure] extends AnyTRPCMutationProcedure ? `${Name}.${Procedure}` : never;
  }[keyof ProceduresOf<Name> & string];
}[RouterNames];

/** Every cached answer ("all"), a whole router ("company") or one query procedure ("catalog.inventory"). */
export type QueryScope =
  | 'all'
  | RouterNames
  | {
      [Name in RouterNames]: {
        [Procedure in keyof ProceduresOf<Name> & string]: ProceduresOf<Name>[Procedure] extends AnyTRPCQueryProcedure ? `${Name}.${Procedure}` : never;
      }[keyof ProceduresOf<Name> & string];
    }[RouterNames];

/** Cash changes show in the header, the ledger and the dashboard's news. */
const CASH = ['company', 'news', 'transactions'] as const satisfies readonly QueryScope[];
/** Goods moved: the warehouse views, building stock and shelves, the market's 'held' column. */
const GOODS = [
  'catalog.inventory',
  'warehouse.holdings',
  'buildings.inventory',
  'buildings.shelfPrice',
  'stores',
  'market',
] as const satisfies readonly QueryScope[];

const MUTATION_REFRESHES: Record<MutationPath, readonly QueryScope[]> = {
  'admin.advanceTurn': ['all'], // a turn changes everything
  'buildings.build': [...CASH, 'buildings'],
  'buildings.sell': [...CASH, ...GOODS, 'buildings'],
  'buildings.hireEmployees': [...CASH, 'buildings'],
  'buildings.upgradeEquipment': [...CASH, 'buildings'],
  'buildings.productionRate': ['buildings'],
  'buildings.selectRecipe': ['buildings'],
  'buildings.selectCategory': ['buildings'],
  'buildings.purchaseInventory': [...CASH, ...GOODS, 'buildings.get'],
  'buildings.transferToStore': [...GOODS, 'buildings.get'],
  'stores.updatePrice': ['stores', 'buildings.get', 'buildings.shelfPrice'],
  'stores.toggle': ['stores', 'buildings.get', 'buildings.shelfPrice'],
  'stores.remove': [...GOODS, 'buildings.get'],
  'warehouse.move': [...GOODS],
  'market.trade': [...CASH, ...GOODS, 'catalog.goods', 'buildings.get'],
  'company.found': ['all'], // a new company: nothing cached is still true
  'company.updateProfile': ['company', 'stocks'],
  'stocks.trade': [...CASH, 'stocks'],
  'politics.invest': [...CASH, 'politics'],
  'tokens.create': ['tokens'],
  'tokens.revoke': ['tokens'],
  'research.purchase': [...CASH, 'research', 'buildings'],
  // Worlds (docs/worlds.md): switching or advancing changes every figure on screen.
  'worlds.switch': ['all'],
  'worlds.advance': ['all'],
  'worlds.join': ['worlds'],
  'worlds.create': ['worlds'],
  'worlds.fork': ['worlds'],
  'worlds.update': ['worlds', 'world', 'teams'],
  'worlds.end': ['worlds', 'world'],
  'worlds.rotateCode': ['worlds'],
  'worlds.addCoInstructor': ['worlds.instructors'],
  'worlds.removeCoInstructor': ['worlds'],
  'worlds.addShock': ['worlds', 'news'],
  'worlds.announce': ['worlds', 'news'],
  // Teams (docs/classroom.md): a member who moves or leaves plays for another company, or none.
  'teams.assign': ['all'],
  'teams.update': ['teams'],
  'teams.remove': ['all'],
  // Assignments (docs/classroom.md): the list, the students' pages and the gradebook read them.
  'assignments.create': ['assignments'],
  'assignments.update': ['assignments'],
  'assignments.remove': ['assignments'],
  'assignments.setWeights': ['assignments.gradebook'],
  'assignments.answer': ['assignments'],
  // The course system (docs/classroom.md): a link moves the course and ends this world.
  'lti.registerPlatform': ['lti.platforms'],
  'lti.postScores': [],
  'lti.linkCourse': ['lti', 'worlds', 'world'],
  // The exchange (docs/exchange.md): an order holds cash or goods until it fills, is cancelled or expires.
  'exchange.placeOrder': [...CASH, ...GOODS, 'exchange'],
  'exchange.cancelOrder': [...CASH, ...GOODS, 'exchange'],
  'contracts.offer': [...CASH, ...GOODS, 'contracts'],
  'contracts.accept': [...CASH, ...GOODS, 'contracts'],
  'contracts.decline': [...CASH, ...GOODS, 'contracts'],
  'contracts.cancel': [...CASH, ...GOODS, 'contracts'],
};

/** The React Query key prefix of a scope, as @trpc/react-query builds its keys: [['catalog', 'inventory']]; [] matches every query. */
export function queryKeyOfScope(scope: QueryScope): [] | [string[]] {
  return scope === 'all' ? [] : [scope.split('.')];
}

/** The mutation path of a tRPC mutation key ([['market', 'trade']] -> 'market.trade'). */
export function mutationPathOfKey(mutationKey: readonly unknown[] | undefined): string | null {
  const path = mutationKey?.[0];
  return Array.isArray(path) && path.every((part) => typeof part === 'string') ? path.join('.') : null;
}

export function scopesRefreshedBy(path: string | null): readonly QueryScope[] {
  if (!path) return [];
  return (MUTATION_REFRESHES as Record<string, readonly QueryScope[]>)[path] ?? [];
}
