/**
 * LTI Advantage services the tool calls on the platform: an OAuth2 access token by the client
 * credentials grant with a JWT assertion signed by the tool's key (RFC 7523), then Assignment and
 * Grade Services (a line item per class world, each student's score posted when it changes) and
 * Names and Role Provisioning (the course roster for the instructor).
 */
import { and, eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import type { DbExecutor } from '../client.ts';
import { ltiContexts, ltiLineItems, ltiLineItemScores, ltiPlatforms, ltiScores, ltiUsers, worlds } from '../schema/index.ts';
import { computeGradebook, WORLD_SCORE_MAXIMUM } from '../game/assignments/gradebook.ts';
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
export { WORLD_SCORE_MAXIMUM };

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

function scoresUrlOf(lineItemUrl: string): string {
  const url = new URL(lineItemUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/scores`;
  return url.toString();
}

interface LineItemSpec {
  resourceId: string;
  label: string;
  scoreMaximum: number;
  tag: string;
}

/** The course's line item for one of our resources (the world, an assignment): found by our resourceId, else created. */
async function findOrCreateLineItem(token: string, lineitemsUrl: string, spec: LineItemSpec): Promise<string> {
  const query = new URL(lineitemsUrl);
  query.searchParams.set('resource_id', spec.resourceId);
  const found = await platformFetch(query.toString(), {
    headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.ims.lis.v2.lineitemcontainer+json' },
  });
  if (found.ok) {
    const items = (await found.json().catch(() => [])) as { id?: unknown; resourceId?: unknown }[];
    const item = Array.isArray(items) ? items.find((candidate) => candidate.resourceId === spec.resourceId && typeof candidate.id === 'string') : undefined;
    if (item) return item.id as string;
  }
  const created = await platformFetch(lineitemsUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/vnd.ims.lis.v2.lineitem+json',
      accept: 'application/vnd.ims.lis.v2.lineitem+json',
    },
    body: JSON.stringify(spec),
  });
  const body = (await created.json().catch(() => null)) as { id?: unknown } | null;
  if (!created.ok || typeof body?.id !== 'string') throw new GameError('UNAVAILABLE', LTI_SERVICE_MESSAGES.platformFailed);
  return body.id;
}

/** Posts one student's score to a line item (AGS score service). */
async function postScore(token: string, lineItemUrl: string, subject: string, score: number, scoreMaximum: number, now: Date): Promise<void> {
  const response = await platformFetch(scoresUrlOf(lineItemUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.ims.lis.v1.score+json' },
    body: JSON.stringify({
      userId: subject,
      scoreGiven: score,
      scoreMaximum,
      activityProgress: 'InProgress',
      gradingProgress: 'FullyGraded',
      timestamp: now.toISOString(),
    }),
  });
  if (!response.ok) throw new GameError('UNAVAILABLE', LTI_SERVICE_MESSAGES.platformFailed);
}

export interface PostedScores {
  /** Scores sent now (new or changed). */
  posted: number;
  /** Scores the platform already had. */
  unchanged: number;
}

/**
 * Posts each launched student's scores to every course linked to the world, only where they changed
 * since the last post (after a turn, or when the instructor asks): the world's final score (the
 * gradebook's, db/src/game/assignments/gradebook.ts) to the world's line item, and each assignment's
 * points to a line item of its own (created on the first post, out of its points possible; only
 * where the platform offers the line items container). A world with no course posts nothing.
 */
export async function postWorldScores(db: DbExecutor, worldId: number, now = new Date()): Promise<PostedScores> {
  const [world] = await db.select({ id: worlds.id, name: worlds.name }).from(worlds).where(eq(worlds.id, worldId));
  if (!world) return { posted: 0, unchanged: 0 };
  const contexts = await db.select().from(ltiContexts).where(eq(ltiContexts.worldId, worldId));
  // Most class worlds are not linked to a course: no gradebook for them.
  if (contexts.length === 0) return { posted: 0, unchanged: 0 };
  const book = await computeGradebook(db, worldId);
  const finalScores = new Map(book.students.map((student) => [student.user_id, student.final_score]));
  const result: PostedScores = { posted: 0, unchanged: 0 };
  for (const context of contexts) {
    if (!context.lineitemsUrl && !context.lineItemUrl) continue;
    const [platform] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, context.platformId));
    if (!platform) continue;
    const launched = await db.select({ userId: ltiUsers.userId, subject: ltiUsers.subject }).from(ltiUsers).where(eq(ltiUsers.platformId, context.platformId));
    const students = launched.filter((student) => finalScores.has(student.userId));
    let token: string | null = null;
    const accessToken = async () => (token ??= await platformAccessToken(db, platform, [AGS_SCOPES.lineItem, AGS_SCOPES.score]));
    const inContext = and(eq(ltiScores.platformId, context.platformId), eq(ltiScores.contextId, context.contextId));

    // The world's final score.
    const lastWorld = new Map(
      (await db.select({ userId: ltiScores.userId, score: ltiScores.score }).from(ltiScores).where(inContext)).map((row) => [row.userId, row.score]),
    );
    const changed = students.filter((student) => finalScores.get(student.userId) !== lastWorld.get(student.userId));
    result.unchanged += students.length - changed.length;
    if (changed.length > 0) {
      let lineItemUrl = context.lineItemUrl;
      if (!lineItemUrl) {
        lineItemUrl = await findOrCreateLineItem(await accessToken(), context.lineitemsUrl!, {
          resourceId: `marketcraft-world-${world.id}`,
          label: `Marketcraft: ${world.name}`,
          scoreMaximum: WORLD_SCORE_MAXIMUM,
          tag: 'marketcraft-world-score',
        });
        await db
          .update(ltiContexts)
          .set({ lineItemUrl })
          .where(and(eq(ltiContexts.platformId, context.platformId), eq(ltiContexts.contextId, context.contextId)));
      }
      for (const student of changed) {
        const score = finalScores.get(student.userId)!;
        await postScore(await accessToken(), lineItemUrl, student.subject, score, WORLD_SCORE_MAXIMUM, now);
        await db
          .insert(ltiScores)
          .values({ platformId: context.platformId, contextId: context.contextId, userId: student.userId, score, postedAt: now })
          .onConflictDoUpdate({ target: [ltiScores.platformId, ltiScores.contextId, ltiScores.userId], set: { score, postedAt: now } });
        result.posted += 1;
      }
    }

    // One line item per assignment, in the course's line items container.
    if (!context.lineitemsUrl) continue;
    const inContextItems = and(eq(ltiLineItemScores.platformId, context.platformId), eq(ltiLineItemScores.contextId, context.contextId));
    const lastPosted = await db.select().from(ltiLineItemScores).where(inContextItems);
    const items = new Map(
      (
        await db
          .select({ resourceId: ltiLineItems.resourceId, url: ltiLineItems.lineItemUrl })
          .from(ltiLineItems)
          .where(and(eq(ltiLineItems.platformId, context.platformId), eq(ltiLineItems.contextId, context.contextId)))
      ).map((row) => [row.resourceId, row.url]),
    );
    for (const assignment of book.assignments) {
      if (assignment.points_possible === 0) continue;
      const resourceId = `marketcraft-assignment-${assignment.id}`;
      const pointsOf = (userId: number) =>
        book.students.find((student) => student.user_id === userId)!.assignments.find((entry) => entry.assignment_id === assignment.id)!.points;
      const last = new Map(lastPosted.filter((row) => row.resourceId === resourceId).map((row) => [row.userId, row.score]));
      const due = students.filter((student) => pointsOf(student.userId) !== last.get(student.userId));
      result.unchanged += students.length - due.length;
      if (due.length === 0) continue;
      let lineItemUrl = items.get(resourceId);
      if (!lineItemUrl) {
        lineItemUrl = await findOrCreateLineItem(await accessToken(), context.lineitemsUrl, {
          resourceId,
          label: `Marketcraft: ${assignment.title}`,
          scoreMaximum: assignment.points_possible,
          tag: 'marketcraft-assignment',
        });
        await db.insert(ltiLineItems).values({ platformId: context.platformId, contextId: context.contextId, resourceId, lineItemUrl }).onConflictDoNothing();
      }
      for (const student of due) {
        const score = pointsOf(student.userId);
        await postScore(await accessToken(), lineItemUrl, student.subject, score, assignment.points_possible, now);
        await db
          .insert(ltiLineItemScores)
          .values({ platformId: context.platformId, contextId: context.contextId, resourceId, userId: student.userId, score, postedAt: now })
          .onConflictDoUpdate({
            target: [ltiLineItemScores.platformId, ltiLineItemScores.contextId, ltiLineItemScores.resourceId, ltiLineItemScores.userId],
            set: { score, postedAt: now },
          });
        result.posted += 1;
      }
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
