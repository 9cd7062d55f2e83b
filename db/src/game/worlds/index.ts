/** Worlds: public and class worlds, joining and founding in them, instructors, classroom tools, news. */
export * from './worlds.ts';
export * from './classroom.ts';
export * from './news.ts';
export * from './fork.ts';
export * from './forkComparison.ts';
export * from './sandboxes.ts';
export * from './teams.ts';
export * from './teamMembers.ts';
export * from './contributions.ts';
