/** Assignments: an instructor's graded assignments, the turn's grading, a student's own view and answers, the gradebook and final scores. */
export * from './assignments.ts';
export * from './grading.ts';
export * from './mine.ts';
export * from './gradebook.ts';
export * from './forkAssignments.ts';
