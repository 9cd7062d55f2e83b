/**
 * LTI 1.3 launches (docs/classroom.md, "Launch from your course system"): OIDC third-party login
 * initiation, then the platform's id_token checked with jose (signature by the platform's JWKS,
 * iss, aud/azp, exp, the nonce of our own login used once, deployment id, message type and
 * version), then the user signed in and placed in the course's class world.
 *
 * Who a launch signs in is decided by (platform registration, `sub`) only: accounts are created for
 * a platform's users and never looked up by e-mail, so a platform (or an instructor who registers
 * one) can never sign anyone in as a user of another issuer or of the game's own sign-in.
 */
import { and, eq, sql } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import {
  createWorld,
  getWorld,
  joinWorld,
  ltiContexts,
  ltiLoginStates,
  ltiPlatforms,
  ltiUsers,
  users,
  worldInstructors,
  worlds,
  type Database,
  type DbExecutor,
} from '@marketcraft/db';
import { GameError, createWorldSchema, joinWorldSchema } from '@marketcraft/shared';

export const LTI_VERSION = '1.3.0';
export const CLAIM = {
  messageType: 'https://purl.imsglobal.org/spec/lti/claim/message_type',
  version: 'https://purl.imsglobal.org/spec/lti/claim/version',
  deploymentId: 'https://purl.imsglobal.org/spec/lti/claim/deployment_id',
  targetLinkUri: 'https://purl.imsglobal.org/spec/lti/claim/target_link_uri',
  roles: 'https://purl.imsglobal.org/spec/lti/claim/roles',
  context: 'https://purl.imsglobal.org/spec/lti/claim/context',
  resourceLink: 'https://purl.imsglobal.org/spec/lti/claim/resource_link',
  ags: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
  nrps: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
  custom: 'https://purl.imsglobal.org/spec/lti/claim/custom',
} as const;
export const RESOURCE_LINK_REQUEST = 'LtiResourceLinkRequest';
export const DEEP_LINKING_REQUEST = 'LtiDeepLinkingRequest';

/** A login must come back within this time (the platform answers at once; a person never waits here). */
export const LOGIN_STATE_LIFETIME_MS = 10 * 60 * 1000;
/** The advisory lock class of a course's launches (with the course's hash as the second key). */
const COURSE_LAUNCH_LOCK = 0x4c544931; // "LTI1"
/** Clock skew allowed between the platform and us when checking exp/iat. */
const CLOCK_TOLERANCE_SECONDS = 30;

export const LTI_MESSAGES = {
  unknownPlatform: 'This course platform is not registered with Marketcraft: ask your administrator to register its issuer and client id',
  loginIncomplete: 'The login initiation needs "iss", "login_hint" and "target_link_uri"',
  launchIncomplete: 'The launch needs "id_token" and "state"',
  stateUnknown: 'This launch is unknown, already used or expired: open Marketcraft again from your course',
  stateNotThisBrowser: 'This launch was started in another browser: open Marketcraft again from your course',
  badSignature: "The launch's signature does not verify with the platform's keys",
  expired: 'The launch has expired: open Marketcraft again from your course',
  wrongIssuer: 'The launch was issued by another platform than the one that started the login',
  wrongAudience: 'The launch was issued for another tool (its audience is not our client id)',
  badToken: 'The launch token is not valid',
  nonceMismatch: 'The launch does not answer our login (its nonce is unknown or already used)',
  unknownDeployment: 'This deployment is not registered for the platform: ask your administrator to add its deployment id',
  wrongMessageType: 'This address takes another kind of LTI message',
  wrongVersion: 'Only LTI 1.3.0 launches are supported',
  noSubject: 'The launch names no user (no "sub" claim): anonymous launches are not supported',
  noContext: 'The launch comes from no course (no context claim): place Marketcraft inside a course',
  courseNotOpened: "Your instructor has not opened this course's world yet: ask them to launch Marketcraft from the course first",
  instructorsOnly: 'Only instructors can place Marketcraft in a course',
  badTeamCode: "This course link's team_code is not a team code: ask your instructor to correct the link's custom parameter",
} as const;

export type LtiRole = 'instructor' | 'learner';

import type { LtiPlatform } from '@marketcraft/db/lti/grades.ts';

function randomToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The registered platform a login names: by issuer, and by client id when the platform sends it (several registrations per issuer). */
async function platformFor(db: DbExecutor, issuer: string, clientId: string | undefined): Promise<LtiPlatform> {
  const rows = await db
    .select()
    .from(ltiPlatforms)
    .where(clientId ? and(eq(ltiPlatforms.issuer, issuer), eq(ltiPlatforms.clientId, clientId)) : eq(ltiPlatforms.issuer, issuer));
  if (rows.length !== 1) throw new GameError('NOT_FOUND', LTI_MESSAGES.unknownPlatform);
  return rows[0]!;
}

export interface LoginInitiation {
  iss?: string;
  login_hint?: string;
  target_link_uri?: string;
  lti_message_hint?: string;
  client_id?: string;
  lti_deployment_id?: string;
}

/**
 * GET/POST /api/lti/login: remembers a fresh state and nonce and answers where to send the browser
 * (the platform's auth URL, form_post back to `redirectUri`). The state also goes in a cookie so
 * that the launch is accepted only in the browser that started it.
 */
export async function startLtiLogin(db: DbExecutor, input: LoginInitiation, redirectUri: string): Promise<{ state: string; redirectTo: URL }> {
  if (!input.iss || !input.login_hint || !input.target_link_uri) throw new GameError('INVALID_INPUT', LTI_MESSAGES.loginIncomplete);
  const platform = await platformFor(db, input.iss, input.client_id);
  const state = randomToken();
  const nonce = randomToken();
  await db.insert(ltiLoginStates).values({ state, nonce, platformId: platform.id });
  const redirectTo = new URL(platform.authLoginUrl);
  const params: Record<string, string> = {
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.clientId,
    redirect_uri: redirectUri,
    login_hint: input.login_hint,
    state,
    nonce,
  };
  if (input.lti_message_hint) params.lti_message_hint = input.lti_message_hint;
  for (const [name, value] of Object.entries(params)) redirectTo.searchParams.set(name, value);
  return { state, redirectTo };
}

/** One cached remote JWKS per URL (jose refetches on an unknown kid, at most every 30 s). */
const remoteKeySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function platformKeys(jwksUrl: string) {
  let keys = remoteKeySets.get(jwksUrl);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUrl));
    remoteKeySets.set(jwksUrl, keys);
  }
  return keys;
}

export interface VerifiedLaunch {
  platform: LtiPlatform;
  claims: JWTPayload & Record<string, unknown>;
  messageType: string;
}

/**
 * Checks a launch (or deep-linking request): the state is taken (used once, whatever follows), then
 * the id_token is verified against the platform that started that login. Throws a GameError with a
 * clear message; nothing has been written but the state's removal.
 */
export async function verifyLaunch(
  db: DbExecutor,
  input: { idToken?: string; state?: string; browserState?: string },
  expectedMessageType: string,
  now = new Date(),
): Promise<VerifiedLaunch> {
  if (!input.idToken || !input.state) throw new GameError('INVALID_INPUT', LTI_MESSAGES.launchIncomplete);
  const [login] = await db
    .delete(ltiLoginStates)
    .where(
      and(
        eq(ltiLoginStates.state, input.state),
        sql`${ltiLoginStates.createdAt} > ${new Date(now.getTime() - LOGIN_STATE_LIFETIME_MS).toISOString()}::timestamptz`,
      ),
    )
    .returning();
  if (!login) throw new GameError('INVALID_INPUT', LTI_MESSAGES.stateUnknown);
  if (input.browserState !== input.state) throw new GameError('INVALID_INPUT', LTI_MESSAGES.stateNotThisBrowser);
  const [platform] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, login.platformId));
  if (!platform) throw new GameError('INVALID_INPUT', LTI_MESSAGES.stateUnknown);

  let claims: JWTPayload & Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(input.idToken, platformKeys(platform.jwksUrl), {
      issuer: platform.issuer,
      audience: platform.clientId,
      algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'ES256'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
      requiredClaims: ['exp', 'iat'],
    }));
  } catch (error) {
    throw new GameError('FORBIDDEN', launchErrorMessage(error));
  }
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  // With several audiences the authorized party must be us (OIDC Core 3.1.3.7).
  if (audiences.length > 1 && claims.azp !== platform.clientId) throw new GameError('FORBIDDEN', LTI_MESSAGES.wrongAudience);
  if (claims.nonce !== login.nonce) throw new GameError('FORBIDDEN', LTI_MESSAGES.nonceMismatch);
  const deploymentId = claims[CLAIM.deploymentId];
  if (typeof deploymentId !== 'string' || !platform.deploymentIds.includes(deploymentId)) throw new GameError('FORBIDDEN', LTI_MESSAGES.unknownDeployment);
  if (claims[CLAIM.version] !== LTI_VERSION) throw new GameError('INVALID_INPUT', LTI_MESSAGES.wrongVersion);
  const messageType = claims[CLAIM.messageType];
  if (messageType !== expectedMessageType) throw new GameError('INVALID_INPUT', LTI_MESSAGES.wrongMessageType);
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new GameError('INVALID_INPUT', LTI_MESSAGES.noSubject);
  return { platform, claims, messageType };
}

function launchErrorMessage(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return LTI_MESSAGES.expired;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey) return LTI_MESSAGES.badSignature;
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return LTI_MESSAGES.wrongIssuer;
    if (error.claim === 'aud') return LTI_MESSAGES.wrongAudience;
  }
  return LTI_MESSAGES.badToken;
}

/** Instructor when any role is an instructor (or administrator) of the course or institution; else learner. */
export function roleOf(claims: Record<string, unknown>): LtiRole {
  const roles = claims[CLAIM.roles];
  if (!Array.isArray(roles)) return 'learner';
  return roles.some((role) => typeof role === 'string' && /#(Instructor|Administrator)$/.test(role)) ? 'instructor' : 'learner';
}

function displayNameOf(claims: Record<string, unknown>): string | null {
  const parts = [claims.name, [claims.given_name, claims.family_name].filter((part) => typeof part === 'string').join(' ')];
  const name = parts.find((part): part is string => typeof part === 'string' && part.trim() !== '');
  return name ? name.trim().slice(0, 200) : null;
}

/**
 * The team a link seats its learners in: the custom parameter `team_code` (a team code of the
 * course's world, set on the link by the instructor: one link per team, each shown to that team's
 * group or section). None: the first team with room.
 */
function teamCodeOf(claims: Record<string, unknown>): string | undefined {
  const custom = claims[CLAIM.custom] as Record<string, unknown> | undefined;
  if (custom?.team_code === undefined || custom.team_code === '') return undefined;
  const parsed = joinWorldSchema.shape.team_code.safeParse(custom.team_code);
  if (!parsed.success || !parsed.data) throw new GameError('INVALID_INPUT', LTI_MESSAGES.badTeamCode);
  return parsed.data;
}

/** The address an LTI account is created with: unique per platform user, never a real mailbox (RFC 2606 .invalid). */
function ltiAccountEmail(platformId: number, subject: string): string {
  return `lti-${platformId}-${createHash('sha256').update(subject).digest('hex').slice(0, 24)}@lti.invalid`;
}

export interface LaunchedUser {
  userId: number;
  email: string;
  role: LtiRole;
  worldId: number;
  created: boolean;
}

/**
 * After a verified launch: the platform user's account (created on the first launch, no password),
 * the course's class world (an instructor's first launch creates it; later instructors become
 * co-instructors; learners join it) and the service URLs the course offers.
 */
export async function admitLaunchedUser(db: Database, launch: VerifiedLaunch): Promise<LaunchedUser> {
  const { platform, claims } = launch;
  const subject = claims.sub!;
  const role = roleOf(claims);
  const context = claims[CLAIM.context] as { id?: unknown; title?: unknown; label?: unknown } | undefined;
  if (!context || typeof context.id !== 'string' || context.id === '') throw new GameError('INVALID_INPUT', LTI_MESSAGES.noContext);
  const contextId = context.id;
  const ags = claims[CLAIM.ags] as { lineitems?: unknown; lineitem?: unknown } | undefined;
  const nrps = claims[CLAIM.nrps] as { context_memberships_url?: unknown } | undefined;
  const lineitemsUrl = typeof ags?.lineitems === 'string' ? ags.lineitems : null;
  const membershipsUrl = typeof nrps?.context_memberships_url === 'string' ? nrps.context_memberships_url : null;
  const name = displayNameOf(claims);
  const teamCode = role === 'learner' ? teamCodeOf(claims) : undefined;

  return db.transaction(async (tx) => {
    // Launches of one course wait for each other: two first launches (a double click, two
    // instructors at once) make one account each and one world, never a duplicate-key error.
    await tx.execute(sql`select pg_advisory_xact_lock(${COURSE_LAUNCH_LOCK}, hashtext(${`${platform.id}:${contextId}`}))`);
    // A learner before the course has a world: refused before anything is written.
    const [existingContext] = await tx
      .select()
      .from(ltiContexts)
      .where(and(eq(ltiContexts.platformId, platform.id), eq(ltiContexts.contextId, contextId)));
    if (!existingContext && role !== 'instructor') throw new GameError('CONFLICT', LTI_MESSAGES.courseNotOpened);

    // The account: by (platform, sub) only.
    const email = ltiAccountEmail(platform.id, subject);
    let created = false;
    const [known] = await tx
      .select({ userId: ltiUsers.userId })
      .from(ltiUsers)
      .where(and(eq(ltiUsers.platformId, platform.id), eq(ltiUsers.subject, subject)));
    let userId: number;
    if (known) {
      userId = known.userId;
      await tx
        .update(ltiUsers)
        .set({ name })
        .where(and(eq(ltiUsers.platformId, platform.id), eq(ltiUsers.subject, subject)));
    } else {
      const [user] = await tx.insert(users).values({ email, passwordHash: null }).returning({ id: users.id });
      userId = user!.id;
      await tx.insert(ltiUsers).values({ platformId: platform.id, subject, userId, name });
      created = true;
    }
    const worldUser = { id: userId, isAdmin: false, email };

    let worldId: number;
    if (existingContext) {
      worldId = existingContext.worldId;
      await tx
        .update(ltiContexts)
        .set({
          title: typeof context.title === 'string' ? context.title : existingContext.title,
          lineitemsUrl: lineitemsUrl ?? existingContext.lineitemsUrl,
          membershipsUrl: membershipsUrl ?? existingContext.membershipsUrl,
        })
        .where(and(eq(ltiContexts.platformId, platform.id), eq(ltiContexts.contextId, contextId)));
      if (role === 'instructor') {
        await tx.insert(worldInstructors).values({ worldId, userId, role: 'co_instructor' }).onConflictDoNothing();
      }
    } else {
      const title = typeof context.title === 'string' ? context.title : typeof context.label === 'string' ? context.label : '';
      const parsed = createWorldSchema.safeParse({ name: title.trim() });
      const options = parsed.success ? parsed.data : createWorldSchema.parse({ name: 'Course world' });
      const world = await createWorld(tx, worldUser, {
        name: options.name,
        turnIntervalMinutes: options.turn_interval_minutes,
        startingCashDollars: options.starting_cash,
        bots: options.bots,
        maxPlayers: options.max_players,
      });
      worldId = world.id;
      await tx.insert(ltiContexts).values({ platformId: platform.id, contextId, worldId, title: title || null, lineitemsUrl, membershipsUrl });
    }
    if (role === 'learner') {
      const [world] = await tx.select({ joinCode: worlds.joinCode }).from(worlds).where(eq(worlds.id, worldId));
      // With teams, the learner takes the link's team, else the first team with room (docs/classroom.md, "Teams").
      await joinWorld(tx, worldUser, { code: world!.joinCode!, fillTeams: true, teamCode });
    } else {
      await getWorld(tx, worldUser, worldId);
    }
    return { userId, email, role, worldId, created };
  });
}
