/**
 * An LTI 1.3 course platform for the tests (node:http on 127.0.0.1), playing Canvas or Moodle: its
 * own RSA key and JWKS, an OIDC auth endpoint that answers the tool's login with a signed id_token
 * in an auto-submitting form, an OAuth2 token endpoint that checks the tool's signed client
 * assertion against the tool's JWKS, a line-item and score store (AGS), a roster (NRPS) and a
 * deep-linking return address that checks the tool's signed answer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWTPayload } from 'jose';

interface PlatformUser {
  sub: string;
  name: string;
  email: string;
  roles: string[];
  /** The link's custom parameters (LTI custom claim), e.g. { team_code }. */
  custom?: Record<string, string>;
}

export const INSTRUCTOR_ROLE = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
export const LEARNER_ROLE = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';

interface LineItem {
  id: string;
  label: string;
  resourceId: string;
  scoreMaximum: number;
  scores: Map<string, { scoreGiven: number; scoreMaximum: number; gradingProgress: string }>;
}

export interface TestPlatform {
  url: string;
  issuer: string;
  clientId: string;
  deploymentId: string;
  /** The body of POST /api/lti/platforms for this platform. */
  registration: Record<string, unknown>;
  users: Map<string, PlatformUser>;
  course: { id: string; title: string };
  /** Changes the next id_token's claims (then forgets it): a test's way to send a bad launch. */
  tamperNextToken: ((claims: JWTPayload & Record<string, unknown>) => JWTPayload & Record<string, unknown>) | null;
  /** Signs the next id_token with a key the platform never published (same kid). */
  forgeNextSignature: boolean;
  lineItems: LineItem[];
  tokenRequests: { scopes: string[]; assertionKid: string | undefined }[];
  deepLinkResponses: (JWTPayload & Record<string, unknown>)[];
  close: () => Promise<void>;
}

function html(res: http.ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
}
function json(res: http.ServerResponse, status: number, body: unknown, type = 'application/json') {
  res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
}

export async function startTestPlatform(options: { toolBaseUrl: string; name?: string }): Promise<TestPlatform> {
  const kid = 'platform-key-1';
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const stranger = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const toolKeys = createRemoteJWKSet(new URL(`${options.toolBaseUrl}/api/lti/jwks`), { cooldownDuration: 0 });
  const accessTokens = new Map<string, string[]>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handle(req, Buffer.concat(chunks).toString('utf8'), res).catch((error) => json(res, 500, { error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = url;
  const platform: TestPlatform = {
    url,
    issuer,
    clientId: `client-${options.name ?? 'canvas'}`,
    deploymentId: 'deployment-1',
    registration: {},
    users: new Map(),
    course: { id: 'course-econ-101', title: 'Economics 101' },
    tamperNextToken: null,
    forgeNextSignature: false,
    lineItems: [],
    tokenRequests: [],
    deepLinkResponses: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  platform.registration = {
    issuer,
    client_id: platform.clientId,
    deployment_ids: [platform.deploymentId],
    auth_login_url: `${url}/auth`,
    auth_token_url: `${url}/token`,
    jwks_url: `${url}/jwks`,
  };

  function bearerScopes(req: http.IncomingMessage): string[] | null {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    return token ? (accessTokens.get(token) ?? null) : null;
  }

  async function handle(req: http.IncomingMessage, body: string, res: http.ServerResponse): Promise<void> {
    const requestUrl = new URL(req.url ?? '/', url);
    const path = requestUrl.pathname;
    if (req.method === 'GET' && path === '/jwks') return json(res, 200, { keys: [publicJwk] });

    if (req.method === 'GET' && path === '/auth') {
      // OIDC authorization: the tool's login sent the browser here.
      const params = requestUrl.searchParams;
      const user = platform.users.get(params.get('login_hint') ?? '');
      if (
        params.get('client_id') !== platform.clientId ||
        params.get('response_type') !== 'id_token' ||
        params.get('response_mode') !== 'form_post' ||
        !params.get('nonce') ||
        !user
      ) {
        return json(res, 400, { error: 'invalid_request' });
      }
      const deepLinking = params.get('lti_message_hint') === 'deep-link';
      let claims: JWTPayload & Record<string, unknown> = {
        nonce: params.get('nonce')!,
        name: user.name,
        email: user.email,
        'https://purl.imsglobal.org/spec/lti/claim/message_type': deepLinking ? 'LtiDeepLinkingRequest' : 'LtiResourceLinkRequest',
        'https://purl.imsglobal.org/spec/lti/claim/version': '1.3.0',
        'https://purl.imsglobal.org/spec/lti/claim/deployment_id': platform.deploymentId,
        'https://purl.imsglobal.org/spec/lti/claim/target_link_uri': params.get('redirect_uri'),
        'https://purl.imsglobal.org/spec/lti/claim/roles': user.roles,
        'https://purl.imsglobal.org/spec/lti/claim/context': { id: platform.course.id, title: platform.course.title, label: 'ECON101' },
        'https://purl.imsglobal.org/spec/lti/claim/resource_link': { id: 'resource-link-1', title: 'Marketcraft' },
        ...(user.custom ? { 'https://purl.imsglobal.org/spec/lti/claim/custom': user.custom } : {}),
        'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
          scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/lineitem', 'https://purl.imsglobal.org/spec/lti-ags/scope/score'],
          lineitems: `${url}/courses/${platform.course.id}/lineitems`,
        },
        'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice': {
          context_memberships_url: `${url}/courses/${platform.course.id}/memberships`,
          service_versions: ['2.0'],
        },
        ...(deepLinking
          ? {
              'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
                deep_link_return_url: `${url}/deep-link-return`,
                accept_types: ['ltiResourceLink'],
                data: 'opaque-platform-data',
              },
            }
          : {}),
      };
      let expiresAt = Math.floor(Date.now() / 1000) + 300;
      let audience: string | string[] = platform.clientId;
      if (platform.tamperNextToken) {
        claims = platform.tamperNextToken({ ...claims, exp: expiresAt, aud: audience });
        expiresAt = claims.exp as number;
        audience = claims.aud as string | string[];
        platform.tamperNextToken = null;
      }
      const signingKey = platform.forgeNextSignature ? stranger.privateKey : privateKey;
      platform.forgeNextSignature = false;
      const idToken = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .setIssuer(typeof claims.iss === 'string' ? claims.iss : issuer)
        .setSubject(user.sub)
        .setAudience(audience)
        .setIssuedAt(Math.min(Math.floor(Date.now() / 1000), expiresAt - 60))
        .setExpirationTime(expiresAt)
        .sign(signingKey);
      const redirectUri = params.get('redirect_uri')!;
      return html(
        res,
        200,
        `<form method="post" action="${redirectUri}"><input type="hidden" name="id_token" value="${idToken}"><input type="hidden" name="state" value="${params.get('state')}"></form><script>document.forms[0].submit()</script>`,
      );
    }

    if (req.method === 'POST' && path === '/token') {
      const form = new URLSearchParams(body);
      const assertion = form.get('client_assertion');
      if (
        form.get('grant_type') !== 'client_credentials' ||
        form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' ||
        !assertion
      ) {
        return json(res, 400, { error: 'invalid_request' });
      }
      try {
        const { protectedHeader } = await jwtVerify(assertion, toolKeys, { issuer: platform.clientId, subject: platform.clientId, audience: `${url}/token` });
        const scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
        platform.tokenRequests.push({ scopes, assertionKid: protectedHeader.kid });
        const accessToken = `access-${platform.tokenRequests.length}`;
        accessTokens.set(accessToken, scopes);
        return json(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: scopes.join(' ') });
      } catch {
        return json(res, 401, { error: 'invalid_client' });
      }
    }

    const lineItemsPath = `/courses/${platform.course.id}/lineitems`;
    if (path === lineItemsPath) {
      const scopes = bearerScopes(req);
      if (!scopes?.includes('https://purl.imsglobal.org/spec/lti-ags/scope/lineitem')) return json(res, 401, { error: 'unauthorized' });
      if (req.method === 'GET') {
        const resourceId = requestUrl.searchParams.get('resource_id');
        const items = platform.lineItems.filter((item) => resourceId === null || item.resourceId === resourceId);
        return json(
          res,
          200,
          items.map(({ scores: _scores, ...item }) => item),
          'application/vnd.ims.lis.v2.lineitemcontainer+json',
        );
      }
      if (req.method === 'POST' && req.headers['content-type'] === 'application/vnd.ims.lis.v2.lineitem+json') {
        const input = JSON.parse(body) as { label: string; resourceId: string; scoreMaximum: number };
        const item: LineItem = {
          id: `${url}${lineItemsPath}/${platform.lineItems.length + 1}`,
          label: input.label,
          resourceId: input.resourceId,
          scoreMaximum: input.scoreMaximum,
          scores: new Map(),
        };
        platform.lineItems.push(item);
        const { scores: _scores, ...view } = item;
        return json(res, 201, view, 'application/vnd.ims.lis.v2.lineitem+json');
      }
    }
    const scoresMatch = new RegExp(`^${lineItemsPath}/(\\d+)/scores$`).exec(path);
    if (req.method === 'POST' && scoresMatch) {
      if (!bearerScopes(req)?.includes('https://purl.imsglobal.org/spec/lti-ags/scope/score')) return json(res, 401, { error: 'unauthorized' });
      if (req.headers['content-type'] !== 'application/vnd.ims.lis.v1.score+json') return json(res, 415, { error: 'unsupported media type' });
      const item = platform.lineItems[Number(scoresMatch[1]) - 1];
      if (!item) return json(res, 404, { error: 'no such line item' });
      const score = JSON.parse(body) as { userId: string; scoreGiven: number; scoreMaximum: number; gradingProgress: string };
      item.scores.set(score.userId, { scoreGiven: score.scoreGiven, scoreMaximum: score.scoreMaximum, gradingProgress: score.gradingProgress });
      return json(res, 200, {});
    }

    if (req.method === 'GET' && path === `/courses/${platform.course.id}/memberships`) {
      if (!bearerScopes(req)?.includes('https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly'))
        return json(res, 401, { error: 'unauthorized' });
      const members = [...platform.users.values()].map((user) => ({
        user_id: user.sub,
        name: user.name,
        email: user.email,
        roles: user.roles,
        status: 'Active',
      }));
      return json(res, 200, { id: `${url}${path}`, context: { id: platform.course.id }, members }, 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json');
    }

    if (req.method === 'POST' && path === '/deep-link-return') {
      const jwt = new URLSearchParams(body).get('JWT');
      if (!jwt) return json(res, 400, { error: 'no JWT' });
      try {
        const { payload } = await jwtVerify(jwt, toolKeys, { issuer: platform.clientId, audience: issuer });
        platform.deepLinkResponses.push(payload as JWTPayload & Record<string, unknown>);
        return html(res, 200, '<p>Content placed in the course.</p>');
      } catch {
        return json(res, 401, { error: 'the deep-linking answer does not verify' });
      }
    }
    return json(res, 404, { error: `no route ${req.method} ${path}` });
  }

  return platform;
}

/** The hidden fields and action of an auto-submitting form (what a browser would post). */
export function readAutoSubmitForm(page: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]*)"/.exec(page)?.[1];
  if (!action) throw new Error(`No form in: ${page.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    fields[match[1]!] = match[2]!.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));
  return { action: action.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))), fields };
}
