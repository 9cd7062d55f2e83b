import type { BuildingType } from './buildingTypes.ts';
import type { CityBonusType } from './catalog.ts';

/**
 * Which city bonus types fit which building type: a building in a city whose bonus type is in its
 * list gets the city's bonus_value percent on its output (stores: on their sales).
 */
const BONUS_TYPES_FOR_BUILDING: Record<BuildingType, readonly CityBonusType[]> = {
  farm: ['agricultural', 'extraction'],
  mine: ['mining', 'extraction'],
  oil_well: ['extraction'],
  lumber_mill: ['forestry', 'extraction'],
  mill: ['milling'],
  steel_mill: ['industrial'],
  textile_mill: ['industrial'],
  chemical_plant: ['industrial'],
  refinery: ['industrial'],
  factory: ['manufacturing', 'industrial'],
  food_processing_plant: ['food_production'],
  furniture_workshop: ['manufacturing'],
  bakery: ['baking', 'food_production'],
  brewery: ['brewing', 'beverage'],
  winery: ['beverage'],
  jewelry_workshop: ['luxury'],
  store: ['retail'],
};

export function cityBonusApplies(buildingType: BuildingType, bonusType: string): boolean {
  return (BONUS_TYPES_FOR_BUILDING[buildingType] as readonly string[]).includes(bonusType);
}

/** [building_type, bonus_type] pairs, for SQL joins (`values ...`). */
export const BUILDING_BONUS_PAIRS: ReadonlyArray<readonly [BuildingType, CityBonusType]> = Object.entries(BONUS_TYPES_FOR_BUILDING).flatMap(
  ([type, bonusTypes]) => bonusTypes.map((bonusType) => [type as BuildingType, bonusType] as const),
);
