/**
 * Vitest global setup: one real PostgreSQL server per test run (embedded unless DATABASE_URL is
 * set), a template database migrated and seeded once, and every test file gets its own fresh copy
 * (see freshDatabase.ts). Everything is dropped at the end: a test never touches the game's data.
 */
import { chmod, mkdtemp, readdir, readFile, rm, stat, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { processRuns, startEmbeddedPostgres, type EmbeddedServer } from '../embedded.ts';
import { migrateDatabase } from '../migrate.ts';
import { connectDatabase } from '../client.ts';
import { seedWorld } from '../seed/index.ts';
import { replaceDatabase } from './urls.ts';

import type {} from './freshDatabase.ts'; // brings the ProvidedContext declaration

/** statfs's type of a tmpfs (Linux's TMPFS_MAGIC). */
const TMPFS = 0x01021994;
const CLUSTER_PREFIX = 'marketcraft-test-pg-';
/** The most a run's cluster holds at once: the template, three files' copies, the WAL between checkpoints. */
const CLUSTER_ROOM_BYTES = 2 * 1024 ** 3;

/**
 * Where the run's throwaway cluster lives: in memory (/dev/shm, a tmpfs on Linux) when it is there
 * with room, else the system's temporary folder. Each test file's database is a copy of the
 * template's files (about 8,000 file creations) and each copy starts with a checkpoint that writes
 * out the other files' changed pages: on a disk's file system a copy took 0.3-0.6 s late in a run,
 * on tmpfs 0.07 s (docs/benchmarks.md, "npm test's time").
 */
async function clusterParent(): Promise<string> {
  const memory = '/dev/shm';
  try {
    await removeAbandonedClusters(memory);
    const fs = await statfs(memory);
    if (fs.type === TMPFS && fs.bavail * fs.bsize >= CLUSTER_ROOM_BYTES) return memory;
  } catch {
    // No /dev/shm (macOS, some containers): the temporary folder.
  }
  return os.tmpdir();
}

/** A cluster folder this old whose server is not running belongs to no run (a run's server starts within seconds). */
const ABANDONED_AFTER_MS = 60 * 60_000;

/**
 * A run that was killed (Ctrl-C twice, a CI timeout) leaves its cluster behind, and in memory it
 * would hold that memory until the machine restarts: the next run removes every such folder whose
 * server (postmaster.pid) is no longer running. Only folders over an hour old, so a run that is
 * still starting its server keeps its own.
 */
async function removeAbandonedClusters(parent: string): Promise<void> {
  for (const name of await readdir(parent)) {
    if (!name.startsWith(CLUSTER_PREFIX)) continue;
    const folder = path.join(parent, name);
    try {
      if (Date.now() - (await stat(folder)).mtimeMs < ABANDONED_AFTER_MS) continue;
      const pid = Number((await readFile(path.join(folder, 'data', 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
      if (pid > 0 && processRuns(pid)) continue;
      await rm(folder, { recursive: true, force: true });
    } catch {
      // Gone meanwhile, or another user's: not ours to remove.
    }
  }
}

export default async function setup(project: TestProject) {
  const runId = `mc_test_${Date.now().toString(36)}_${process.pid}`;
  let embedded: EmbeddedServer | undefined;
  let tempDir: string | undefined;
  let serverUrl = process.env.DATABASE_URL ? replaceDatabase(process.env.DATABASE_URL, 'postgres') : '';
  if (!serverUrl) {
    tempDir = await mkdtemp(path.join(await clusterParent(), CLUSTER_PREFIX));
    await chmod(tempDir, 0o755); // the server runs as the `postgres` user when we are root
    embedded = await startEmbeddedPostgres({ dataDir: path.join(tempDir, 'data'), persistent: false });
    serverUrl = embedded.url;
  }
  const template = `${runId}_template`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${template}"`);
  const templateUrl = replaceDatabase(serverUrl, template);
  await migrateDatabase(templateUrl);
  const connection = connectDatabase(templateUrl, { max: 2 });
  await seedWorld(connection.db);
  await connection.close();
  // The planner's statistics of the seeded tables, which every copy inherits: without them each
  // test file's turns planned the seeded world's reads on default guesses until autovacuum came
  // by (about a fifth more of PostgreSQL's CPU in a turn; docs/benchmarks.md, "npm test's time").
  const analyze = postgres(templateUrl, { max: 1, onnotice: () => {} });
  try {
    await analyze.unsafe('vacuum (analyze)');
  } finally {
    await analyze.end({ timeout: 5 });
  }

  project.provide('testServerUrl', serverUrl);
  project.provide('testTemplateDatabase', template);
  project.provide('testRunId', runId);

  return async () => {
    const leftovers = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${runId + '%'}`;
    for (const { datname } of leftovers) {
      await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    }
    await admin.end({ timeout: 5 });
    if (embedded) await embedded.stop();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };
}
