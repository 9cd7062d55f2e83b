/**
 * `DATA_DIR=$(mktemp -d) npm start` as root: mktemp makes the folder 0700, and the embedded
 * PostgreSQL, which runs as the postgres user, could not reach its data inside it.
 */
import { mkdtemp, mkdir, rm, stat, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { letPostgresUserReach } from '../src/embedded.ts';

const made: string[] = [];
afterEach(async () => {
  for (const folder of made.splice(0)) {
    await chmod(folder, 0o700).catch(() => {});
    await rm(folder, { recursive: true, force: true });
  }
});

describe('letPostgresUserReach', () => {
  it('lets others enter (only enter) the folder that holds the data, as mktemp -d leaves it 0700', async () => {
    const dataRoot = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-perm-'));
    made.push(dataRoot);
    expect((await stat(dataRoot)).mode & 0o777).toBe(0o700);
    const messages: string[] = [];
    await letPostgresUserReach(path.join(dataRoot, 'postgres'), (message) => messages.push(message));
    expect((await stat(dataRoot)).mode & 0o777).toBe(0o701);
    expect(messages).toEqual([`made ${dataRoot} enterable (o+x) for the postgres user`]);
    // Already enterable: nothing changes, nothing is said.
    await letPostgresUserReach(path.join(dataRoot, 'postgres'), (message) => messages.push(message));
    expect(messages).toHaveLength(1);
  });

  it('refuses, saying what to do, when a folder further up cannot be entered', async () => {
    const outer = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-perm-'));
    made.push(outer);
    const dataRoot = path.join(outer, 'game');
    await mkdir(dataRoot, { mode: 0o700 });
    await expect(letPostgresUserReach(path.join(dataRoot, 'postgres'))).rejects.toThrow(`cannot enter ${outer}`);
  });
});
