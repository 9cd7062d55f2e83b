/**
 * The first-week checklist (issue 10, point 5): the game's own chain, farm -> mill -> bakery ->
 * store -> a sale, as steps that tick themselves from the company's real state (its buildings, what
 * it holds and where, its week reports). Nothing is stored but the player's "dismiss".
 */
export interface ChecklistState {
  buildings: ReadonlyArray<{ id: number; type: string; employees: number; selected_recipe_id: number | null }>;
  /** Where the company holds goods (GET /api/warehouse). */
  holdings: ReadonlyArray<{ location: 'warehouse' | 'back_room' | 'shelf' }>;
  /** The week reports so far (GET /api/reports). */
  reports: ReadonlyArray<{ week: number; store_revenue: number }>;
}

export interface ChecklistStep {
  id: string;
  label: string;
  hint: string;
  done: boolean;
  /** Where to do it. */
  to: string;
}

/** A new building has one employee: hiring means more than that. */
const FIRST_EMPLOYEES = 1;

export function firstWeekChecklist({ buildings, holdings, reports }: ChecklistState): ChecklistStep[] {
  const ofType = (type: string) => buildings.filter((building) => building.type === type);
  const firstOf = (type: string) => ofType(type)[0];
  const at = (type: string) => (firstOf(type) ? `/buildings/${firstOf(type)!.id}` : '/build');
  const firstSale = reports.find((report) => report.store_revenue > 0);
  const soldOrOnShelf = firstSale !== undefined || holdings.some((holding) => holding.location === 'shelf');
  return [
    {
      id: 'farm',
      label: 'Build a farm',
      hint: 'Farms grow wheat from nothing: pick a city whose bonus fits a farm (the city list shows those first).',
      done: ofType('farm').length > 0,
      to: '/build',
    },
    {
      id: 'hire',
      label: 'Hire employees',
      hint: 'More staff raise efficiency, and efficiency multiplies output.',
      done: buildings.some((building) => building.employees > FIRST_EMPLOYEES),
      to: buildings[0] ? `/buildings/${buildings[0].id}` : '/build',
    },
    {
      id: 'recipe',
      label: 'Choose what your farm produces',
      hint: 'Open the farm and pick a recipe (wheat for the mill).',
      done: ofType('farm').some((farm) => farm.selected_recipe_id !== null),
      to: at('farm'),
    },
    {
      id: 'mill',
      label: 'Build a mill and pick its recipe',
      hint: 'The mill turns the wheat in your warehouse into flour each turn.',
      done: ofType('mill').some((mill) => mill.selected_recipe_id !== null),
      to: at('mill'),
    },
    {
      id: 'bakery',
      label: 'Build a bakery and pick its recipe',
      hint: 'The bakery bakes the flour into bread. Its recipe names its other ingredients: buy them on the Market.',
      done: ofType('bakery').some((bakery) => bakery.selected_recipe_id !== null),
      to: at('bakery'),
    },
    {
      id: 'store',
      label: 'Build a store',
      hint: 'A store sells to the shoppers of its city. Hire staff for it too: what it can sell each week grows with its efficiency (employees and equipment).',
      done: ofType('store').length > 0,
      to: at('store'),
    },
    {
      id: 'shelf',
      label: "Put goods on the store's shelf at a price",
      hint: "Bread takes three turns (wheat, then flour, then bread). Then, from the Warehouse page or the store's Trade Hall, send it to the shelf and set its price.",
      done: soldOrOnShelf,
      to: '/warehouse',
    },
    {
      id: 'sale',
      label: 'Sell to shoppers and read your week results',
      hint: 'After the next turn, the week results show what each store sold.',
      done: firstSale !== undefined,
      to: firstSale ? `/reports/${firstSale.week}` : '/reports',
    },
  ];
}
