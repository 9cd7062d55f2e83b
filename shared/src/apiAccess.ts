/**
 * The official player API's rules, shared by the API (enforcement, OpenAPI), the web (profile,
 * Learning Base) and the docs (docs/api.md): personal access token scopes, their format and the
 * request budgets.
 */

/** What a personal access token may do, each scope including the ones before it. */
export const API_TOKEN_SCOPES = ['read', 'trade', 'manage'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/**
 * What a procedure requires of a personal access token: the least scope, or 'session' for what
 * tokens never reach (admin routes, account settings, token management): those need a signed-in
 * session (the cookie, or the session token as a bearer).
 */
export type ProcedureAccess = ApiTokenScope | 'session';

export const API_TOKEN_SCOPE_DESCRIPTIONS: Record<ApiTokenScope, string> = {
  read: 'Read your company and the public world (every GET)',
  trade: 'Read, plus market, stock and store actions',
  manage: 'Trade, plus building, hiring, research, politics and the company profile',
};

/** Whether a token of scope `granted` may call something that needs `needed`. */
export function scopeCovers(granted: ApiTokenScope, needed: ApiTokenScope): boolean {
  return API_TOKEN_SCOPES.indexOf(granted) >= API_TOKEN_SCOPES.indexOf(needed);
}

/**
 * Token format: `mc_pat_<lookup id>_<secret>`. The prefix makes a personal access token
 * recognisable (to our API, which tells it from a session token, and to secret scanners); the
 * lookup id finds the row; only SHA-256 of the secret is stored.
 */
export const API_TOKEN_PREFIX = 'mc_pat_';
export const API_TOKEN_ID_LENGTH = 16;
export const API_TOKEN_SECRET_LENGTH = 32;
/** Both parts use this 32-letter alphabet (5 random bits a character, no look-alikes), as session tokens do. */
export const API_TOKEN_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

export const MAX_ACTIVE_API_TOKENS = 10;
export const MAX_API_TOKEN_NAME_LENGTH = 50;
export const MAX_API_TOKEN_EXPIRY_DAYS = 366;
/** The expiry choices the profile offers (null: never expires). */
export const API_TOKEN_EXPIRY_CHOICES = [7, 30, 90, 365, null] as const;

/**
 * Request budgets per minute (a fixed window on the minute, counted in PostgreSQL so they hold
 * across API servers). Every procedure call counts as a request (a tRPC batch of 5 counts 5);
 * mutations also count against the mutation budget. Tokens are the scripting channel; a browser
 * session makes several calls per page and polls, so it gets more room. Operators may change them
 * (RATE_LIMIT_* in the API's configuration).
 */
export const DEFAULT_RATE_LIMITS = {
  token: { requestsPerMinute: 120, mutationsPerMinute: 30 },
  session: { requestsPerMinute: 600, mutationsPerMinute: 120 },
} as const;

/** Days of per-token request counts kept for the profile and the admins (older days are deleted). */
export const API_TOKEN_USAGE_RETENTION_DAYS = 90;
/** A company shows the leaderboard's "API" badge when a token acted for it within this many days. */
export const API_BADGE_WINDOW_DAYS = 7;
