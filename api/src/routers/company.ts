import { router } from '../trpc.ts';

export const companyRouter = router({});
