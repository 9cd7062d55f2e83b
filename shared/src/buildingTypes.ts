/**
 * The 17 building types of the build schema (spec section 3), each with its construction cost,
 * base capacity (units per week at 100% rate and efficiency) and weekly operating cost, in dollars.
 */
export const BUILDING_CATEGORIES = ['extraction', 'processing', 'manufacturing', 'specialty', 'retail'] as const;
export type BuildingCategory = (typeof BUILDING_CATEGORIES)[number];

export const BUILDING_CATEGORY_LABELS: Record<BuildingCategory, string> = {
  extraction: 'Extraction',
  processing: 'Processing',
  manufacturing: 'Manufacturing',
  specialty: 'Specialty',
  retail: 'Retail',
};

export interface BuildingTypeSpec {
  category: BuildingCategory;
  name: string;
  constructionCost: number;
  /** The building's size as the overview shows it (units per week of a typical recipe at 100%). */
  baseCapacity: number;
  /**
   * The value a building of this type adds per week at 100% efficiency and rate, at base prices
   * (dollars): the design target the catalogue's prices and recipe quantities are derived from
   * (db/src/seed/economy.ts). See designValueAdded.
   */
  weeklyValueAdded: number;
  weeklyOperatingCost: number;
}

/** What a building must pay back: its construction plus five hires ($25,000). */
const STAFFING_TO_PAY_BACK = 25_000;
/** Weeks a building run at 75% efficiency takes to pay back its construction and five hires at base prices (design target). */
const DESIGN_PAYBACK_WEEKS = 10;
/** Operating costs are this share of the value added at 100%. */
const OPERATING_COST_SHARE_OF_VALUE_ADDED = 0.15;

/**
 * The weekly value added a type is designed for, in dollars: (construction + $25,000) / 6 + $1,000.
 * Why: at 75% efficiency (6 employees) a building then earns 0.75 x VA - 6 x $100 wages - 15% x VA
 * operating costs = (construction + $25,000) / 10, paying itself and its staff back in about 10 weeks
 * at base prices (docs/economy.md, "Balance").
 */
function designValueAdded(constructionCost: number): number {
  const perWeekAtSeventyFive = (constructionCost + STAFFING_TO_PAY_BACK) / DESIGN_PAYBACK_WEEKS;
  // 0.75 VA - 0.15 VA - 600 = payback per week  =>  VA = (payback + 600) / 0.6
  return Math.round((perWeekAtSeventyFive + 600) / 0.6);
}

function buildingType(category: BuildingCategory, name: string, constructionCost: number, baseCapacity: number): BuildingTypeSpec {
  const weeklyValueAdded = designValueAdded(constructionCost);
  const weeklyOperatingCost = Math.round((weeklyValueAdded * OPERATING_COST_SHARE_OF_VALUE_ADDED) / 5) * 5;
  return { category, name, constructionCost, baseCapacity, weeklyValueAdded, weeklyOperatingCost };
}

const FARM = buildingType('extraction', 'Farm', 20_000, 600);
const MINE = buildingType('extraction', 'Mine', 30_000, 400);
const OIL_WELL = buildingType('extraction', 'Oil Well', 45_000, 300);
const LUMBER_MILL = buildingType('extraction', 'Lumber Mill', 20_000, 450);
const MILL = buildingType('processing', 'Mill', 25_000, 400);
const STEEL_MILL = buildingType('processing', 'Steel Mill', 50_000, 250);
const TEXTILE_MILL = buildingType('processing', 'Textile Mill', 30_000, 300);
const CHEMICAL_PLANT = buildingType('processing', 'Chemical Plant', 45_000, 250);
const REFINERY = buildingType('processing', 'Refinery', 60_000, 250);
const FACTORY = buildingType('manufacturing', 'Factory', 50_000, 200);
const FOOD_PROCESSING_PLANT = buildingType('manufacturing', 'Food Processing Plant', 40_000, 300);
const FURNITURE_WORKSHOP = buildingType('manufacturing', 'Furniture Workshop', 30_000, 150);
const BAKERY = buildingType('specialty', 'Bakery', 20_000, 400);
const BREWERY = buildingType('specialty', 'Brewery', 35_000, 300);
const WINERY = buildingType('specialty', 'Winery', 35_000, 250);
const JEWELRY_WORKSHOP = buildingType('specialty', 'Jewelry Workshop', 50_000, 100);
const STORE = buildingType('retail', 'Store', 15_000, 300);

export const BUILDING_TYPES = {
  farm: FARM,
  mine: MINE,
  oil_well: OIL_WELL,
  lumber_mill: LUMBER_MILL,
  mill: MILL,
  steel_mill: STEEL_MILL,
  textile_mill: TEXTILE_MILL,
  chemical_plant: CHEMICAL_PLANT,
  refinery: REFINERY,
  factory: FACTORY,
  food_processing_plant: FOOD_PROCESSING_PLANT,
  furniture_workshop: FURNITURE_WORKSHOP,
  bakery: BAKERY,
  brewery: BREWERY,
  winery: WINERY,
  jewelry_workshop: JEWELRY_WORKSHOP,
  store: STORE,
} as const satisfies Record<string, BuildingTypeSpec>;

export type BuildingType = keyof typeof BUILDING_TYPES;
export const BUILDING_TYPE_NAMES = Object.keys(BUILDING_TYPES) as [BuildingType, ...BuildingType[]];

export function isBuildingType(value: string): value is BuildingType {
  return Object.hasOwn(BUILDING_TYPES, value);
}
