/** Research: the tree, purchases and the effects the plans sum. */
export * from './research.ts';
export * from './researchPlan.ts';
