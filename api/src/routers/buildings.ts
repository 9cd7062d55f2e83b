import { router } from '../trpc.ts';

export const buildingsRouter = router({});
