/** Companies: founding, the profile, the public lists and rankings, names, the valuation (net worth), and who plays for a company (teams' members). */
export * from './founding.ts';
export * from './company.ts';
export * from './lists.ts';
export * from './names.ts';
export * from './valuation.ts';
export * from './members.ts';
