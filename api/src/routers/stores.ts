import { router } from '../trpc.ts';

export const storesRouter = router({});
