/**
 * What the API and the worker say to each other, defined once: the turn queue's name and job
 * payload, the PostgreSQL application names each process connects with (the API checks that a
 * worker is connected before it sends a turn), and the NOTIFY channel and payload the worker sends
 * after each turn. Types and constants only: no pg-boss here, the web app may import it.
 */
import { GAME_UPDATES_PG_CHANNEL, TURN_JOB_NAME } from './constants.ts';

/** The pg-boss queue of turns (the spec's job name). */
export const TURN_QUEUE = TURN_JOB_NAME;

/** A turn job's payload. */
export interface TurnJobData {
  /** The world the job advances (absent in jobs sent before worlds: the public world). */
  worldId?: number;
  /** The week the job advances from (manual turns); absent for the cron schedule's jobs. */
  week?: number;
  /** A fork's replay (POST /api/worlds/{id}/fork): the job replays the original's log into world `worldId` instead of turning it. */
  fork?: boolean;
}

/**
 * The singleton key of a world's turn jobs: the turn queue's policy ('singleton') lets one job per
 * key be active at a time, so turns of one world run strictly one after another while different
 * worlds' turns run in parallel.
 */
export function worldTurnKey(worldId: number): string {
  return `world:${worldId}`;
}

/** PostgreSQL `application_name` of each process's connections (visible in pg_stat_activity). */
export const APPLICATION_NAMES = {
  api: 'marketcraft-api',
  /** The API's pg-boss client that sends turn jobs. */
  apiTurns: 'marketcraft-api-turns',
  /** Every connection of a worker process (pg-boss and the turn): the API looks for it. */
  worker: 'marketcraft-worker',
  seed: 'marketcraft-seed',
} as const;

/** The NOTIFY channel a committed turn is announced on (the API relays it to browsers). */
export const GAME_UPDATES_CHANNEL = GAME_UPDATES_PG_CHANNEL;

/** The payload of a game_updates notification: the world's new week and the week the turn processed. */
export interface GameUpdate {
  /** The world whose turn committed (GET /api/realtime sends it only to streams of that world's players). */
  worldId: number;
  week: number;
  processedWeek: number;
}
