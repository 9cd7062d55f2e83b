/**
 * Errors of the game's rules, thrown by operations and mapped once (api/src/trpc.ts) to tRPC codes
 * and HTTP statuses. The message is what the player reads.
 */
const GAME_ERROR_STATUS = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  NOT_ENOUGH_CASH: 409,
  NOT_ENOUGH_STOCK: 409,
  NOT_ENOUGH_SHARES: 409,
  RULE_BROKEN: 422,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
} as const;

export type GameErrorCode = keyof typeof GAME_ERROR_STATUS;

export class GameError extends Error {
  readonly code: GameErrorCode;
  /** For 429 and 503: when the client may try again (sent as the Retry-After header). */
  readonly retryAfterSeconds: number | undefined;
  constructor(code: GameErrorCode, message: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'GameError';
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds === undefined ? undefined : Math.max(1, Math.ceil(options.retryAfterSeconds));
  }

  get status(): number {
    return GAME_ERROR_STATUS[this.code];
  }
}
