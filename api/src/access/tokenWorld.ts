/**
 * The world a personal access token acts in (docs/api.md, "Worlds"): the public world, unless the
 * request names another with the `X-World-Id` header. A token may name the worlds its user could
 * switch to on the website (PUT /api/session/world, `worldAccess`): the public world and the
 * private worlds they play in or teach; a token is never an admin, so an admin's token is no
 * exception. Anything else is refused: a malformed id 400, a world the user is not part of (or no
 * world at all) 404, never a silent fall back to the public world. Browser sessions choose their
 * world with the header's switcher, so the header is refused for them (400) rather than ignored.
 */
import { worldAccess, type DbExecutor } from '@marketcraft/db';
import { GameError, PUBLIC_WORLD_ID } from '@marketcraft/shared';

export const WORLD_ID_HEADER = 'X-World-Id';
/** A world id as PostgreSQL's integer holds it: 1 .. 2^31-1, digits only. */
const WORLD_ID_PATTERN = /^[1-9][0-9]{0,9}$/;
const MAX_WORLD_ID = 2_147_483_647;

export const WORLD_HEADER_FORMAT_MESSAGE = `${WORLD_ID_HEADER} must be a world id: a positive whole number (GET /api/worlds lists your worlds)`;
export const WORLD_HEADER_SESSION_MESSAGE = `${WORLD_ID_HEADER} is read only with a personal access token; a signed-in session plays in the world chosen with PUT /api/session/world`;
export const worldHeaderNotFoundMessage = (worldId: number) =>
  `World not found: ${WORLD_ID_HEADER} ${worldId} is not a world you play in. A token acts in the public world and in the private worlds its user plays in or teaches (GET /api/worlds).`;

export interface WorldChoice {
  worldId: number;
  /** Why the request cannot run in the world it named (every procedure answers it: api/src/access/guard.ts). */
  refusal: GameError | null;
}

const PUBLIC: WorldChoice = { worldId: PUBLIC_WORLD_ID, refusal: null };

/** The world of a request made with a personal access token of `userId`; `header`: its X-World-Id, if sent. */
export async function chooseTokenWorld(db: DbExecutor, userId: number, header: string | null): Promise<WorldChoice> {
  if (header === null) return PUBLIC;
  const text = header.trim();
  if (!WORLD_ID_PATTERN.test(text) || Number(text) > MAX_WORLD_ID) {
    return { ...PUBLIC, refusal: new GameError('INVALID_INPUT', WORLD_HEADER_FORMAT_MESSAGE) };
  }
  const worldId = Number(text);
  if (worldId === PUBLIC_WORLD_ID) return PUBLIC;
  try {
    await worldAccess(db, { id: userId, isAdmin: false }, worldId);
    return { worldId, refusal: null };
  } catch (error) {
    if (error instanceof GameError && error.code === 'NOT_FOUND')
      return { ...PUBLIC, refusal: new GameError('NOT_FOUND', worldHeaderNotFoundMessage(worldId)) };
    throw error;
  }
}

/** A request without a personal access token that sends the header anyway (sessions, visitors). */
export function worldHeaderWithoutToken(header: string | null): GameError | null {
  return header === null ? null : new GameError('INVALID_INPUT', WORLD_HEADER_SESSION_MESSAGE);
}
