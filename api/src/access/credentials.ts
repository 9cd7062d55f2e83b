/**
 * Which credential a request carries, before the session path looks at it (api/src/context.ts):
 * a personal access token (`Authorization: Bearer mc_pat_…`) is checked here, and a credential
 * that is neither a personal access token nor shaped like a session token is refused as
 * malformed. Session tokens (as the cookie or as a bearer) are left to the session path.
 */
import type { DbExecutor } from '@marketcraft/db';
import { API_TOKEN_PREFIX } from '@marketcraft/shared';
import { isSessionTokenShape, type ActiveCompany, type SessionUser } from '../auth/session.ts';
import { TOKEN_MESSAGES, checkPersonalAccessToken, isPersonalAccessToken, type ApiTokenCredential, type TokenCallToCount } from './personalTokens.ts';
import type { CountedCalls } from './rateLimit.ts';

/** A refused credential: the status, the RFC 6750 error code for WWW-Authenticate, and the message. */
export interface CredentialError {
  status: 400 | 401;
  code: 'invalid_request' | 'invalid_token';
  reason: 'malformed' | 'unknown' | 'revoked' | 'expired' | 'in_url';
  message: string;
}

export const TOKEN_IN_URL_MESSAGE =
  'API tokens go in the Authorization header (Authorization: Bearer <token>), never in the URL: URLs are kept in logs and browser history. Revoke this token on your profile and create a new one.';
const WRONG_SCHEME_MESSAGE = `Send personal access tokens as Authorization: Bearer ${API_TOKEN_PREFIX}…`;

export interface TokenAuthentication {
  user: SessionUser | null;
  /** The user's active company, read with the token (undefined when the credential was refused). */
  activeCompany?: ActiveCompany | null;
  authenticatedBy: 'token' | null;
  apiToken: ApiTokenCredential | null;
  credentialError: CredentialError | null;
  /** The token's rate counter after this request, when the token check counted it (TokenCallToCount). */
  tokenCounted?: CountedCalls;
  /** The public world's price version, read with the token (RequestContext.pricesVersion). */
  pricesVersion?: string;
}

const refused = (error: CredentialError): TokenAuthentication => ({ user: null, authenticatedBy: null, apiToken: null, credentialError: error });

/**
 * The request's personal access token, or its refusal; null when the Authorization header is
 * absent, holds a session token, or uses another scheme without a personal access token in it
 * (the session path then decides).
 */
export async function authenticatePersonalToken(db: DbExecutor, authorization: string | null, count?: TokenCallToCount): Promise<TokenAuthentication | null> {
  if (!authorization) return null;
  const match = /^bearer(?:\s+(.*))?$/is.exec(authorization.trim());
  if (!match) {
    if (!authorization.toLowerCase().includes(API_TOKEN_PREFIX)) return null;
    return refused({ status: 401, code: 'invalid_request', reason: 'malformed', message: WRONG_SCHEME_MESSAGE });
  }
  const credential = (match[1] ?? '').trim();
  if (!isPersonalAccessToken(credential)) {
    if (isSessionTokenShape(credential)) return null;
    return refused({ status: 401, code: 'invalid_token', reason: 'malformed', message: TOKEN_MESSAGES.malformed });
  }
  const check = await checkPersonalAccessToken(db, credential, new Date(), count);
  if (!check.ok) return refused({ status: 401, code: 'invalid_token', reason: check.reason, message: check.message });
  return {
    user: check.user,
    activeCompany: check.company,
    authenticatedBy: 'token',
    apiToken: check.token,
    credentialError: null,
    tokenCounted: check.counted,
    pricesVersion: check.pricesVersion,
  };
}

/**
 * The credential of an `Authorization: Bearer <credential>` header, or null (no header, another
 * scheme, nothing after Bearer). The one reading of the header: the cross-site check lets a request
 * with a bearer through from any Origin because the session path then uses this, never the cookie.
 */
export function bearerCredentialOf(authorization: string | null): string | null {
  const match = authorization ? /^bearer\s+(\S.*)$/is.exec(authorization.trim()) : null;
  return match ? match[1]!.trim() : null;
}

/** Whether a URL carries something that looks like a token: refused before any route runs. */
export function urlCarriesToken(url: URL): boolean {
  for (const [name, value] of url.searchParams) {
    const lowered = name.toLowerCase();
    if (lowered === 'access_token' || lowered === 'api_key' || lowered === 'apikey' || lowered === 'token') return true;
    if (value.toLowerCase().includes(API_TOKEN_PREFIX)) return true;
  }
  return false;
}
