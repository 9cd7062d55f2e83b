/**
 * LTI Advantage services the tool calls on the platform: an OAuth2 access token by the client
 * credentials grant with a JWT assertion signed by the tool's key (RFC 7523), then Assignment and
 * Grade Services (a line item per class world, each student's score posted when it changes) and
 * Names and Role Provisioning (the course roster for the instructor).
 */
import { and, eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import type { DbExecutor } from '../client.ts';
import { ltiContexts, ltiPlatforms, ltiScores, ltiUsers, worlds } from '../schema/index.ts';
import { activeCompaniesCashSql, valuationSql } from '../game/companies/valuation.ts';
import { GameError } from '@marketcraft/shared';
import { currentToolKey, LTI_KEY_ALGORITHM } from './keys.ts';

/** A registered course platform, as the services need it. */
export interface LtiPlatform {
  id: number;
  issuer: string;
  clientId: string;
  deploymentIds: string[];
  authLoginUrl: string;
  authTokenUrl: string;
  jwksUrl: string;
}

const AGS_SCOPES = {
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
} as const;
const NRPS_SCOPE = 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly';
/** The points a world's score is out of (the line item's scoreMaximum). */
export const WORLD_SCORE_MAXIMUM = 100;

const LTI_SERVICE_MESSAGES = {
  tokenRefused: 'The course platform refused our access token request: check the client id and that the platform has our JWKS URL',
  platformFailed: 'The course platform answered with an error',
  noRoster: "This world's course offers no roster (Names and Role Provisioning is not enabled for the tool)",
  notLinked: 'This world is not linked to a course: launch Marketcraft from the course first',
} as const;

/** Every request to a platform gives up after this long (a slow platform must not hold a turn). */
const PLATFORM_TIMEOUT_MS = 10_000;

async function platformFetch(url: string, init: RequestInit): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(PLATFORM_TIMEOUT_MS) });
}

/** An access token for `scopes` (client credentials grant, signed JWT assertion). */
async function platformAccessToken(db: DbExecutor, platform: LtiPlatform, scopes: string[]): Promise<string> {
  const { kid, key } = await currentToolKey(db);
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg: LTI_KEY_ALGORITHM, kid, typ: 'JWT' })
    .setIssuer(platform.clientId)
    .setSubject(platform.clientId)
    .setAudience(platform.authTokenUrl)
    .setIssuedAt()
    .setExpirationTime('5m')
    .setJti(crypto.randomUUID())
    .sign(key);
  const response = await platformFetch(platform.authTokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      scope: scopes.join(' '),
    }),
  });
  const body = (await response.json().catch(() => null)) as { access_token?: unknown } | null;
  if (!response.ok || typeof body?.access_token !== 'string') throw new GameError('UNAVAILABLE', LTI_SERVICE_MESSAGES.tokenRefused);
  return body.access_token;
}

/**
 * The score of each player of a class world, out of WORLD_SCORE_MAXIMUM, by net-worth rank: the
 * richest player company earns 100, the others 100 x (players - rank + 1) / players, rounded
 * (ties share the better rank). The one place a world's grade is computed: the gradebook of
 * assignments (issue 24, item 2) should combine it with its checkpoints here.
 */
async function worldScores(db: DbExecutor, worldId: number): Promise<Map<number, number>> {
  // A team's rank is every member's (docs/classroom.md, "Teams").
  const rows = await db.execute<{ user_id: number; rank: number; players: number }>(sql`
    with ranked as (
      select c.id, c.user_id, rank() over (order by coalesce(v.net_worth_cents, 0) desc)::int as rank, count(*) over ()::int as players
      from companies c
      left join ${valuationSql(activeCompaniesCashSql(worldId), { worldId })} v on v.company_id = c.id
      where c.world_id = ${worldId} and not c.is_bot and c.status = 'active' and c.user_id is not null
    )
    select r.user_id, r.rank, r.players from ranked r
    union
    select m.user_id, r.rank, r.players from ranked r join company_members m on m.world_id = ${worldId} and m.company_id = r.id`);
  const scores = new Map<number, number>();
  for (const row of rows) {
    const players = Number(row.players);
    scores.set(Number(row.user_id), Math.round((WORLD_SCORE_MAXIMUM * (players - Number(row.rank) + 1)) / players));
  }
  return scores;
}

function scoresUrlOf(lineItemUrl: string): string {
  const url = new URL(lineItemUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/scores`;
  return url.toString();
}

/** The course's line item for the world: found by our resourceId, else created. */
async function worldLineItem(token: string, lineitemsUrl: string, world: { id: number; name: string }): Promise<string> {
  const resourceId = `marketcraft-world-${world.id}`;
  const query = new URL(lineitemsUrl);
  query.searchParams.set('resource_id', resourceId);
  const found = await platformFetch(query.toString(), {
    headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.ims.lis.v2.lineitemcontainer+json' },
  });
  if (found.ok) {
    const items = (await found.json().catch(() => [])) as { id?: unknown; resourceId?: unknown }[];
    const item = Array.isArray(items) ? items.find((candidate) => candidate.resourceId === resourceId && typeof candidate.id === 'string') : undefined;
    if (item) return item.id as string;
  }
  const created = await platformFetch(lineitemsUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/vnd.ims.lis.v2.lineitem+json',
      accept: 'application/vnd.ims.lis.v2.lineitem+json',
    },
    body: JSON.stringify({ scoreMaximum: WORLD_SCORE_MAXIMUM, label: `Marketcraft: ${world.name}`, resourceId, tag: 'marketcraft-world-score' }),
  });
  const body = (await created.json().catch(() => null)) as { id?: unknown } | null;
  if (!created.ok || typeof body?.id !== 'string') throw new GameError('UNAVAILABLE', LTI_SERVICE_MESSAGES.platformFailed);
  return body.id;
}

export interface PostedScores {
  /** Scores sent now (new or changed). */
  posted: number;
  /** Scores the platform already had. */
  unchanged: number;
}

/**
 * Posts each launched student's world score to every course linked to the world, only where it
 * changed since the last post (after a turn, or when the instructor asks). A world with no course
 * posts nothing.
 */
export async function postWorldScores(db: DbExecutor, worldId: number, now = new Date()): Promise<PostedScores> {
  const [world] = await db.select({ id: worlds.id, name: worlds.name }).from(worlds).where(eq(worlds.id, worldId));
  if (!world) return { posted: 0, unchanged: 0 };
  const contexts = await db.select().from(ltiContexts).where(eq(ltiContexts.worldId, worldId));
  // Most class worlds are not linked to a course: no valuation for them.
  if (contexts.length === 0) return { posted: 0, unchanged: 0 };
  const scores = await worldScores(db, worldId);
  const result: PostedScores = { posted: 0, unchanged: 0 };
  for (const context of contexts) {
    if (!context.lineitemsUrl && !context.lineItemUrl) continue;
    const [platform] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, context.platformId));
    if (!platform) continue;
    const students = await db
      .select({ userId: ltiUsers.userId, subject: ltiUsers.subject, last: ltiScores.score })
      .from(ltiUsers)
      .leftJoin(ltiScores, and(eq(ltiScores.userId, ltiUsers.userId), eq(ltiScores.platformId, context.platformId), eq(ltiScores.contextId, context.contextId)))
      .where(eq(ltiUsers.platformId, context.platformId));
    const changed = students.filter((student) => scores.has(student.userId) && scores.get(student.userId) !== student.last);
    result.unchanged += students.filter((student) => scores.has(student.userId)).length - changed.length;
    if (changed.length === 0) continue;
    const token = await platformAccessToken(db, platform, [AGS_SCOPES.lineItem, AGS_SCOPES.score]);
    let lineItemUrl = context.lineItemUrl;
    if (!lineItemUrl) {
      lineItemUrl = await worldLineItem(token, context.lineitemsUrl!, world);
      await db
        .update(ltiContexts)
        .set({ lineItemUrl })
        .where(and(eq(ltiContexts.platformId, context.platformId), eq(ltiContexts.contextId, context.contextId)));
    }
    for (const student of changed) {
      const score = scores.get(student.userId)!;
      const response = await platformFetch(scoresUrlOf(lineItemUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.ims.lis.v1.score+json' },
        body: JSON.stringify({
          userId: student.subject,
          scoreGiven: score,
          scoreMaximum: WORLD_SCORE_MAXIMUM,
          activityProgress: 'InProgress',
          gradingProgress: 'FullyGraded',
          timestamp: now.toISOString(),
        }),
      });
      if (!response.ok) throw new GameError('UNAVAILABLE', LTI_SERVICE_MESSAGES.platformFailed);
      await db
        .insert(ltiScores)
        .values({ platformId: context.platformId, contextId: context.contextId, userId: student.userId, score, postedAt: now })
        .onConflictDoUpdate({ target: [ltiScores.platformId, ltiScores.contextId, ltiScores.userId], set: { score, postedAt: now } });
      result.posted += 1;
    }
  }
  return result;
}

export interface RosterMember {
  user_id: string;
  name: string | null;
  email: string | null;
  roles: string[];
  status: string;
  /** Whether they have launched Marketcraft (and so play in the world, for learners). */
  launched: boolean;
}

/** GET /api/worlds/{id}/lti/roster: the course's members by Names and Role Provisioning (the caller is the world's instructor). */
export async function worldRoster(db: DbExecutor, worldId: number): Promise<RosterMember[]> {
  const contexts = await db.select().from(ltiContexts).where(eq(ltiContexts.worldId, worldId));
  if (contexts.length === 0) throw new GameError('CONFLICT', LTI_SERVICE_MESSAGES.notLinked);
  const members: RosterMember[] = [];
  for (const context of contexts) {
    if (!context.membershipsUrl) continue;
    const [platform] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, context.platformId));
    if (!platform) continue;
    const token = await platformAccessToken(db, platform, [NRPS_SCOPE]);
    const response = await platformFetch(context.membershipsUrl, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json' },
    });
    const body = (await response.json().catch(() => null)) as { members?: Record<string, unknown>[] } | null;
    if (!response.ok || !Array.isArray(body?.members)) throw new GameError('UNAVAILABLE', LTI_SERVICE_MESSAGES.platformFailed);
    const launched = new Set(
      (await db.select({ subject: ltiUsers.subject }).from(ltiUsers).where(eq(ltiUsers.platformId, platform.id))).map((row) => row.subject),
    );
    for (const member of body.members) {
      if (typeof member.user_id !== 'string') continue;
      members.push({
        user_id: member.user_id,
        name: typeof member.name === 'string' ? member.name : null,
        email: typeof member.email === 'string' ? member.email : null,
        roles: Array.isArray(member.roles) ? member.roles.filter((role): role is string => typeof role === 'string') : [],
        status: typeof member.status === 'string' ? member.status : 'Active',
        launched: launched.has(member.user_id),
      });
    }
  }
  if (contexts.every((context) => !context.membershipsUrl)) throw new GameError('CONFLICT', LTI_SERVICE_MESSAGES.noRoster);
  return members;
}
