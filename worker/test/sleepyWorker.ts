/**
 * Test-only worker process: the real one (runWorkerProcess), with a hook that holds the turn's
 * transaction open after one phase, so a test can kill the process mid-turn. Its knobs live here,
 * in test code, never in the production configuration:
 *   TURN_TEST_SLEEP_MS            how long to hold the turn (ms)
 *   TURN_TEST_SLEEP_AFTER_PHASE   after which phase (default production)
 *   TURN_TEST_START_ON_STDIN      1: load the modules, print "test worker loaded", and start the worker only when
 *                                 a line arrives on stdin (a test times what follows a kill, not
 *                                 Node loading the worker's modules: 30 s and more on a busy machine)
 */
import { z } from 'zod';
import { PHASES } from '../src/turn/context.ts';
import { runWorkerProcess } from '../src/process.ts';

const knobs = z
  .object({
    TURN_TEST_SLEEP_MS: z.coerce.number().int().min(0).default(0),
    TURN_TEST_SLEEP_AFTER_PHASE: z.enum(PHASES).default('production'),
    TURN_TEST_START_ON_STDIN: z.enum(['0', '1']).default('0'),
  })
  .parse(process.env);

if (knobs.TURN_TEST_START_ON_STDIN === '1') {
  console.info('test worker loaded');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.pause();
}

await runWorkerProcess({
  hooks: (logger) => ({
    afterPhase: async (phase) => {
      if (knobs.TURN_TEST_SLEEP_MS === 0 || phase !== knobs.TURN_TEST_SLEEP_AFTER_PHASE) return;
      logger.info(`test sleep ${knobs.TURN_TEST_SLEEP_MS} ms after ${phase}`);
      await new Promise((resolve) => setTimeout(resolve, knobs.TURN_TEST_SLEEP_MS));
    },
  }),
});
