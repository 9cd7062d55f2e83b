import { router } from '../trpc.ts';

export const catalogRouter = router({});
