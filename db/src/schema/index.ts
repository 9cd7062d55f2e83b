export * from './users.ts';
export * from './auth.ts';
export * from './world.ts';
export * from './companies.ts';
export * from './apiTokens.ts';
export * from './history.ts';
export * from './classroom.ts';
export * from './openData.ts';
