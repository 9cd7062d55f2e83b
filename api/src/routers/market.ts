import { router } from '../trpc.ts';

export const marketRouter = router({});
