/**
 * Course platforms registered with the tool (POST/GET /api/lti/platforms). A site admin registers
 * any; an instructor (someone who instructs a class world) registers their own course's platform
 * and sees only the ones they registered. Accounts launched from a registration belong to it alone
 * (launch.ts), so registering a platform never reaches anyone else's account.
 */
import { desc, eq, sql } from 'drizzle-orm';
import { ltiPlatforms, type DbExecutor } from '@marketcraft/db';
import { GameError, registerLtiPlatformSchema, type LtiPlatformView, type RegisterLtiPlatformInput } from '@marketcraft/shared';

export const LTI_PLATFORM_MESSAGES = {
  instructorsOnly: 'Only site admins and instructors of a class world can register a course platform',
  alreadyRegistered: 'This platform (issuer and client id) is already registered',
} as const;

function platformView(row: typeof ltiPlatforms.$inferSelect): LtiPlatformView {
  return {
    id: row.id,
    issuer: row.issuer,
    client_id: row.clientId,
    deployment_ids: row.deploymentIds,
    auth_login_url: row.authLoginUrl,
    auth_token_url: row.authTokenUrl,
    jwks_url: row.jwksUrl,
    created_at: row.createdAt.toISOString(),
  };
}

/** Refuses (403) anyone but site admins and instructors of a class world; the router checks it before the body too. */
export async function requireRegistrar(db: DbExecutor, user: { id: number; isAdmin: boolean }): Promise<void> {
  if (user.isAdmin) return;
  const [row] = await db.execute<{ instructs: boolean }>(sql`select exists (select 1 from world_instructors where user_id = ${user.id}) as instructs`);
  if (!row?.instructs) throw new GameError('FORBIDDEN', LTI_PLATFORM_MESSAGES.instructorsOnly);
}

export async function registerLtiPlatform(db: DbExecutor, user: { id: number; isAdmin: boolean }, input: RegisterLtiPlatformInput): Promise<LtiPlatformView> {
  await requireRegistrar(db, user);
  const parsed = registerLtiPlatformSchema.parse(input);
  const [row] = await db
    .insert(ltiPlatforms)
    .values({
      issuer: parsed.issuer,
      clientId: parsed.client_id,
      deploymentIds: [...new Set(parsed.deployment_ids)],
      authLoginUrl: parsed.auth_login_url,
      authTokenUrl: parsed.auth_token_url,
      jwksUrl: parsed.jwks_url,
      registeredByUserId: user.id,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new GameError('CONFLICT', LTI_PLATFORM_MESSAGES.alreadyRegistered);
  return platformView(row);
}

export async function listLtiPlatforms(db: DbExecutor, user: { id: number; isAdmin: boolean }): Promise<LtiPlatformView[]> {
  await requireRegistrar(db, user);
  const query = db.select().from(ltiPlatforms);
  const rows = await (user.isAdmin ? query : query.where(eq(ltiPlatforms.registeredByUserId, user.id))).orderBy(desc(ltiPlatforms.id));
  return rows.map(platformView);
}
