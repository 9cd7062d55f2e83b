import { router } from '../trpc.ts';

export const researchRouter = router({});
