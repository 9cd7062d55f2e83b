/** The world's clock: its week and status, how its turns come, and the world a company plays in (every domain reads it). */
export * from './state.ts';
