/** What the web app may import from the API: types only. */
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './root.ts';

export type { AppRouter };
export type RouterOutputs = inferRouterOutputs<AppRouter>;
