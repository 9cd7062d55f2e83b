import type { Database } from '@marketcraft/db';
import { PUBLIC_WORLD_ID, type ProcedureAccess } from '@marketcraft/shared';
import type { Logger } from '@marketcraft/db/logger.ts';
import type { ApiConfig } from './config.ts';
import type { Lifecycle } from './availability.ts';
import { noteRequest } from './requestLog.ts';
import { parseCookies, sessionCookie } from './auth/cookies.ts';
import { SESSION_COOKIE_NAME, validateSessionToken, type ActiveCompany, type CallsToCount, type SessionUser } from './auth/session.ts';
import { tokenBudget, type CountedCalls } from './access/rateLimit.ts';
import { authenticatePersonalToken, bearerCredentialOf, type CredentialError } from './access/credentials.ts';
import type { ApiTokenCredential } from './access/personalTokens.ts';
import { WORLD_ID_HEADER, chooseTokenWorld, worldHeaderWithoutToken } from './access/tokenWorld.ts';
import type { GameError } from '@marketcraft/shared';

/** Long-lived things the API process shares between requests. */
export interface ApiServices {
  db: Database;
  /**
   * The database for mutations (api/src/trpc.ts): their single statements run on the transaction
   * pool, never queued behind the reads' small pipelined pool (db/src/client.ts, `writes`). Absent:
   * `db`.
   */
  writeDb?: Database;
  config: ApiConfig;
  /** The process's logger (unexpected errors; the request log has its own middleware). */
  logger: Logger;
  /** Sends the turn job and waits for the worker to finish it (set up in server.ts). */
  advanceTurn?: (worldId: number) => Promise<{ week: number }>;
  /** Sends a fork's replay job and waits for the worker to finish it (set up in server.ts). */
  forkWorld?: (forkId: number) => Promise<{ week: number }>;
  /** Reads the turn schedule from pg-boss. */
  cronStatus?: () => Promise<{ jobname: string; schedule: string; active: boolean }>;
  /** Whether a turn worker is connected (GET /api/health); absent: not checked. */
  workerConnected?: () => Promise<boolean>;
  /** Draining and in-flight requests for a graceful stop (server.ts); absent in tests that need none. */
  lifecycle?: Lifecycle;
}

export interface RequestContext extends ApiServices {
  user: SessionUser | null;
  /**
   * The user's active company when the credential check already read it (the session check does,
   * in the same query); undefined when it was not read (playerProcedure then reads it).
   */
  activeCompany?: ActiveCompany | null;
  /**
   * The world the request plays in: the session's current world (the header's switcher), else the
   * public world. Personal access tokens act in the public world, or in the world their request
   * names with X-World-Id (api/src/access/tokenWorld.ts).
   */
  worldId: number;
  /** Why the request cannot run in the world it named with X-World-Id: every procedure answers it (400 or 404). */
  worldRefusal: GameError | null;
  sessionId: string | null;
  /** How the caller came: a session cookie (needs the cross-site check), a session token as a bearer, or a personal access token. */
  authenticatedBy: 'cookie' | 'bearer' | 'token' | null;
  /** The personal access token of the request (its scope limits what it may call; api/src/access). */
  apiToken: ApiTokenCredential | null;
  /** A bearer credential that was refused (malformed, unknown, revoked, expired): every procedure answers it. */
  credentialError: CredentialError | null;
  req: Request;
  resHeaders: Headers;
  clientIp: string;
  /**
   * The session's rate counter after this request's calls, when the session check counted them
   * (createRequestContext's `calls`); the guard (api/src/access/guard.ts) then only reads it.
   */
  sessionCounted?: CountedCalls;
  /** The token's rate counter after this request's call, when the token check counted it. */
  tokenCounted?: CountedCalls;
  /**
   * The price version of the request's world (world_price_versions), read by the session or token
   * check in its statement (one row by its key): GET /goods answers its kept list with no statement
   * of its own while the version is unchanged. Undefined when the check did not read it.
   */
  pricesVersion?: string;
}

export function isSecureRequest(config: ApiConfig, req: Request): boolean {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.startsWith('https://');
  return new URL(req.url).protocol === 'https:';
}

export async function createRequestContext(
  services: ApiServices,
  req: Request,
  resHeaders: Headers,
  clientIp: string,
  /**
   * The calls this request makes, to count against the session's budget with the session check (one
   * query less). With `access` (one REST call's token scope), a personal access token's call is
   * counted with the token check too, when the token's scope allows it and no X-World-Id names
   * another world (the guard's refusals come before any count, as when it counts them itself).
   */
  calls?: CallsToCount & { access?: ProcedureAccess },
): Promise<RequestContext> {
  const authorization = req.headers.get('authorization');
  // With a bearer the cookie is never used (the cross-site check lets bearer requests through from any Origin).
  const bearer = bearerCredentialOf(authorization);
  const worldHeader = req.headers.get(WORLD_ID_HEADER);
  const tokenCall =
    calls?.calls === 1 && calls.access !== undefined && calls.access !== 'session' && worldHeader === null
      ? { isMutation: calls.isMutation, budget: tokenBudget(services.config), access: calls.access }
      : undefined;
  // Personal access tokens and malformed credentials are told apart from session tokens first.
  const byToken = await authenticatePersonalToken(services.db, authorization, tokenCall);
  if (byToken) {
    if (!byToken.user) return { ...services, ...byToken, worldId: PUBLIC_WORLD_ID, worldRefusal: null, sessionId: null, req, resHeaders, clientIp };
    noteRequest(req, { userId: byToken.user.id });
    const { worldId, refusal } = await chooseTokenWorld(services.db, byToken.user.id, worldHeader);
    // The token check read the public world's company; another world's is read by playerProcedure.
    const activeCompany = worldId === PUBLIC_WORLD_ID ? byToken.activeCompany : undefined;
    const pricesVersion = worldId === PUBLIC_WORLD_ID ? byToken.pricesVersion : undefined;
    return { ...services, ...byToken, activeCompany, pricesVersion, worldId, worldRefusal: refusal, sessionId: null, req, resHeaders, clientIp };
  }
  const cookieToken = parseCookies(req.headers.get('cookie')).get(SESSION_COOKIE_NAME) ?? null;
  const token = bearer ?? cookieToken;
  let user: SessionUser | null = null;
  let activeCompany: ActiveCompany | null | undefined;
  let worldId = PUBLIC_WORLD_ID;
  let sessionId: string | null = null;
  let authenticatedBy: RequestContext['authenticatedBy'] = null;
  let sessionCounted: CountedCalls | undefined;
  let pricesVersion: string | undefined;
  if (token) {
    const session = await validateSessionToken(services.db, token, new Date(), calls);
    if (session) {
      user = session.user;
      activeCompany = session.company;
      worldId = session.currentWorldId ?? PUBLIC_WORLD_ID;
      sessionId = session.id;
      sessionCounted = session.counted;
      pricesVersion = session.pricesVersion;
      authenticatedBy = bearer ? 'bearer' : 'cookie';
      noteRequest(req, { userId: user.id });
      if (!bearer) resHeaders.append('set-cookie', sessionCookie(token, session.expiresAt, isSecureRequest(services.config, req)));
    }
  }
  const worldRefusal = worldHeaderWithoutToken(worldHeader);
  return {
    ...services,
    user,
    activeCompany,
    worldId,
    worldRefusal,
    sessionId,
    authenticatedBy,
    apiToken: null,
    credentialError: null,
    req,
    resHeaders,
    clientIp,
    sessionCounted,
    pricesVersion,
  };
}
