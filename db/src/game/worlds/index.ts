/** Worlds: a world's week and state, public and class worlds, instructors, classroom tools, news. */
export * from './state.ts';
export * from './worlds.ts';
export * from './classroom.ts';
export * from './news.ts';
export * from './teams.ts';
export * from './teamMembers.ts';
