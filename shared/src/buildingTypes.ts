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
  baseCapacity: number;
  weeklyOperatingCost: number;
}

export const FARM: BuildingTypeSpec = { category: 'extraction', name: 'Farm', constructionCost: 20_000, baseCapacity: 100, weeklyOperatingCost: 400 };
export const MINE: BuildingTypeSpec = { category: 'extraction', name: 'Mine', constructionCost: 30_000, baseCapacity: 80, weeklyOperatingCost: 600 };
export const OIL_WELL: BuildingTypeSpec = { category: 'extraction', name: 'Oil Well', constructionCost: 45_000, baseCapacity: 60, weeklyOperatingCost: 900 };
export const LUMBER_MILL: BuildingTypeSpec = { category: 'extraction', name: 'Lumber Mill', constructionCost: 20_000, baseCapacity: 90, weeklyOperatingCost: 400 };
export const MILL: BuildingTypeSpec = { category: 'processing', name: 'Mill', constructionCost: 25_000, baseCapacity: 80, weeklyOperatingCost: 500 };
export const STEEL_MILL: BuildingTypeSpec = { category: 'processing', name: 'Steel Mill', constructionCost: 50_000, baseCapacity: 50, weeklyOperatingCost: 1_000 };
export const TEXTILE_MILL: BuildingTypeSpec = { category: 'processing', name: 'Textile Mill', constructionCost: 30_000, baseCapacity: 60, weeklyOperatingCost: 600 };
export const CHEMICAL_PLANT: BuildingTypeSpec = { category: 'processing', name: 'Chemical Plant', constructionCost: 45_000, baseCapacity: 50, weeklyOperatingCost: 900 };
export const REFINERY: BuildingTypeSpec = { category: 'processing', name: 'Refinery', constructionCost: 60_000, baseCapacity: 50, weeklyOperatingCost: 1_200 };
export const FACTORY: BuildingTypeSpec = { category: 'manufacturing', name: 'Factory', constructionCost: 50_000, baseCapacity: 40, weeklyOperatingCost: 1_000 };
export const FOOD_PROCESSING_PLANT: BuildingTypeSpec = { category: 'manufacturing', name: 'Food Processing Plant', constructionCost: 40_000, baseCapacity: 60, weeklyOperatingCost: 800 };
export const FURNITURE_WORKSHOP: BuildingTypeSpec = { category: 'manufacturing', name: 'Furniture Workshop', constructionCost: 30_000, baseCapacity: 30, weeklyOperatingCost: 600 };
export const BAKERY: BuildingTypeSpec = { category: 'specialty', name: 'Bakery', constructionCost: 20_000, baseCapacity: 80, weeklyOperatingCost: 400 };
export const BREWERY: BuildingTypeSpec = { category: 'specialty', name: 'Brewery', constructionCost: 35_000, baseCapacity: 60, weeklyOperatingCost: 700 };
export const WINERY: BuildingTypeSpec = { category: 'specialty', name: 'Winery', constructionCost: 35_000, baseCapacity: 50, weeklyOperatingCost: 700 };
export const JEWELRY_WORKSHOP: BuildingTypeSpec = { category: 'specialty', name: 'Jewelry Workshop', constructionCost: 50_000, baseCapacity: 20, weeklyOperatingCost: 1_000 };
export const STORE: BuildingTypeSpec = { category: 'retail', name: 'Store', constructionCost: 15_000, baseCapacity: 200, weeklyOperatingCost: 300 };

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

export function buildingTypeSpec(type: BuildingType): BuildingTypeSpec {
  return BUILDING_TYPES[type];
}
