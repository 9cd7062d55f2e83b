import { router } from '../trpc.ts';

export const politicsRouter = router({});
