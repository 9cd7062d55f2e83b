/**
 * The 25 bot companies (spec section 1: 25+ AI competitors, each with a strategy). Each starts
 * with its cash, the default share record (100 shares at $100) and 2-5 buildings in cities whose
 * bonus fits, producing a recipe (by output product name; it must be a recipe of that building
 * type) or, for stores, with a few products stocked at 1.5x base price.
 */
import type { BotStrategy, BuildingType } from '@marketcraft/shared';
import type { CityName } from './cities.ts';
import type { ProductName } from './products.ts';

interface BotBuildingSeed {
  type: BuildingType;
  city: CityName;
  /** Output product of the selected recipe (non-retail buildings). */
  recipe?: ProductName;
  /** Stores: units on the shelf per product, priced at the suggested 1.5x base price. */
  stock?: Partial<Record<ProductName, number>>;
}

export interface BotSeed {
  name: string;
  strategy: BotStrategy;
  bio: string;
  startingCashCents: number;
  buildings: readonly BotBuildingSeed[];
}

export const BOTS = [
  {
    name: 'Harvest Moon Holdings',
    strategy: 'vertical_integration',
    bio: 'From the field to the bakery shelf: grain, flour and bread under one roof.',
    startingCashCents: 80_000_000,
    buildings: [
      { type: 'farm', city: 'Wheatfield', recipe: 'Wheat' },
      { type: 'mill', city: 'Millbrook', recipe: 'Wheat Flour' },
      { type: 'bakery', city: 'Ovenstead', recipe: 'White Bread' },
      { type: 'store', city: 'Port Aldor', stock: { 'White Bread': 150, Bagels: 80 } },
    ],
  },
  {
    name: 'Ironclad Industries',
    strategy: 'vertical_integration',
    bio: 'Ore, coal and steel, forged into tools that build nations.',
    startingCashCents: 130_000_000,
    buildings: [
      { type: 'mine', city: 'Ironridge', recipe: 'Iron Ore' },
      { type: 'mine', city: 'Blackpit', recipe: 'Coal' },
      { type: 'steel_mill', city: 'Forgehollow', recipe: 'Pig Iron' },
      { type: 'steel_mill', city: 'Galvor', recipe: 'Steel' },
      { type: 'factory', city: 'Gearford', recipe: 'Hand Tools' },
    ],
  },
  {
    name: 'Golden Aisle Retail',
    strategy: 'retail_focus',
    bio: 'Everyday goods at fair prices in the busiest shopping streets.',
    startingCashCents: 60_000_000,
    buildings: [
      { type: 'store', city: 'Hesperia City', stock: { 'T-Shirts': 150, Jeans: 100, Sneakers: 80 } },
      { type: 'store', city: 'Dunmore Bay', stock: { Cola: 200, 'Potato Chips': 150, Cookies: 120 } },
      { type: 'store', city: 'Coral Harbor', stock: { 'Bath Towels': 100, 'Scented Candles': 90 } },
    ],
  },
  {
    name: 'Petrovar Energy',
    strategy: 'commodity_trader',
    bio: 'Crude, gas and fuel, bought low and sold high.',
    startingCashCents: 120_000_000,
    buildings: [
      { type: 'oil_well', city: 'Petrovar', recipe: 'Crude Oil' },
      { type: 'oil_well', city: 'Drillstone', recipe: 'Natural Gas' },
      { type: 'refinery', city: 'Brevik', recipe: 'Gasoline' },
    ],
  },
  {
    name: 'Aurelia Jewels',
    strategy: 'luxury_specialist',
    bio: 'Gold from our own mines, set by master jewellers.',
    startingCashCents: 100_000_000,
    buildings: [
      { type: 'mine', city: 'Goldcrest', recipe: 'Gold Ore' },
      { type: 'steel_mill', city: 'Steelhaven', recipe: 'Gold Bullion' },
      { type: 'jewelry_workshop', city: 'Crownhaven', recipe: 'Gold Ring' },
      { type: 'store', city: 'Rosedale', stock: { 'Gold Ring': 60, 'Silver Necklace': 50 } },
    ],
  },
  {
    name: 'Blitz Conglomerate',
    strategy: 'aggressive_expansion',
    bio: 'Bigger every week. Everywhere, all at once.',
    startingCashCents: 150_000_000,
    buildings: [
      { type: 'farm', city: 'Harvest Vale', recipe: 'Corn' },
      { type: 'mill', city: 'Grainport', recipe: 'Corn Meal' },
      { type: 'food_processing_plant', city: 'Saltmarsh', recipe: 'Breakfast Cereal' },
      { type: 'factory', city: 'Castellan City', recipe: 'Plastic Toys' },
      { type: 'store', city: 'Rivermouth', stock: { 'Breakfast Cereal': 100, 'Plastic Toys': 120 } },
    ],
  },
  {
    name: 'Prudent Capital Group',
    strategy: 'value_investor',
    bio: 'Patient money in solid, unglamorous businesses.',
    startingCashCents: 140_000_000,
    buildings: [
      { type: 'lumber_mill', city: 'Pinecliff', recipe: 'Softwood Lumber' },
      { type: 'store', city: 'Port Aldor', stock: { Notebooks: 100, 'Light Bulbs': 150 } },
    ],
  },
  {
    name: 'Hopsworth Brewing Co.',
    strategy: 'vertical_integration',
    bio: 'Our own barley, our own hops, our own lager.',
    startingCashCents: 70_000_000,
    buildings: [
      { type: 'farm', city: 'Amber Plains', recipe: 'Barley' },
      { type: 'farm', city: 'Harvest Vale', recipe: 'Hops' },
      { type: 'mill', city: 'Flourmill Junction', recipe: 'Malted Barley' },
      { type: 'brewery', city: 'Hopsworth', recipe: 'Lager' },
      { type: 'store', city: 'Dunmore Bay', stock: { Lager: 150, 'Pale Ale': 80 } },
    ],
  },
  {
    name: 'Velvet Hills Vineyards',
    strategy: 'luxury_specialist',
    bio: 'Old vines, oak barrels and patience.',
    startingCashCents: 90_000_000,
    buildings: [
      { type: 'farm', city: 'Sunreach', recipe: 'Red Wine Grapes' },
      { type: 'winery', city: 'Velvet Hills', recipe: 'Red Wine' },
      { type: 'winery', city: 'Vinemoor', recipe: 'Reserve Cabernet' },
      { type: 'store', city: 'Fenwick', stock: { 'Red Wine': 120, Champagne: 50 } },
    ],
  },
  {
    name: 'Northwind Timber',
    strategy: 'commodity_trader',
    bio: 'Logs and planks by the trainload.',
    startingCashCents: 40_000_000,
    buildings: [
      { type: 'lumber_mill', city: 'Oakenshaw', recipe: 'Oak Logs' },
      { type: 'lumber_mill', city: 'Timberfall', recipe: 'Pine Logs' },
      { type: 'mill', city: 'Millbrook', recipe: 'Pine Planks' },
    ],
  },
  {
    name: 'Castellan Motors',
    strategy: 'aggressive_expansion',
    bio: 'Engines, tires and the family car, made at scale.',
    startingCashCents: 125_000_000,
    buildings: [
      { type: 'factory', city: 'Castellan City', recipe: 'Car Engines' },
      { type: 'factory', city: 'Gearford', recipe: 'Tires' },
      { type: 'factory', city: 'Estavia Prime', recipe: 'Family Cars' },
      { type: 'store', city: 'Port Aldor', stock: { Bicycles: 60, Tires: 100 } },
    ],
  },
  {
    name: 'Meridian Textiles',
    strategy: 'vertical_integration',
    bio: 'Cotton grown, spun, woven and sewn by one company.',
    startingCashCents: 75_000_000,
    buildings: [
      { type: 'farm', city: 'Palmshore', recipe: 'Cotton' },
      { type: 'textile_mill', city: 'Brevik', recipe: 'Cotton Yarn' },
      { type: 'textile_mill', city: 'Steelhaven', recipe: 'Cotton Fabric' },
      { type: 'factory', city: 'New Iskandar', recipe: 'T-Shirts' },
    ],
  },
  {
    name: 'Crumb & Crust Bakeries',
    strategy: 'retail_focus',
    bio: 'Fresh pastries every morning, on every corner.',
    startingCashCents: 35_000_000,
    buildings: [
      { type: 'bakery', city: 'Crumbleton', recipe: 'Croissants' },
      { type: 'bakery', city: 'Loafton', recipe: 'Baguettes' },
      { type: 'store', city: 'Rivermouth', stock: { Croissants: 120, Baguettes: 150, Muffins: 80 } },
    ],
  },
  {
    name: 'Quarry & Stone Co.',
    strategy: 'commodity_trader',
    bio: 'Stone, copper and cement for builders.',
    startingCashCents: 55_000_000,
    buildings: [
      { type: 'mine', city: 'Copperton', recipe: 'Copper Ore' },
      { type: 'mine', city: 'Ironridge', recipe: 'Limestone' },
      { type: 'chemical_plant', city: 'Forgehollow', recipe: 'Cement' },
    ],
  },
  {
    name: 'Silicon Coast Electronics',
    strategy: 'tech_innovator',
    bio: 'From quartz sand to the phone in your pocket.',
    startingCashCents: 145_000_000,
    buildings: [
      { type: 'mine', city: 'Dunesworth', recipe: 'Quartz' },
      { type: 'chemical_plant', city: 'Galvor', recipe: 'Silicon Wafers' },
      { type: 'factory', city: 'Estavia Prime', recipe: 'Microchips' },
      { type: 'factory', city: 'Gearford', recipe: 'Smartphones' },
      { type: 'store', city: 'Hesperia City', stock: { Smartphones: 50, Laptops: 50 } },
    ],
  },
  {
    name: 'Sweetwater Foods',
    strategy: 'vertical_integration',
    bio: 'Strawberries and sugar, cooked into the jam you love.',
    startingCashCents: 65_000_000,
    buildings: [
      { type: 'farm', city: 'Palmshore', recipe: 'Strawberries' },
      { type: 'mill', city: 'Grainport', recipe: 'Cane Sugar' },
      { type: 'food_processing_plant', city: 'Sugarcoast', recipe: 'Strawberry Jam' },
      { type: 'store', city: 'Coral Harbor', stock: { 'Strawberry Jam': 100, 'Orange Juice': 120 } },
    ],
  },
  {
    name: 'Atlas Commodities',
    strategy: 'commodity_trader',
    bio: 'Grain, soy and coal: the world runs on bulk.',
    startingCashCents: 85_000_000,
    buildings: [
      { type: 'farm', city: 'Sunreach', recipe: 'Soybeans' },
      { type: 'farm', city: 'Amber Plains', recipe: 'Wheat' },
      { type: 'mine', city: 'Blackpit', recipe: 'Coal' },
    ],
  },
  {
    name: 'Heritage Holdings',
    strategy: 'value_investor',
    bio: 'Dairy farms and cheese cellars, held for generations.',
    startingCashCents: 110_000_000,
    buildings: [
      { type: 'farm', city: 'Harvest Vale', recipe: 'Milk' },
      { type: 'food_processing_plant', city: 'Spiceport', recipe: 'Cheddar Cheese' },
    ],
  },
  {
    name: 'Regal Fashion House',
    strategy: 'luxury_specialist',
    bio: 'Cashmere, silk and leather for those who notice.',
    startingCashCents: 95_000_000,
    buildings: [
      { type: 'farm', city: 'Sunreach', recipe: 'Cashmere Wool' },
      { type: 'factory', city: 'Castellan City', recipe: 'Cashmere Sweater' },
      { type: 'factory', city: 'Gearford', recipe: 'Designer Handbag' },
      { type: 'store', city: 'Crownhaven', stock: { 'Cashmere Sweater': 50, 'Silk Scarf': 60 } },
    ],
  },
  {
    name: 'Pinnacle Retail Partners',
    strategy: 'retail_focus',
    bio: 'Appliances and home goods in every big city.',
    startingCashCents: 100_000_000,
    buildings: [
      { type: 'store', city: 'Port Aldor', stock: { Televisions: 50, 'Microwave Ovens': 60, 'Vacuum Cleaners': 60 } },
      { type: 'store', city: 'Hesperia City', stock: { Refrigerators: 50, 'Washing Machines': 50 } },
      { type: 'store', city: 'Dunmore Bay', stock: { 'Light Bulbs': 200, 'Cookware Set': 80 } },
      { type: 'store', city: 'Coral Harbor', stock: { 'Plastic Toys': 150, Backpacks: 100 } },
    ],
  },
  {
    name: 'Frontier Ventures',
    strategy: 'aggressive_expansion',
    bio: 'Oil sands, acid and batteries: wherever the margin is.',
    startingCashCents: 135_000_000,
    buildings: [
      { type: 'oil_well', city: 'Tarsands', recipe: 'Heavy Crude Oil' },
      { type: 'refinery', city: 'Galvor', recipe: 'Asphalt' },
      { type: 'mine', city: 'Goldcrest', recipe: 'Sulfur' },
      { type: 'chemical_plant', city: 'Brevik', recipe: 'Sulfuric Acid' },
      { type: 'factory', city: 'New Iskandar', recipe: 'Car Batteries' },
    ],
  },
  {
    name: 'Evergreen Furniture',
    strategy: 'vertical_integration',
    bio: 'Birch forests turned into bookshelves.',
    startingCashCents: 50_000_000,
    buildings: [
      { type: 'lumber_mill', city: 'Pinecliff', recipe: 'Birch Logs' },
      { type: 'mill', city: 'Flourmill Junction', recipe: 'Plywood' },
      { type: 'furniture_workshop', city: 'Gearford', recipe: 'Bookshelf' },
      { type: 'store', city: 'Rivermouth', stock: { Bookshelf: 50, 'Wooden Chair': 80 } },
    ],
  },
  {
    name: 'Sterling Asset Management',
    strategy: 'value_investor',
    bio: 'Silver is money that keeps.',
    startingCashCents: 120_000_000,
    buildings: [
      { type: 'mine', city: 'Copperton', recipe: 'Silver Ore' },
      { type: 'steel_mill', city: 'Forgehollow', recipe: 'Silver Bullion' },
      { type: 'store', city: 'Dunmore Bay', stock: { 'Silver Ring': 60, 'Silver Necklace': 50 } },
    ],
  },
  {
    name: 'Spiceport Trading Co.',
    strategy: 'commodity_trader',
    bio: 'Coffee and cocoa from the plantations to the cup.',
    startingCashCents: 25_000_000,
    buildings: [
      { type: 'farm', city: 'Palmshore', recipe: 'Coffee Beans' },
      { type: 'farm', city: 'Sunreach', recipe: 'Cocoa Beans' },
      { type: 'food_processing_plant', city: 'Spiceport', recipe: 'Ground Coffee' },
      { type: 'store', city: 'Port Aldor', stock: { 'Ground Coffee': 120, 'Tea Bags': 100 } },
    ],
  },
  {
    name: 'Highland Distillers',
    strategy: 'luxury_specialist',
    bio: 'Malt, time and oak: whisky worth waiting for.',
    startingCashCents: 105_000_000,
    buildings: [
      { type: 'farm', city: 'Amber Plains', recipe: 'Barley' },
      { type: 'mill', city: 'Grainport', recipe: 'Malted Barley' },
      { type: 'brewery', city: 'Maltby', recipe: 'Whiskey' },
      { type: 'brewery', city: "Brewer's Gate", recipe: 'Single Malt Whisky' },
    ],
  },
] as const satisfies readonly BotSeed[];
