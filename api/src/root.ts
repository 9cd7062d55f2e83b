import { router } from './trpc.ts';
import { worldRouter } from './routers/world.ts';
import { adminRouter } from './routers/admin.ts';

export const appRouter = router({
  world: worldRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;
