/**
 * The API process's configuration, read from the environment and validated once, here.
 * Nothing else in the API reads process.env.
 */
import { z } from 'zod';
import { DEFAULT_RATE_LIMITS, EARLY_BIRD_PER_ADDRESS, EARLY_BIRD_PLAYER_LIMIT, SIGNUPS_PER_ADDRESS_PER_HOUR, SIGNUP_BONUS_MODES } from '@marketcraft/shared';
import { LOG_FORMATS, LOG_LEVELS, defaultLogFormat } from '@marketcraft/db/logger.ts';

const emailList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  );

const apiEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url(),
  /** Public origin of the app (https://play.example.com); needed for Google sign-in and Secure cookies. */
  PUBLIC_URL: z.string().url().optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  /** Overrides Google's endpoints (tests point them at a local fake provider). */
  GOOGLE_AUTHORIZATION_URL: z.string().url().optional(),
  GOOGLE_TOKEN_URL: z.string().url().optional(),
  ADMIN_EMAILS: emailList,
  /** The community's Discord invite (https://discord.gg/...), shown on /community; unset: a friendly text instead. */
  DISCORD_INVITE_URL: z
    .string()
    .url()
    .refine((url) => url.startsWith('https://'), 'must be an https:// link')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SIGNUP_BONUS: z.enum(SIGNUP_BONUS_MODES).default('early-bird'),
  /** Early-bird bonuses sign-ups from one network address take (docs/auth.md, "Starting cash"). */
  EARLY_BIRD_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000).default(EARLY_BIRD_PER_ADDRESS),
  /** Player companies of the public world that get the early-bird bonus: the spec's first 50 (docs/auth.md, "Starting cash"). */
  EARLY_BIRD_PLAYERS: z.coerce.number().int().min(0).max(1_000_000).default(EARLY_BIRD_PLAYER_LIMIT),
  /** Sign-ups one network address makes in an hour; 0: no limit (docs/auth.md, "Sign-up throttle"). */
  SIGNUPS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(SIGNUPS_PER_ADDRESS_PER_HOUR),
  /** Where the built web app lives; the API serves it when the folder exists. */
  WEB_DIST_DIR: z.string().optional(),
  /** Reverse proxies in front of the API whose X-Forwarded-For is believed (0: none; see clientIp.ts). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** How long POST /api/admin/advance-turn waits for the worker (ms). */
  ADVANCE_TURN_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  /**
   * '1' when the launcher (`npm start`, scripts/start.ts) migrated and seeded the database just
   * before starting this process: it does not do it again (a full seed pass at each start).
   */
  DATABASE_PREPARED: z.enum(['0', '1']).default('0'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** json (default when stdout is not a terminal) or pretty. */
  LOG_FORMAT: z.enum(LOG_FORMATS).default(defaultLogFormat()),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Calls and mutations a minute per personal access token and per session (docs/api.md). */
  RATE_LIMIT_TOKEN_REQUESTS: z.coerce.number().int().positive().default(DEFAULT_RATE_LIMITS.token.requestsPerMinute),
  RATE_LIMIT_TOKEN_MUTATIONS: z.coerce.number().int().positive().default(DEFAULT_RATE_LIMITS.token.mutationsPerMinute),
  RATE_LIMIT_SESSION_REQUESTS: z.coerce.number().int().positive().default(DEFAULT_RATE_LIMITS.session.requestsPerMinute),
  RATE_LIMIT_SESSION_MUTATIONS: z.coerce.number().int().positive().default(DEFAULT_RATE_LIMITS.session.mutationsPerMinute),
});

export type ApiConfig = z.infer<typeof apiEnvSchema>;

export function loadApiConfig(env: Record<string, string | undefined> = process.env): ApiConfig {
  const parsed = apiEnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid API configuration: ${problems}`);
  }
  return parsed.data;
}

export function googleSignInEnabled(config: ApiConfig): boolean {
  return Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET && config.PUBLIC_URL);
}
