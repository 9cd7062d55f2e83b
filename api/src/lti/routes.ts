/**
 * The LTI 1.3 protocol routes under /api/lti (plain Hono routes, like /api/auth: the platform's
 * browser posts forms to them and follows redirects, and the platform reads the JWKS; tRPC's JSON
 * calls do neither). The JSON routes (platforms, scores, roster, course links) are tRPC procedures
 * with REST paths (routers/lti.ts). The form posts (login, launch, deep-link) come from the
 * course platform's origin, so the cross-site check lets them through (origin.ts): they are
 * authenticated by the platform's signed id_token and our single-use state instead.
 */
import type { Context, Hono } from 'hono';
import { ZodError } from 'zod';
import { SignJWT } from 'jose';
import { GameError, type LtiToolConfig } from '@marketcraft/shared';
import type { ApiServices } from '../context.ts';
import { isSecureRequest } from '../context.ts';
import { zodErrorMessage } from '../trpc.ts';
import { logRequestError } from '../requestLog.ts';
import { parseCookies, sessionCookie } from '../auth/cookies.ts';
import { createSession } from '../auth/session.ts';
import { switchWorld } from '@marketcraft/db';
import { currentToolKey, LTI_KEY_ALGORITHM, toolJwks } from '@marketcraft/db/lti/keys.ts';
import {
  admitLaunchedUser,
  CLAIM,
  DEEP_LINKING_REQUEST,
  LTI_MESSAGES,
  LTI_VERSION,
  LOGIN_STATE_LIFETIME_MS,
  RESOURCE_LINK_REQUEST,
  roleOf,
  startLtiLogin,
  verifyLaunch,
  type LoginInitiation,
} from './launch.ts';
import { LTI_PATHS } from './paths.ts';
import { WORLD_SCORE_MAXIMUM } from '@marketcraft/db/lti/grades.ts';

/** The state cookie: sent back on the platform's cross-site form post, so SameSite=None (and Secure). */
export const LTI_STATE_COOKIE = 'marketcraft_lti_state';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A browser (the launch window) reads a short page; a script reads `{ error }`. */
function errorAnswer(c: Context, error: unknown, services: ApiServices): Response {
  let status = 500;
  let message = 'Something went wrong on our side. Please try again.';
  if (error instanceof GameError) {
    status = error.status;
    message = error.message;
  } else if (error instanceof ZodError) {
    status = 400;
    message = zodErrorMessage(error);
  } else {
    logRequestError(services.logger, c.req.raw, error, 'LTI route failed');
  }
  c.header('cache-control', 'no-store');
  if ((c.req.header('accept') ?? '').includes('text/html')) {
    return c.html(
      `<!doctype html><html lang="en"><meta charset="utf-8"><title>Marketcraft</title><main><h1>Marketcraft could not open</h1><p role="alert">${escapeHtml(message)}</p></main></html>`,
      status as 400,
    );
  }
  return c.json({ error: message }, status as 400);
}

/** The public base of the tool's addresses: PUBLIC_URL, else the address the request came to. */
function toolBase(services: ApiServices, req: Request): string {
  if (services.config.PUBLIC_URL) return services.config.PUBLIC_URL.replace(/\/+$/, '');
  const url = new URL(req.url);
  const host = req.headers.get('host');
  return `${url.protocol}//${host ?? url.host}`;
}

function ltiToolConfig(base: string): LtiToolConfig {
  return {
    login_url: `${base}${LTI_PATHS.login}`,
    launch_url: `${base}${LTI_PATHS.launch}`,
    jwks_url: `${base}${LTI_PATHS.jwks}`,
    deep_link_url: `${base}${LTI_PATHS.deepLink}`,
  };
}

async function formOrQuery(c: Context): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const [name, value] of new URL(c.req.url).searchParams) values[name] = value;
  if (c.req.method === 'POST') {
    const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    for (const [name, value] of Object.entries(body)) if (typeof value === 'string') values[name] = value;
  }
  return values;
}

function autoSubmitForm(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Marketcraft</title><body><form method="post" action="${escapeHtml(action)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form><script>document.forms[0].submit()</script></body></html>`;
}

export function registerLtiRoutes(app: Hono, services: ApiServices): void {
  const { config } = services;
  // Launches, logins and keys write (and sometimes generate a key): the mutation pool (context.ts).
  const db = services.writeDb ?? services.db;

  const login = async (c: Context) => {
    try {
      const input = (await formOrQuery(c)) as LoginInitiation;
      const urls = ltiToolConfig(toolBase(services, c.req.raw));
      // The id_token comes back where the platform aims: our deep-linking address or the launch.
      const redirectUri = input.target_link_uri === urls.deep_link_url ? urls.deep_link_url : urls.launch_url;
      const { state, redirectTo } = await startLtiLogin(db, input, redirectUri);
      const secure = isSecureRequest(config, c.req.raw);
      c.header(
        'set-cookie',
        `${LTI_STATE_COOKIE}=${state}; Path=/api/lti; Max-Age=${LOGIN_STATE_LIFETIME_MS / 1000}; HttpOnly; ${secure ? 'SameSite=None; Secure' : 'SameSite=Lax'}`,
        { append: true },
      );
      c.header('cache-control', 'no-store');
      return c.redirect(redirectTo.toString(), 302);
    } catch (error) {
      return errorAnswer(c, error, services);
    }
  };
  app.get(LTI_PATHS.login, login);
  app.post(LTI_PATHS.login, login);

  /** Verifies the posted id_token, signs the user in (cookie) in the course's world. */
  const signInFromLaunch = async (c: Context, messageType: string) => {
    const form = await formOrQuery(c);
    const launch = await verifyLaunch(
      db,
      { idToken: form.id_token, state: form.state, browserState: parseCookies(c.req.header('cookie')).get(LTI_STATE_COOKIE) },
      messageType,
    );
    if (messageType === DEEP_LINKING_REQUEST && roleOf(launch.claims) !== 'instructor') throw new GameError('FORBIDDEN', LTI_MESSAGES.instructorsOnly);
    const launched = await admitLaunchedUser(db, launch);
    const session = await createSession(db, launched.userId);
    await switchWorld(db, { id: launched.userId, isAdmin: false }, session.token.split('.')[0]!, launched.worldId);
    c.header('set-cookie', sessionCookie(session.token, session.expiresAt, isSecureRequest(config, c.req.raw)), { append: true });
    c.header('set-cookie', `${LTI_STATE_COOKIE}=; Path=/api/lti; Max-Age=0; HttpOnly`, { append: true });
    c.header('cache-control', 'no-store');
    return { launch, launched };
  };

  app.post(LTI_PATHS.launch, async (c) => {
    try {
      const { launched } = await signInFromLaunch(c, RESOURCE_LINK_REQUEST);
      // Instructors land on the world's management page, students in their company.
      return c.redirect(launched.role === 'instructor' ? `/worlds/${launched.worldId}/manage` : '/', 303);
    } catch (error) {
      return errorAnswer(c, error, services);
    }
  });

  app.post(LTI_PATHS.deepLink, async (c) => {
    try {
      const { launch, launched } = await signInFromLaunch(c, DEEP_LINKING_REQUEST);
      const settings = launch.claims[CLAIM.deepLinkingSettings] as { deep_link_return_url?: unknown; data?: unknown } | undefined;
      if (typeof settings?.deep_link_return_url !== 'string') throw new GameError('INVALID_INPUT', 'The deep-linking request has no return URL');
      const urls = ltiToolConfig(toolBase(services, c.req.raw));
      const { kid, key } = await currentToolKey(db);
      // One item: the course's class world, graded out of WORLD_SCORE_MAXIMUM (services.ts).
      const response = await new SignJWT({
        nonce: crypto.randomUUID(),
        [CLAIM.messageType]: 'LtiDeepLinkingResponse',
        [CLAIM.version]: LTI_VERSION,
        [CLAIM.deploymentId]: launch.claims[CLAIM.deploymentId],
        'https://purl.imsglobal.org/spec/lti-dl/claim/content_items': [
          {
            type: 'ltiResourceLink',
            title: 'Marketcraft class world',
            url: urls.launch_url,
            lineItem: { scoreMaximum: WORLD_SCORE_MAXIMUM, label: 'Marketcraft world score', resourceId: `marketcraft-world-${launched.worldId}` },
          },
        ],
        ...(typeof settings.data === 'string' ? { 'https://purl.imsglobal.org/spec/lti-dl/claim/data': settings.data } : {}),
      })
        .setProtectedHeader({ alg: LTI_KEY_ALGORITHM, kid, typ: 'JWT' })
        .setIssuer(launch.platform.clientId)
        .setAudience(launch.platform.issuer)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(key);
      return c.html(autoSubmitForm(settings.deep_link_return_url, { JWT: response }));
    } catch (error) {
      return errorAnswer(c, error, services);
    }
  });

  app.get(LTI_PATHS.jwks, async (c) => {
    try {
      c.header('cache-control', 'public, max-age=3600');
      return c.json(await toolJwks(db));
    } catch (error) {
      return errorAnswer(c, error, services);
    }
  });

  app.get('/api/lti/config', (c) => c.json(ltiToolConfig(toolBase(services, c.req.raw))));
}
