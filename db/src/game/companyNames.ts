/**
 * Company names (docs/world.md, "Company names"): one active company per name in a world, bots
 * included, whatever the case and surrounding spaces. The database decides (the unique index
 * COMPANY_NAME_INDEX on (world_id, lower(btrim(name))) of active companies), so two requests racing
 * for one name get one success and one 409, never a 500.
 */
import { sql } from 'drizzle-orm';
import { GameError, MAX_COMPANY_NAME_LENGTH } from '@marketcraft/shared';
import type { DbExecutor } from '../client.ts';
import { COMPANY_NAME_INDEX } from '../schema/index.ts';

export const COMPANY_NAME_TAKEN = 'Another company in this world already has this name: choose another';

/** Whether `error` (or a cause in its chain, where drizzle puts the driver's) broke the company name index. */
export function isCompanyNameTaken(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, constraint_name: constraint } = current as { code?: unknown; constraint_name?: unknown };
    if (code === '23505' && constraint === COMPANY_NAME_INDEX) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Runs a write that sets a company's name; a name already taken in the world answers 409 COMPANY_NAME_TAKEN. */
export async function withCompanyName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isCompanyNameTaken(error)) throw new GameError('CONFLICT', COMPANY_NAME_TAKEN);
    throw error;
  }
}

/**
 * The name a company founded without one gets: `base` ("Jane Doe Enterprises"), or with the first
 * free number after it ("Jane Doe Enterprises 2") when another active company of the world has it.
 * Founding holds the world's founding lock, so no other founding takes the name meanwhile.
 */
export async function freeCompanyName(tx: DbExecutor, worldId: number, base: string): Promise<string> {
  // Every name that could clash: those starting like the base (a long base is cut to fit its number).
  const prefix = likePrefix(base.trim().toLowerCase().slice(0, MAX_COMPANY_NAME_LENGTH - 10));
  const rows = await tx.execute<{ key: string }>(sql`
    select lower(btrim(name)) as key from companies
    where world_id = ${worldId} and status = 'active' and lower(btrim(name)) like ${`${prefix}%`}`);
  const taken = new Set(rows.map((row) => row.key));
  for (let number = 1; ; number += 1) {
    const suffix = number === 1 ? '' : ` ${number}`;
    const name = `${base.slice(0, MAX_COMPANY_NAME_LENGTH - suffix.length).trim()}${suffix}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** `text` as a LIKE prefix: its wildcards matched literally. */
function likePrefix(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
