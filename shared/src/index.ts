export * from './constants.ts';
export * from './money.ts';
export * from './buildingTypes.ts';
export * from './catalog.ts';
export * from './rules/schedule.ts';
export * from './errors.ts';
export * from './schemas/index.ts';
export * from './cityBonus.ts';
