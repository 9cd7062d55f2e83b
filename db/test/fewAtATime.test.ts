/**
 * runFewAtATime (db/src/statements.ts): trades of one issuer or product wait in this process
 * rather than all at once in PostgreSQL; at most STATEMENTS_PER_KEY of one key run at once, in the
 * order asked, a failure passes its place on, and other keys never wait for them.
 */
import { describe, expect, it } from 'vitest';
import { STATEMENTS_PER_KEY, runFewAtATime } from '../src/statements.ts';

/** A run that ends when told: `ends[i]()` lets run i end (or fail). */
function controlledRuns(count: number) {
  const started: number[] = [];
  const ends: { finish: () => void; fail: () => void }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const run = (index: number) => () =>
    new Promise<number>((resolve, reject) => {
      started.push(index);
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      ends[index] = {
        finish: () => {
          running--;
          resolve(index);
        },
        fail: () => {
          running--;
          reject(new Error(`run ${index} failed`));
        },
      };
    });
  return { started, ends, run, mostAtOnce: () => mostAtOnce, count };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('runFewAtATime', () => {
  it('runs at most STATEMENTS_PER_KEY of one key at once, in the order asked, and each gets its own result', async () => {
    const runs = controlledRuns(10);
    const results = Array.from({ length: runs.count }, (_, index) => runFewAtATime('shares:1', runs.run(index)));
    await settle();
    expect(runs.started).toEqual([0, 1, 2].slice(0, STATEMENTS_PER_KEY));
    for (let index = 0; index < runs.count; index++) {
      runs.ends[index]!.finish();
      await settle();
    }
    expect(await Promise.all(results)).toEqual(Array.from({ length: runs.count }, (_, index) => index));
    expect(runs.started).toEqual(Array.from({ length: runs.count }, (_, index) => index));
    expect(runs.mostAtOnce()).toBe(STATEMENTS_PER_KEY);
  });

  it('a failed run passes its place on, and other keys never wait', async () => {
    const runs = controlledRuns(STATEMENTS_PER_KEY + 2);
    const results = Array.from({ length: runs.count }, (_, index) => runFewAtATime('goods:7', runs.run(index)).catch((error: Error) => error.message));
    const other = controlledRuns(1);
    const otherResult = runFewAtATime('goods:8', other.run(0));
    await settle();
    expect(other.started).toEqual([0]);
    other.ends[0]!.finish();
    expect(await otherResult).toBe(0);
    runs.ends[0]!.fail();
    await settle();
    expect(runs.started).toContain(STATEMENTS_PER_KEY);
    for (let index = 1; index < runs.count; index++) {
      runs.ends[index]!.finish();
      await settle();
    }
    expect(await Promise.all(results)).toEqual(['run 0 failed', ...Array.from({ length: runs.count - 1 }, (_, index) => index + 1)]);
  });
});
