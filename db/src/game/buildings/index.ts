/** Buildings: build, hire, equipment, production rate, recipe, category, sell; the production and cost plans shared by the forecast and the turn. */
export * from './buildings.ts';
export * from './productionPlan.ts';
export * from './costsPlan.ts';
export * from './actions.ts';
