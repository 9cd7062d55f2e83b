import { router } from '../trpc.ts';

export const stocksRouter = router({});
