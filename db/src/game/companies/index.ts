/** Companies: founding, the profile, the public lists and rankings, names, and the valuation (net worth). */
export * from './founding.ts';
export * from './company.ts';
export * from './lists.ts';
export * from './names.ts';
export * from './valuation.ts';
