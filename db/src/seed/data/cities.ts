/**
 * The 50 cities (spec section 1 and 3), each in a country with one of the 13 bonus types and a
 * bonus_value percent that applies to buildings of the fitting types (shared/src/cityBonus.ts).
 */
import type { CityBonusType } from '@marketcraft/shared';
import type { CountryName } from './countries.ts';

export interface CitySeed {
  name: string;
  country: CountryName;
  bonusType: CityBonusType;
  /** Percent, 5-25. */
  bonusValue: number;
  population: number;
}

export const CITIES = [
  // Aldoria
  { name: 'Port Aldor', country: 'Aldoria', bonusType: 'retail', bonusValue: 15, population: 2_400_000 },
  { name: 'Wheatfield', country: 'Aldoria', bonusType: 'agricultural', bonusValue: 20, population: 180_000 },
  { name: 'Ironridge', country: 'Aldoria', bonusType: 'mining', bonusValue: 18, population: 320_000 },
  { name: 'Millbrook', country: 'Aldoria', bonusType: 'milling', bonusValue: 12, population: 140_000 },
  { name: 'Crownhaven', country: 'Aldoria', bonusType: 'luxury', bonusValue: 22, population: 900_000 },
  { name: 'Saltmarsh', country: 'Aldoria', bonusType: 'food_production', bonusValue: 10, population: 260_000 },
  // Brevania
  { name: 'Brevik', country: 'Brevania', bonusType: 'industrial', bonusValue: 15, population: 1_100_000 },
  { name: 'Goldcrest', country: 'Brevania', bonusType: 'mining', bonusValue: 25, population: 210_000 },
  { name: 'Vinemoor', country: 'Brevania', bonusType: 'beverage', bonusValue: 14, population: 150_000 },
  { name: 'Hopsworth', country: 'Brevania', bonusType: 'brewing', bonusValue: 20, population: 120_000 },
  { name: 'Pinecliff', country: 'Brevania', bonusType: 'forestry', bonusValue: 18, population: 90_000 },
  { name: 'Rivermouth', country: 'Brevania', bonusType: 'retail', bonusValue: 10, population: 650_000 },
  // Castellan Republic
  { name: 'Castellan City', country: 'Castellan Republic', bonusType: 'manufacturing', bonusValue: 16, population: 2_900_000 },
  { name: 'Forgehollow', country: 'Castellan Republic', bonusType: 'industrial', bonusValue: 22, population: 480_000 },
  { name: 'Ovenstead', country: 'Castellan Republic', bonusType: 'baking', bonusValue: 15, population: 130_000 },
  { name: 'Amber Plains', country: 'Castellan Republic', bonusType: 'agricultural', bonusValue: 12, population: 200_000 },
  { name: 'Tarsands', country: 'Castellan Republic', bonusType: 'extraction', bonusValue: 20, population: 110_000 },
  { name: 'Silkport', country: 'Castellan Republic', bonusType: 'luxury', bonusValue: 12, population: 700_000 },
  // Dunmore
  { name: 'Dunmore Bay', country: 'Dunmore', bonusType: 'retail', bonusValue: 20, population: 1_300_000 },
  { name: 'Oakenshaw', country: 'Dunmore', bonusType: 'forestry', bonusValue: 24, population: 85_000 },
  { name: 'Copperton', country: 'Dunmore', bonusType: 'mining', bonusValue: 14, population: 240_000 },
  { name: 'Harvest Vale', country: 'Dunmore', bonusType: 'agricultural', bonusValue: 18, population: 160_000 },
  { name: "Brewer's Gate", country: 'Dunmore', bonusType: 'brewing', bonusValue: 12, population: 330_000 },
  // Estavia
  { name: 'Estavia Prime', country: 'Estavia', bonusType: 'manufacturing', bonusValue: 20, population: 3_200_000 },
  { name: 'Grainport', country: 'Estavia', bonusType: 'milling', bonusValue: 18, population: 420_000 },
  { name: 'Petrovar', country: 'Estavia', bonusType: 'extraction', bonusValue: 15, population: 380_000 },
  { name: 'Sugarcoast', country: 'Estavia', bonusType: 'food_production', bonusValue: 18, population: 510_000 },
  { name: 'Crumbleton', country: 'Estavia', bonusType: 'baking', bonusValue: 22, population: 95_000 },
  { name: 'Clearwater', country: 'Estavia', bonusType: 'beverage', bonusValue: 10, population: 270_000 },
  // Fenwick Isles
  { name: 'Fenwick', country: 'Fenwick Isles', bonusType: 'luxury', bonusValue: 18, population: 600_000 },
  { name: 'Coral Harbor', country: 'Fenwick Isles', bonusType: 'retail', bonusValue: 12, population: 340_000 },
  { name: 'Palmshore', country: 'Fenwick Isles', bonusType: 'agricultural', bonusValue: 10, population: 120_000 },
  { name: 'Orchard Key', country: 'Fenwick Isles', bonusType: 'food_production', bonusValue: 14, population: 75_000 },
  { name: 'Marlin Point', country: 'Fenwick Isles', bonusType: 'beverage', bonusValue: 20, population: 60_000 },
  // Galvoran Union
  { name: 'Galvor', country: 'Galvoran Union', bonusType: 'industrial', bonusValue: 25, population: 2_100_000 },
  { name: 'Steelhaven', country: 'Galvoran Union', bonusType: 'industrial', bonusValue: 12, population: 860_000 },
  { name: 'Blackpit', country: 'Galvoran Union', bonusType: 'mining', bonusValue: 20, population: 300_000 },
  { name: 'Drillstone', country: 'Galvoran Union', bonusType: 'extraction', bonusValue: 25, population: 140_000 },
  { name: 'Gearford', country: 'Galvoran Union', bonusType: 'manufacturing', bonusValue: 14, population: 720_000 },
  { name: 'Timberfall', country: 'Galvoran Union', bonusType: 'forestry', bonusValue: 15, population: 110_000 },
  // Hesperia
  { name: 'Hesperia City', country: 'Hesperia', bonusType: 'retail', bonusValue: 25, population: 2_600_000 },
  { name: 'Velvet Hills', country: 'Hesperia', bonusType: 'beverage', bonusValue: 25, population: 180_000 },
  { name: 'Rosedale', country: 'Hesperia', bonusType: 'luxury', bonusValue: 15, population: 420_000 },
  { name: 'Loafton', country: 'Hesperia', bonusType: 'baking', bonusValue: 10, population: 230_000 },
  { name: 'Maltby', country: 'Hesperia', bonusType: 'brewing', bonusValue: 16, population: 170_000 },
  // Iskandar
  { name: 'New Iskandar', country: 'Iskandar', bonusType: 'manufacturing', bonusValue: 10, population: 1_700_000 },
  { name: 'Dunesworth', country: 'Iskandar', bonusType: 'extraction', bonusValue: 12, population: 260_000 },
  { name: 'Flourmill Junction', country: 'Iskandar', bonusType: 'milling', bonusValue: 14, population: 190_000 },
  { name: 'Spiceport', country: 'Iskandar', bonusType: 'food_production', bonusValue: 22, population: 880_000 },
  { name: 'Sunreach', country: 'Iskandar', bonusType: 'agricultural', bonusValue: 15, population: 140_000 },
] as const satisfies readonly CitySeed[];

export type CityName = (typeof CITIES)[number]['name'];
