import { router } from '../trpc.ts';

export const newsRouter = router({});
