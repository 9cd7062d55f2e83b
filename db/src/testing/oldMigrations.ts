/**
 * Upgrade tests: an empty database and the migrations folder as it was at an older migration (the
 * journal cut after `lastTag`), so a test can build an old game, then apply the rest
 * (MIGRATIONS_FOLDER) and check what the upgrade kept.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { MIGRATIONS_FOLDER } from '../migrate.ts';
import { replaceDatabase } from './urls.ts';

export interface OldMigrations {
  /** The new database's URL. */
  url: string;
  /** The migrations up to and including `lastTag`. */
  oldFolder: string;
  /** Drops the database and the folder. */
  cleanup: () => Promise<void>;
}

export async function databaseWithOldMigrations(serverUrl: string, databaseName: string, lastTag: string): Promise<OldMigrations> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${databaseName}"`);
  const oldFolder = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-old-migrations-'));
  await cp(MIGRATIONS_FOLDER, oldFolder, { recursive: true });
  const journalPath = path.join(oldFolder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (cut < 0) throw new Error(`No migration ${lastTag} in ${MIGRATIONS_FOLDER}`);
  journal.entries = journal.entries.slice(0, cut + 1);
  await writeFile(journalPath, JSON.stringify(journal));
  return {
    url: replaceDatabase(serverUrl, databaseName),
    oldFolder,
    cleanup: async () => {
      await admin.unsafe(`drop database if exists "${databaseName}" with (force)`);
      await admin.end();
      await rm(oldFolder, { recursive: true, force: true });
    },
  };
}
