/** The forecast: what the next turn does to a building, from the turn's own plans (production, costs, store sales, research), and the building page that shows it. */
export * from './forecast.ts';
