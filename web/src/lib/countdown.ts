/**
 * The Next Turn label of the header (spec section 4) and the admin panel's "time until next turn"
 * (spec section 2), as pure functions of the world state and the current time.
 */
import { PROCESSING_WINDOW_MINUTES } from '@marketcraft/shared';

export interface TurnTimes {
  last_turn_at: string | null;
  next_turn_at: string | null;
  /** The world's clock (absent: running). A paused or ended world has no turn to count down to. */
  status?: string;
  /** The server's words for how the world's turns come ('Manual turns' when it has no schedule). */
  turns?: string;
}

export const PROCESSING_WINDOW_MS = PROCESSING_WINDOW_MINUTES * 60 * 1000;

function parseTime(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * - before data loads: 'Loading...'
 * - for 30 minutes after the last turn: 'Processing (Xm Ys)', the time left in that window
 * - then the time until the next turn: 'Xh Ym Zs'
 * - once the next turn time has passed: 'Turn starting...'
 * - a world whose clock is paused: 'Paused'; an ended world: 'Ended' (docs/web.md)
 * - a world without a next turn time: how its turns come, in the server's words ('Manual turns'),
 *   or 'N/A' when the server did not say
 */
/** The 30 minutes after the last turn (spec: the header reads 'Processing'): that turn's results are in. */
export function inProcessingWindow(world: TurnTimes | null | undefined, nowMs: number): boolean {
  const last = parseTime(world?.last_turn_at);
  return last !== null && nowMs >= last && nowMs - last < PROCESSING_WINDOW_MS;
}

export function nextTurnLabel(world: TurnTimes | null | undefined, nowMs: number): string {
  if (!world) return 'Loading...';
  const last = parseTime(world.last_turn_at);
  if (last !== null && inProcessingWindow(world, nowMs)) {
    const left = Math.ceil((last + PROCESSING_WINDOW_MS - nowMs) / 1000);
    const minutes = Math.floor(left / 60);
    const seconds = left % 60;
    return `Processing (${minutes}m ${seconds}s)`;
  }
  if (world.status === 'paused') return 'Paused';
  if (world.status === 'ended') return 'Ended';
  const next = parseTime(world.next_turn_at);
  if (next === null) return world.turns ?? 'N/A';
  if (nowMs >= next) return 'Turn starting...';
  const totalSeconds = Math.floor((next - nowMs) / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return `${hours}h ${minutes}m ${seconds}s`;
}

/** Admin panel: 'Xh Ym' until the next turn, 'Overdue' once it has passed, 'N/A' when unknown. */
export function timeUntilNextTurn(nextTurnAt: string | null | undefined, nowMs: number): string {
  const next = parseTime(nextTurnAt);
  if (next === null) return 'N/A';
  if (nowMs >= next) return 'Overdue';
  const totalMinutes = Math.floor((next - nowMs) / 60_000);
  return `${Math.floor(totalMinutes / 60)}h ${totalMinutes % 60}m`;
}

/** True once the next turn time has passed while the clock runs (the header then polls for the new week). */
export function isTurnDue(world: TurnTimes | null | undefined, nowMs: number): boolean {
  if (world?.status !== undefined && world.status !== 'active') return false;
  const next = parseTime(world?.next_turn_at);
  return next !== null && nowMs >= next;
}

/** The side menu footer's first line in a world on the public schedule: the spec's text (section 2). */
const SCHEDULED_TURNS_FOOTER = 'Turns every 12 hours';

/**
 * The side menu footer's line on turns: the spec's 'Turns every 12 hours' where that is true (the
 * public world on its schedule), otherwise the world's own cadence in the server's words ('Manual
 * turns', 'Turns every 5 min', 'Turns paused', 'World ended'); null until the world is known, so no
 * wrong line shows first (docs/web.md).
 */
export function turnsFooterLine(turns: string | null | undefined): string | null {
  if (!turns) return null;
  if (turns === 'Every 12 hours') return SCHEDULED_TURNS_FOOTER;
  if (turns === 'Paused') return 'Turns paused';
  if (turns === 'Ended') return 'World ended';
  if (turns.startsWith('Every ')) return `Turns every ${turns.slice('Every '.length)}`;
  return turns;
}

/** The side menu footer's last line in the public world: the spec's text (section 2). */
const PUBLIC_BOTS_FOOTER = 'Compete with 25+ AI bots';

/**
 * The side menu footer's line on bots: the spec's 'Compete with 25+ AI bots' in the public world; a
 * class world has the bots its instructor chose (0-25), so it says how many ('Compete with 2 AI
 * bots', 'No AI bots: only your classmates'); null until the world is known.
 */
export function botsFooterLine(world: { kind: string; bots: number } | null | undefined): string | null {
  if (!world) return null;
  if (world.kind === 'public') return PUBLIC_BOTS_FOOTER;
  if (world.bots === 0) return 'No AI bots: only your classmates';
  return `Compete with ${world.bots} AI bot${world.bots === 1 ? '' : 's'}`;
}
