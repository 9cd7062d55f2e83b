/**
 * Company names (docs/world.md, "Company names"): one active company per name in a world, bots
 * included, whatever the case and surrounding spaces, and none that looks like another: 'Acme' with
 * a Cyrillic 'а', 'Blitz Cоnglomerate' with a Cyrillic 'о', 'Acme 1' and 'Acme l'. The database
 * decides, with two unique indexes over the active companies of a world: COMPANY_NAME_INDEX on
 * lower(btrim(name)) and COMPANY_NAME_LOOKALIKE_INDEX on name_key (companyNameKey, written with every
 * name), so two requests racing for one name or two look-alikes get one success and one 409, never a 500.
 */
import { sql } from 'drizzle-orm';
import unhomoglyph from 'unhomoglyph';
import { GameError, MAX_COMPANY_NAME_LENGTH } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { COMPANY_NAME_INDEX, COMPANY_NAME_LOOKALIKE_INDEX } from '../../schema/index.ts';
import { escapeLike } from './lists.ts';

export const COMPANY_NAME_TAKEN = 'Another company in this world already has this name: choose another';
export const COMPANY_NAME_TOO_SIMILAR = "This name looks too much like another company's name in this world: choose another";

/**
 * UTS #39's skeleton: NFD, each character replaced by its prototype in Unicode's confusables.txt
 * (the unhomoglyph package's table of it), NFD again. Two texts that look alike have one skeleton;
 * it is a comparison key, never shown ('m' becomes 'rn').
 */
function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}

/**
 * The key two active companies of a world may not share. Case does not make a new name, so the key
 * is case-blind too: the skeleton of the name in capitals (spaces as the name schema stores them),
 * lowercased, then the skeleton of that. Capitals first because some letters only look alike in one
 * case ('I' and 'l'; Cyrillic 'М' and 'M' but not 'м' and 'm'); the second skeleton folds the
 * lowercase look-alikes ('m' and 'rn'). So 'ACME', 'Acme', 'Аcme' (Cyrillic А) and 'Acrne' share a
 * key; names in one non-Latin script ('Москва Трейд', '株式会社トヨタ') keep their own letters and
 * pass unless they look like a taken name.
 */
export function companyNameKey(name: string): string {
  return skeleton(skeleton(name.trim().replace(/\s+/g, ' ').toUpperCase()).toLowerCase());
}

/** Which company name index `error` (or a cause in its chain, where drizzle puts the driver's) broke, if any. */
function brokenNameIndex(error: unknown): 'taken' | 'lookalike' | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, constraint_name: constraint } = current as { code?: unknown; constraint_name?: unknown };
    if (code === '23505' && constraint === COMPANY_NAME_INDEX) return 'taken';
    if (code === '23505' && constraint === COMPANY_NAME_LOOKALIKE_INDEX) return 'lookalike';
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Runs a write that sets a company's name (and its name_key = companyNameKey(name)); a name already
 * taken in the world answers 409 COMPANY_NAME_TAKEN, a look-alike of a taken one 409
 * COMPANY_NAME_TOO_SIMILAR. (The same name breaks both indexes; PostgreSQL checks them in the order
 * they were created, the plain one first, so it reads "already has this name".)
 */
export async function withCompanyName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const broken = brokenNameIndex(error);
    if (broken === 'taken') throw new GameError('CONFLICT', COMPANY_NAME_TAKEN);
    if (broken === 'lookalike') throw new GameError('CONFLICT', COMPANY_NAME_TOO_SIMILAR);
    throw error;
  }
}

/**
 * The name a company founded without one gets: `base` ("Jane Doe Enterprises"), or with the first
 * free number after it ("Jane Doe Enterprises 2") when another active company of the world has it or
 * a look-alike of it (so nobody can keep a player from signing up by taking a look-alike first).
 * Founding holds the world's founding lock, so no other founding takes the name meanwhile.
 */
export async function freeCompanyName(tx: DbExecutor, worldId: number, base: string): Promise<string> {
  // Every name that could clash: those starting like the base (a long base is cut to fit its
  // number), by name and by key (the key of a name is the keys of its characters in a row).
  const start = base.trim().slice(0, MAX_COMPANY_NAME_LENGTH - 10);
  const rows = await tx.execute<{ key: string; name_key: string | null }>(sql`
    select lower(btrim(name)) as key, name_key from companies
    where world_id = ${worldId} and status = 'active'
      and (lower(btrim(name)) like ${`${escapeLike(start.toLowerCase())}%`} or name_key like ${`${escapeLike(companyNameKey(start))}%`})`);
  const taken = new Set(rows.map((row) => row.key));
  const takenKeys = new Set(rows.map((row) => row.name_key));
  for (let number = 1; ; number += 1) {
    const suffix = number === 1 ? '' : ` ${number}`;
    const name = `${base.slice(0, MAX_COMPANY_NAME_LENGTH - suffix.length).trim()}${suffix}`;
    if (!taken.has(name.toLowerCase()) && !takenKeys.has(companyNameKey(name))) return name;
  }
}

/**
 * Fills name_key for the companies written without it (every company, at the first start after
 * migration 0017; rows that tests insert directly). Runs at start under the setup lock, before the
 * seed. A look-alike of an older active company of its world (which the key now refuses) keeps its
 * look but gets its id appended, as migration 0016 did for duplicates: 'Acmе (1234)'. Returns how
 * many rows it filled.
 */
export async function fillCompanyNameKeys(db: DbExecutor): Promise<number> {
  const missing = await db.execute<{ world_id: number; id: number; name: string; status: string }>(sql`
    select world_id, id, name, status from companies where name_key is null order by id`);
  if (missing.length === 0) return 0;
  const worldIds = [...new Set(missing.map((row) => row.world_id))];
  const keyed = await db.execute<{ world_id: number; name_key: string }>(sql`
    select world_id, name_key from companies
    where status = 'active' and name_key is not null and world_id in (${sql.join(
      worldIds.map((id) => sql`${id}`),
      sql`, `,
    )})`);
  const takenByWorld = new Map<number, Set<string>>();
  const takenIn = (worldId: number) => takenByWorld.get(worldId) ?? takenByWorld.set(worldId, new Set()).get(worldId)!;
  for (const row of keyed) takenIn(row.world_id).add(row.name_key);
  const filled = missing.map((row) => {
    let name = row.name;
    let key = companyNameKey(name);
    if (row.status === 'active') {
      const taken = takenIn(row.world_id);
      while (taken.has(key)) {
        name = `${name.trim()} (${row.id})`;
        key = companyNameKey(name);
      }
      taken.add(key);
    }
    return { world_id: row.world_id, id: row.id, name, key };
  });
  const BATCH = 2_000;
  for (let index = 0; index < filled.length; index += BATCH) {
    const batch = JSON.stringify(filled.slice(index, index + BATCH));
    await db.execute(sql`
      update companies c set name = f.name, name_key = f.key
      from json_to_recordset(${batch}::json) as f(world_id int, id int, name text, key text)
      where c.world_id = f.world_id and c.id = f.id`);
  }
  return filled.length;
}
