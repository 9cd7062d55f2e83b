/** GET /api/openapi.json (generated from the REST table, its zod input schemas and the documented answers) and GET /api/docs. */
import type { Hono } from 'hono';
import { z } from 'zod';
import {
  API_TOKEN_SCOPE_DESCRIPTIONS,
  COMPANY_LIST_DEFAULT_LIMIT,
  COMPANY_LIST_MAX_LIMIT,
  DATA_FILE_FORMATS,
  DATA_TABLE_NAMES,
  DEFAULT_RATE_LIMITS,
  REALTIME_CHANNEL,
  companyListInput,
  signInInputSchema,
  signUpInputSchema,
  stockOverviewInput,
  transactionsListInput,
} from '@marketcraft/shared';
import type { ProcedureMeta } from './trpc.ts';
import { restRoutes } from './rest.ts';
import { WORLD_ID_HEADER } from './access/tokenWorld.ts';
import { errorResponse, healthResponse, okResponse, providersResponse, responseSchemaOf, sessionResponse, signedInResponse } from './responses.ts';

/** What an error status means on this API (every error body is `{ "error": message }`). */
const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid input (the message names the field), or a token in the URL',
  '401': 'Not signed in, or a malformed, unknown, revoked or expired token (each with its own message)',
  '403': "Not allowed: admins only, a cross-site request, the token's scope does not cover the route, or a session-only route",
  '404': "Unknown id, or another company's building or store",
  '409': 'Not enough cash, stock or shares, or already done',
  '422': 'A rule of the game refuses it (wrong building type, prerequisite missing, equipment level, influence cap)',
  '413': 'The request body is larger than the API reads (every body is a small JSON object)',
};

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': integerHeader('The budget closest to running out for this kind of call (requests, or mutations for a mutation), per minute'),
  'RateLimit-Remaining': integerHeader('What is left of it in this minute'),
  'RateLimit-Reset': integerHeader('Seconds until the minute ends and the counts start again'),
  'RateLimit-Policy': { description: 'Both budgets: "requests";q=<n>;w=60, "mutations";q=<n>;w=60', schema: { type: 'string' } },
  RateLimit: { description: 'What is left of both: "requests";r=<n>;t=<s>, "mutations";r=<n>;t=<s>', schema: { type: 'string' } },
  'Retry-After': integerHeader('Seconds to wait before trying again'),
};
/** The headers of a page of a list of companies or of the ledger (api/src/paging.ts). */
const PAGE_HEADERS = {
  'X-Total-Count': integerHeader('Rows of the whole list (its filters applied), over all pages'),
  Link: { description: 'RFC 8288 links to the first, prev, next and last pages (relative URLs); no rel="next" on the last page', schema: { type: 'string' } },
};
const rateLimitHeaderRefs = Object.fromEntries(
  ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'RateLimit'].map((name) => [
    name,
    { $ref: `#/components/headers/${name}` },
  ]),
);

/** The document's tags: one per router (the first part of a procedure's path), plus the auth routes and the health check. */
const TAGS: Record<string, string> = {
  auth: 'Accounts and sessions: sign-up, sign-in, sign-out, Google sign-in (docs/auth.md)',
  health: "The server's health, for load balancers",
  world: 'The current world: its week and clock, the community page, the live stream of its turns',
  admin: 'Site admins: the public world, the turn, busiest tokens',
  buildings: 'Your buildings: build, hire, equip, produce, sell',
  stores: "Your stores' shelves",
  market: 'The goods exchange: quotes and trades',
  catalog: 'Products, recipes, cities, your warehouse and goods',
  company: 'Your company, the list of companies and the leaderboard',
  stocks: 'The stock exchange: share records, prices, your portfolio, trades',
  politics: 'Countries, influence, political events',
  research: 'The research tree',
  news: 'The news feed',
  tokens: 'Personal access tokens (docs/api.md)',
  transactions: "Your company's ledger",
  warehouse: 'Your company warehouse',
  reports: 'Week results',
  worlds: 'Worlds and class worlds: joining, switching, the instructor tools (docs/worlds.md)',
  teams: 'Teams in class worlds: members, roles, team codes, moves (docs/classroom.md)',
  data: 'Open data: weekly data files of a world as CSV and Parquet (docs/open-data.md)',
  assignments: 'Assignments, checkpoints and the gradebook of class worlds (docs/classroom.md)',
  exchange: "The players' exchange: limit orders in the weekly call auction, the published curves, past clearings (docs/exchange.md)",
  contracts: 'Contracts between companies: offers of goods, accept, decline, cancel (docs/exchange.md)',
  lti: 'Launch from a course system (LTI 1.3): login, launch, deep linking, keys, platform registrations, grades and roster (docs/classroom.md)',
};

/** A route's tag: its router ("buildings.hireEmployees" -> buildings). */
function tagOf(procedurePath: string): string {
  const tag = procedurePath.split('.')[0]!;
  if (!(tag in TAGS)) throw new Error(`the OpenAPI document has no tag for ${procedurePath}: add one to TAGS`);
  return tag;
}

/** A zod schema as JSON Schema (the document's dialect is OpenAPI 3.1's, so no `$schema` per schema). */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return jsonSchema;
}
const json = (schema: unknown) => ({ 'application/json': { schema } });
const errorRef = { $ref: '#/components/schemas/Error' };

function errorResponses(statuses: string[]): Record<string, unknown> {
  return Object.fromEntries(statuses.map((status) => [status, { description: ERROR_STATUSES[status] ?? status, content: json(errorRef) }]));
}

/** The auth routes (plain Hono routes in auth/routes.ts, not procedures) and the health check. */
function authAndHealthPaths(): Record<string, Record<string, unknown>> {
  const signedIn = { description: 'Signed in: the session cookie is set', content: json(jsonSchemaOf(signedInResponse, 'output')) };
  const credentials = (schema: z.ZodType) => ({ required: true, content: json(jsonSchemaOf(schema, 'input')) });
  return {
    '/auth/signup': {
      post: {
        operationId: 'auth.signup',
        tags: ['auth'],
        summary: 'Create an account and its company (starting cash per SIGNUP_BONUS) and sign in',
        description: 'Sets the session cookie and answers the session token (docs/auth.md). Sign-ups from one address are throttled.',
        security: [],
        requestBody: credentials(signUpInputSchema),
        responses: {
          '200': signedIn,
          ...errorResponses(['400', '403']),
          '409': { description: 'The email is taken (any letter case)', content: json(errorRef) },
        },
      },
    },
    '/auth/signin': {
      post: {
        operationId: 'auth.signin',
        tags: ['auth'],
        summary: 'Sign in with email and password (a new session every time)',
        description: 'Sets the session cookie and answers the session token, which also works as a bearer (docs/auth.md).',
        security: [],
        requestBody: credentials(signInInputSchema),
        responses: {
          '200': signedIn,
          ...errorResponses(['400', '403']),
          '401': { description: 'Wrong email or password (one message for both)', content: json(errorRef) },
          '429': { description: '10 consecutive failures for the account or the address: locked for 10 minutes', content: json(errorRef) },
        },
      },
    },
    '/auth/signout': {
      post: {
        operationId: 'auth.signout',
        tags: ['auth'],
        summary: 'End the session (its cookie or token answers 401 afterwards)',
        description: 'Session only: personal access tokens are revoked on /profile instead.',
        responses: { '200': { description: 'Signed out', content: json(jsonSchemaOf(okResponse, 'output')) }, ...errorResponses(['403']) },
      },
    },
    '/auth/session': {
      get: {
        operationId: 'auth.session',
        tags: ['auth'],
        summary: 'The signed-in user, or null',
        description: 'Public: answers null without a session.',
        security: [],
        responses: { '200': { description: 'Success', content: json(jsonSchemaOf(sessionResponse, 'output')) } },
      },
    },
    '/auth/providers': {
      get: {
        operationId: 'auth.providers',
        tags: ['auth'],
        summary: 'Whether "Continue with Google" is available',
        description: 'Public: true when the server has Google sign-in configured.',
        security: [],
        responses: { '200': { description: 'Success', content: json(jsonSchemaOf(providersResponse, 'output')) } },
      },
    },
    '/auth/google': {
      get: {
        operationId: 'auth.google',
        tags: ['auth'],
        summary: 'Start Google sign-in: sets the state and PKCE cookies and redirects to Google',
        description: 'For browsers: a redirect, not an API call.',
        security: [],
        responses: { '302': { description: 'To Google' }, '503': { description: 'Google sign-in is not configured', content: json(errorRef) } },
      },
    },
    '/auth/google/callback': {
      get: {
        operationId: 'auth.googleCallback',
        tags: ['auth'],
        summary: 'Where Google sends the browser back: signs in and redirects to / (or to /?auth_error=<message>)',
        description: 'For browsers: Google redirects here with code and state.',
        security: [],
        parameters: [
          { name: 'code', in: 'query', required: false, description: "Google's authorization code", schema: { type: 'string' } },
          { name: 'state', in: 'query', required: false, description: 'The state set by /auth/google', schema: { type: 'string' } },
        ],
        responses: { '302': { description: 'To / (signed in) or /?auth_error=<message>' } },
      },
    },
    '/health': {
      get: {
        operationId: 'health',
        tags: ['health'],
        summary: 'Whether this server can serve players: its database and the turn queue',
        description: 'Public, for load balancers and monitors: 200 when serving, 503 with Retry-After when not.',
        security: [],
        responses: {
          '200': { description: 'Serving', content: json(jsonSchemaOf(healthResponse, 'output')) },
          '503': {
            description: 'The database is unreachable or the server is shutting down (Retry-After)',
            content: json(jsonSchemaOf(healthResponse, 'output')),
          },
        },
      },
    },
  };
}

/** The LTI 1.3 protocol routes (plain Hono routes in lti/routes.ts; docs/classroom.md); the JSON ones are in the REST table (routers/lti.ts). */
function ltiPaths(): Record<string, Record<string, unknown>> {
  const form = (fields: string[]) => ({
    required: true,
    content: {
      'application/x-www-form-urlencoded': { schema: { type: 'object', properties: Object.fromEntries(fields.map((field) => [field, { type: 'string' }])) } },
    },
  });
  const launchAnswers = (success: Record<string, unknown>) => ({
    ...success,
    '400': {
      description: 'Missing id_token or state; the state is unknown, used, expired or from another browser; another message type or version',
      content: json(errorRef),
    },
    '403': { description: 'Bad signature, wrong issuer or audience, expired, nonce not ours, unknown deployment', content: json(errorRef) },
    '409': { description: "A learner's launch before the course's world exists", content: json(errorRef) },
  });
  const loginInitiation = {
    summary: "OIDC third-party login initiation from a course platform: redirects to the platform's auth URL with a fresh state and nonce",
    security: [],
    responses: {
      '302': { description: "To the platform's authentication request URL" },
      ...errorResponses(['400']),
      '404': { description: 'The platform is not registered', content: json(errorRef) },
    },
  };
  const paths: Record<string, Record<string, Record<string, unknown>>> = {
    '/lti/login': {
      get: {
        operationId: 'lti.login',
        ...loginInitiation,
        parameters: ['iss', 'login_hint', 'target_link_uri', 'lti_message_hint', 'client_id', 'lti_deployment_id'].map((name) => ({
          name,
          in: 'query',
          required: ['iss', 'login_hint', 'target_link_uri'].includes(name),
          schema: { type: 'string' },
        })),
      },
      post: {
        operationId: 'lti.loginPost',
        ...loginInitiation,
        requestBody: form(['iss', 'login_hint', 'target_link_uri', 'lti_message_hint', 'client_id', 'lti_deployment_id']),
      },
    },
    '/lti/launch': {
      post: {
        operationId: 'lti.launch',
        summary: 'The LTI resource link launch: checks the id_token, signs the user in and places them in the course world',
        security: [],
        requestBody: form(['id_token', 'state']),
        responses: launchAnswers({ '303': { description: "Signed in: to the world's Manage page (instructors) or the game (learners)" } }),
      },
    },
    '/lti/deep-link': {
      post: {
        operationId: 'lti.deepLink',
        summary: 'The LTI deep-linking request (instructors): answers a form posting the signed resource link back to the platform',
        security: [],
        requestBody: form(['id_token', 'state']),
        responses: launchAnswers({
          '200': { description: 'An auto-submitting form to the platform', content: { 'text/html': { schema: { type: 'string' } } } },
        }),
      },
    },
    '/lti/jwks': {
      get: {
        operationId: 'lti.jwks',
        summary: "The tool's public keys (current and recently retired)",
        security: [],
        responses: {
          '200': { description: 'A JWK set', content: json({ type: 'object', properties: { keys: { type: 'array', items: { type: 'object' } } } }) },
        },
      },
    },
    '/lti/config': {
      get: {
        operationId: 'lti.config',
        summary: "The tool's login, launch, JWKS and deep-linking URLs",
        security: [],
        responses: {
          '200': {
            description: 'Success',
            content: json({
              type: 'object',
              properties: { login_url: { type: 'string' }, launch_url: { type: 'string' }, jwks_url: { type: 'string' }, deep_link_url: { type: 'string' } },
            }),
          },
        },
      },
    },
  };
  // Who calls each: the course platform's browser (form posts and redirects), the platform itself
  // (the JWKS), or the instructor's page.
  const descriptions: Record<string, string> = {
    'lti.login':
      'Called by the course platform (its browser) with iss, login_hint and target_link_uri; sets a single-use state cookie. Guide: docs/classroom.md.',
    'lti.loginPost': 'The same login initiation as a form post, as most platforms send it.',
    'lti.launch':
      "Posted by the platform's browser after our login: the id_token is verified against the platform's JWKS. The first launch creates the account (no password) and, for an instructor, the course's class world.",
    'lti.deepLink':
      'Posted by the platform when an instructor places Marketcraft in the course; answers the signed LtiDeepLinkingResponse (one resource link with a line item) in an auto-submitting form.',
    'lti.jwks': "Read by course platforms to verify the tool's token requests and deep-linking answers. Private keys are never served.",
    'lti.config': 'The four addresses to paste into the course platform (the Manage page shows them).',
  };
  for (const methods of Object.values(paths)) {
    for (const operation of Object.values(methods)) Object.assign(operation, { tags: ['lti'], description: descriptions[operation.operationId as string] });
  }
  return paths;
}

/**
 * GET /api/realtime (a plain Hono route in realtime.ts, not a procedure): the turn stream docs/api.md
 * offers scripts ("Worlds"), with the refusals it answers before any stream opens.
 */
function realtimePath(): Record<string, Record<string, unknown>> {
  const update = {
    type: 'object',
    properties: {
      worldId: { type: 'integer', description: 'The world whose turn committed: the one this stream hears' },
      week: { type: 'integer', description: 'The week now being played' },
      processedWeek: { type: 'integer', description: 'The week whose turn just ran (its results are ready)' },
    },
    required: ['worldId', 'week', 'processedWeek'],
  };
  return {
    '/realtime': {
      get: {
        operationId: 'realtime',
        tags: ['world'],
        summary: "A Server-Sent Events stream of the world's turns: an event each time a turn of the world you act in commits",
        description:
          'Personal access tokens need the "read" scope (or a wider one); without credentials, the public world\'s turns. ' +
          `A token hears the world its ${WORLD_ID_HEADER} header names (the public world without it); a session, the world chosen with PUT /api/session/world. ` +
          `Events: "ready" once the stream listens (data {"channel": "${REALTIME_CHANNEL}"}), then "${REALTIME_CHANNEL}" per turn (data: a JSON object, x-event-data below), ` +
          'and a comment line every 25 s to keep proxies from closing it. Refusals are answered as JSON before any stream opens. Guide: docs/api.md, "Worlds".',
        'x-token-scope': 'read',
        parameters: [{ $ref: '#/components/parameters/WorldId' }],
        security: [{}, { session: [] }, { sessionToken: [] }, { personalAccessToken: [] }],
        responses: {
          '200': {
            description: `The open stream. Each "${REALTIME_CHANNEL}" event's data is a JSON object of the x-event-data schema`,
            content: { 'text/event-stream': { schema: { type: 'string' }, 'x-event-data': update } },
          },
          '400': { description: `${WORLD_ID_HEADER} malformed, or sent by a session (it is read only with a personal access token)`, content: json(errorRef) },
          '401': { description: ERROR_STATUSES['401'], content: json(errorRef) },
          '404': { description: `${WORLD_ID_HEADER} names a world you do not play in or teach`, content: json(errorRef) },
          '429': {
            description: 'Too many streams open: 5 per session or token, 100 per address; one more is refused until one closes',
            content: json(errorRef),
          },
        },
      },
    },
  };
}

/** GET /api/worlds/{id}/gradebook.csv (api/src/gradebookCsv.ts): a file, outside the REST table. */
function gradebookCsvPath(): Record<string, Record<string, unknown>> {
  return {
    '/worlds/{id}/gradebook.csv': {
      get: {
        operationId: 'assignments.gradebookCsv',
        tags: ['assignments'],
        summary:
          'Instructors: the gradebook as a CSV file in the columns Canvas and Moodle import (Student, ID, SIS User ID, SIS Login ID, Section, Email address, one column per assignment "<title> (<points>)", the final score)',
        'x-token-scope': null,
        description: 'Session only: personal access tokens cannot call this.',
        parameters: [{ name: 'id', in: 'path', required: true, description: 'The class world', schema: { type: 'integer', minimum: 1 } }],
        security: [{ session: [] }, { sessionToken: [] }],
        responses: {
          '200': { description: 'The CSV file (a Points Possible row first, then a row per student)', content: { 'text/csv': { schema: { type: 'string' } } } },
          '401': { description: ERROR_STATUSES['401'], content: json(errorRef) },
          '403': { description: "Only this world's instructors can do that", content: json(errorRef) },
          '404': { description: 'A world you do not teach or play in', content: json(errorRef) },
        },
      },
    },
  };
}

/** The weekly data files (api/src/dataFiles.ts): binary answers, so a plain route beside the REST table. */
function dataFilePaths(): Record<string, Record<string, unknown>> {
  const fileHeaders = {
    ETag: { description: "The file's SHA-256 in quotes (strong): the manifest's checksum", schema: { type: 'string' } },
    'Cache-Control': {
      description: 'public (the public world) or private (a class world), max-age=31536000, immutable: a finished week never changes',
      schema: { type: 'string' },
    },
    'Accept-Ranges': { description: 'bytes: Range requests are answered (206)', schema: { type: 'string' } },
    ...rateLimitHeaderRefs,
  };
  const bytes = { type: 'string', contentMediaType: 'application/octet-stream' };
  const content = { 'application/gzip': { schema: bytes }, 'application/vnd.apache.parquet': { schema: bytes } };
  return {
    '/data/worlds/{id}/weeks/{week}/{table}.{format}': {
      get: {
        operationId: 'data.file',
        tags: ['data'],
        summary:
          'One table of a finished week as gzipped CSV or Parquet: prices, city_retail, leaderboard, companies or shares (manifest.json lists their columns and units)',
        description:
          'Personal access tokens need the "read" scope (or a wider one). The public world\'s files for every signed-in reader, a class world\'s for its players and instructors. ' +
          'A finished week never changes: a strong ETag (If-None-Match answers 304) and a year-long immutable Cache-Control; Range requests answer 206 (DuckDB reads Parquet over HTTP this way). Guide: docs/open-data.md.',
        'x-token-scope': 'read',
        parameters: [
          { name: 'id', in: 'path', required: true, description: 'The world (GET /api/worlds)', schema: { type: 'integer', minimum: 1 } },
          { name: 'week', in: 'path', required: true, description: 'A finished week (before the current one)', schema: { type: 'integer', minimum: 1 } },
          { name: 'table', in: 'path', required: true, description: 'The table', schema: { type: 'string', enum: [...DATA_TABLE_NAMES] } },
          {
            name: 'format',
            in: 'path',
            required: true,
            description: 'csv.gz (RFC 4180 CSV with a header line, gzipped) or parquet',
            schema: { type: 'string', enum: [...DATA_FILE_FORMATS] },
          },
          { name: 'Range', in: 'header', required: false, description: 'One byte range: bytes=a-b, bytes=a- or bytes=-n', schema: { type: 'string' } },
          {
            name: 'If-None-Match',
            in: 'header',
            required: false,
            description: 'The ETag of the copy you have: 304 when it is this file',
            schema: { type: 'string' },
          },
        ],
        security: [{ session: [] }, { sessionToken: [] }, { personalAccessToken: [] }],
        responses: {
          '200': { description: 'The file', headers: fileHeaders, content },
          '206': { description: 'The requested bytes of the file (Content-Range says which)', headers: fileHeaders, content },
          '304': { description: 'Not modified: your copy (If-None-Match) is this file', headers: fileHeaders },
          '400': { description: 'An unknown table or format, or a week that is not a whole number from 1', content: json(errorRef) },
          '401': { description: ERROR_STATUSES['401'], content: json(errorRef) },
          '404': { description: 'A week not finished (or without data files), or a world you do not play in or teach', content: json(errorRef) },
          '416': { description: 'The range is outside the file (Content-Range: bytes */size)', content: json(errorRef) },
          '429': {
            description: 'Rate limit reached: wait Retry-After seconds',
            headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...rateLimitHeaderRefs },
            content: json(errorRef),
          },
        },
      },
    },
  };
}

export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {
    ...authAndHealthPaths(),
    ...ltiPaths(),
    ...dataFilePaths(),
    ...gradebookCsvPath(),
    ...realtimePath(),
  };
  for (const route of restRoutes()) {
    const parameters: unknown[] = [];
    const inputProperties = (
      route.procedure._def.inputs[0] ? (jsonSchemaOf(route.procedure._def.inputs[0] as z.ZodType, 'input').properties ?? {}) : {}
    ) as Record<string, unknown>;
    for (const match of route.path.matchAll(/\{(\w+)\}/g)) {
      // The input's own schema for the field (GET /worlds/{id}/export/{kind}: kind is a word, not an id).
      parameters.push({ name: match[1], in: 'path', required: true, schema: inputProperties[match[1]!] ?? { type: 'integer', minimum: 1 } });
    }
    // Routes a token may call take the world it acts in (docs/api.md, "Worlds").
    if (((route.procedure._def.meta as ProcedureMeta | undefined)?.access ?? 'session') !== 'session')
      parameters.push({ $ref: '#/components/parameters/WorldId' });
    const inputSchema = route.procedure._def.inputs[0] as z.ZodType | undefined;
    const answer = responseSchemaOf(route.procedurePath);
    const isPaged = inputSchema === companyListInput || inputSchema === stockOverviewInput || inputSchema === transactionsListInput;
    const isPublic = route.procedurePath === 'world.state' || route.procedurePath === 'world.community';
    const isAdmin = route.path.startsWith('/admin/') && route.procedurePath !== 'admin.check';
    const access = (route.procedure._def.meta as ProcedureMeta | undefined)?.access ?? 'session';
    const errors = ['400', '401', '403', '404', '409', '422'].filter((status) => !(isPublic && status !== '400' && status !== '401'));
    const operation: Record<string, unknown> = {
      operationId: route.procedurePath,
      tags: [tagOf(route.procedurePath)],
      summary: route.summary ?? route.procedurePath,
      description:
        access === 'session' ? 'Session only: personal access tokens cannot call this.' : `Personal access tokens need the "${access}" scope (or a wider one).`,
      'x-token-scope': access === 'session' ? null : access,
      parameters,
      // The scope a token needs is x-token-scope: OpenAPI lists scopes in a requirement only for OAuth2 and OpenID Connect schemes.
      security: isPublic
        ? [{}, { personalAccessToken: [] }]
        : [{ session: [] }, { sessionToken: [] }, ...(access === 'session' ? [] : [{ personalAccessToken: [] }])],
      responses: {
        [route.created ? '201' : '200']: {
          description: route.created
            ? 'Created'
            : isPaged
              ? 'Success: one page (docs/api.md, "Lists of companies: pages", which also covers the ledger)'
              : 'Success',
          headers: isPaged ? { ...rateLimitHeaderRefs, ...PAGE_HEADERS } : rateLimitHeaderRefs,
          ...(answer ? { content: json(jsonSchemaOf(answer, 'output')) } : {}),
        },
        ...errorResponses(errors),
        '429': {
          description: 'Rate limit reached (per token or per session): wait Retry-After seconds',
          headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...rateLimitHeaderRefs },
          content: json(errorRef),
        },
        ...(isAdmin ? { '503': { description: 'The turn worker is not running, or the turn failed or took too long', content: json(errorRef) } } : {}),
      },
    };
    if (inputSchema) {
      const jsonSchema = jsonSchemaOf(inputSchema, 'input');
      if (route.method === 'GET' || route.method === 'DELETE') {
        const properties = (jsonSchema.properties ?? {}) as Record<string, unknown>;
        const required = new Set((jsonSchema.required as string[] | undefined) ?? []);
        for (const [name, schema] of Object.entries(properties)) {
          if (route.path.includes(`{${name}}`)) continue;
          parameters.push({ name, in: 'query', required: required.has(name), schema });
        }
      } else {
        // The path's ids go in the path only: the server takes them from there (rest.ts), so the body
        // schema neither lists them nor requires them (a script would otherwise send each id twice).
        const properties = { ...((jsonSchema.properties ?? {}) as Record<string, unknown>) };
        const pathNames = Object.keys(properties).filter((name) => route.path.includes(`{${name}}`));
        for (const name of pathNames) delete properties[name];
        const required = ((jsonSchema.required as string[] | undefined) ?? []).filter((name) => !pathNames.includes(name));
        const bodySchema = { ...jsonSchema, properties, ...(jsonSchema.required ? { required } : {}) };
        operation.requestBody = { required: true, content: json(bodySchema) };
      }
    }
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  // Every route that reads a body refuses one over MAX_REQUEST_BODY_BYTES before reading it (app.ts).
  for (const methods of Object.values(paths)) {
    for (const operation of Object.values(methods) as { requestBody?: unknown; responses: Record<string, unknown> }[]) {
      if (operation.requestBody) operation.responses['413'] = errorResponses(['413'])['413'];
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Marketcraft API',
      version: '1.0.0',
      contact: { name: 'Marketcraft: the guide is GET /api/docs, and docs/api.md in the repository' },
      description:
        'Every call the Marketcraft web app makes, as plain JSON over HTTP. Money is in dollars (numbers with at most two decimals). ' +
        'Scripts authenticate with a personal access token created on /profile, sent as Authorization: Bearer mc_pat_… (never in the URL); ' +
        'each route says the scope it needs (x-token-scope: read, trade or manage; null: session only). ' +
        'The browser uses the session cookie (POST /api/auth/signin); the session token also works as a bearer. ' +
        `Rate limits per minute: ${DEFAULT_RATE_LIMITS.token.requestsPerMinute} requests and ${DEFAULT_RATE_LIMITS.token.mutationsPerMinute} mutations per token, ` +
        `${DEFAULT_RATE_LIMITS.session.requestsPerMinute} and ${DEFAULT_RATE_LIMITS.session.mutationsPerMinute} per session (defaults); every answer carries RateLimit headers, and 429 carries Retry-After. ` +
        `A token acts in the public world, or in another world its user plays in or teaches when the request names it with the ${WORLD_ID_HEADER} header (a world you are not in: 404). ` +
        `Lists with a row per company (companies, leaderboard, shares, company-shares, stock-prices, stocks/overview) answer one page: ?limit (default ${COMPANY_LIST_DEFAULT_LIMIT}, at most ${COMPANY_LIST_MAX_LIMIT}; out of range is a 400, never clamped) and ?offset, ` +
        'in a stable order ending with the company id; X-Total-Count and Link (rel="next") headers say where the page is. ' +
        'A cookie-authenticated request other than GET must come from the app (Origin header), or it answers 403. Guide: docs/api.md.',
    },
    servers: [{ url: '/api' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'marketcraft_session', description: 'The browser session (POST /api/auth/signin sets it)' },
        sessionToken: { type: 'http', scheme: 'bearer', description: 'The session token answered by sign-in, as a bearer' },
        personalAccessToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'mc_pat_<16>_<32>',
          description: `A personal access token from /profile with scope read, trade or manage (each includes the one before). ${Object.entries(
            API_TOKEN_SCOPE_DESCRIPTIONS,
          )
            .map(([scope, text]) => `${scope}: ${text}`)
            .join('; ')}.`,
        },
      },
      headers: RATE_LIMIT_HEADERS,
      parameters: {
        WorldId: {
          name: WORLD_ID_HEADER,
          in: 'header',
          required: false,
          description:
            "Personal access tokens only: the world the request acts in (default: the public world, id 1). A private world the token's user plays in or teaches; " +
            'any other answers 404, a malformed id 400. Browser sessions choose their world with PUT /api/session/world and must not send it (400).',
          schema: { type: 'integer', minimum: 1 },
        },
      },
      schemas: { Error: jsonSchemaOf(errorResponse, 'output') },
    },
    security: [{ session: [] }, { sessionToken: [] }],
    paths,
  };
}

export function registerDocsRoutes(app: Hono): void {
  let cached: Record<string, unknown> | undefined;
  app.get('/api/openapi.json', (c) => c.json((cached ??= buildOpenApiDocument())));
  app.get('/api/docs', (c) => c.html(docsPage()));
  // A file, not an inline script, so the Content-Security-Policy allows scripts from our origin only.
  app.get('/api/docs.js', (c) => c.body(DOCS_SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
}

/** The docs page's script: lists every route of /api/openapi.json. */
export const DOCS_SCRIPT = `fetch('/api/openapi.json').then(r=>r.json()).then(doc=>{
  const out=[];
  for(const [p,ops] of Object.entries(doc.paths)){for(const [m,op] of Object.entries(ops)){
    const M=m.toUpperCase();
    const pre=(label,schema)=>schema?'<div>'+label+'</div><pre>'+JSON.stringify(schema,null,2).replace(/</g,'&lt;')+'</pre>':'';
    const ok=op.responses&&(op.responses['200']||op.responses['201'])&&(op.responses['200']||op.responses['201']).content;
    const body=pre('Body',op.requestBody&&op.requestBody.content['application/json']&&op.requestBody.content['application/json'].schema)+pre('Answer (200)',ok&&ok['application/json']&&ok['application/json'].schema)+(ok&&!ok['application/json']?'<div>Answer (200): '+Object.keys(ok).join(' or ')+'</div>':'');
    const q=(op.parameters||[]).filter(x=>x.in==='query').map(x=>'<code>'+x.name+'</code>').join(' ');
    const scope=!('x-token-scope' in op)?'':op['x-token-scope']?'<span class="s '+op['x-token-scope']+'" title="personal access token scope">'+op['x-token-scope']+'</span>':'<span class="s session">session only</span>';
    out.push('<h2><span class="m '+M+'">'+M+'</span><code>/api'+p+'</code>'+scope+'</h2><div>'+op.summary+(q?' &middot; query: '+q:'')+'</div>'+body);
  }}
  document.getElementById('routes').innerHTML=out.join('');
});
`;

function docsPage(): string {
  const scopes = Object.entries(API_TOKEN_SCOPE_DESCRIPTIONS)
    .map(([scope, text]) => `<li><span class="s ${scope}">${scope}</span> ${text}</li>`)
    .join('');
  const { token, session } = DEFAULT_RATE_LIMITS;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Marketcraft API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1a1b1e}
h2{font-size:1rem;margin:1.5rem 0 .25rem}code{background:#f1f3f5;padding:.1rem .3rem;border-radius:4px}
.m{display:inline-block;min-width:4.5rem;font-weight:700}.GET{color:#2f9e44}.POST{color:#1971c2}.PUT{color:#e8590c}.PATCH{color:#9c36b5}.DELETE{color:#e03131}
.s{display:inline-block;font-size:.75rem;font-weight:600;padding:0 .4rem;border-radius:8px;margin-left:.5rem;border:1px solid}
.read{color:#2f9e44}.trade{color:#1971c2}.manage{color:#9c36b5}.session{color:#868e96}
pre{background:#f8f9fa;padding:.5rem;border-radius:6px;overflow:auto;font-size:.8rem}</style></head>
<body><h1>Marketcraft API</h1><p>Every route answers JSON under <code>/api</code>. Errors answer <code>{ "error": message }</code>. The machine-readable document is <a href="/api/openapi.json">/api/openapi.json</a>.</p>
<h2 id="auth">Authentication</h2>
<p>Scripts use a <b>personal access token</b>: create one on your <a href="/profile">Company Profile</a> (it is shown once), then send it on every request as <code>Authorization: Bearer mc_pat_…</code>. Never put it in a URL: a token in the query string is refused. Each token has a scope, and each route below says the scope it needs:</p>
<ul>${scopes}<li><span class="s session">session only</span> admin routes, account settings and token management: tokens never reach them</li></ul>
<p>Malformed, unknown, revoked and expired tokens answer 401 with their own message; a token without the scope a route needs answers 403. The browser signs in with <code>POST /api/auth/signin</code> and uses the session cookie (the session token also works as a bearer).</p>
<h2 id="worlds">Worlds</h2>
<p>A token acts in the public world. To act in a private (classroom) world you play in or teach, send its id on each request: <code>${WORLD_ID_HEADER}: 7</code> (<code>GET /api/worlds</code> lists your worlds and their ids). A world you are not part of, or none, answers 404; a malformed id 400. Browser sessions choose their world with the world switcher instead.</p>
<h2 id="limits">Rate limits</h2>
<p>Per minute: <b>${token.requestsPerMinute} requests, of which ${token.mutationsPerMinute} actions</b> (POST, PUT, PATCH, DELETE) per token; ${session.requestsPerMinute} and ${session.mutationsPerMinute} per browser session (this server's defaults). Every answer carries <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code>, <code>RateLimit-Reset</code> (seconds), <code>RateLimit-Policy</code> and <code>RateLimit</code>; over the budget the answer is 429 with <code>Retry-After</code>. The counts are shared by all servers of the game.</p>
<h2 id="pages">Lists of companies</h2>
<p><code>/api/companies</code>, <code>/api/leaderboard</code>, <code>/api/shares</code>, <code>/api/company-shares</code>, <code>/api/stock-prices</code> and <code>/api/stocks/overview</code> answer one page: <code>?limit</code> (${COMPANY_LIST_DEFAULT_LIMIT} unless given, at most ${COMPANY_LIST_MAX_LIMIT}; out of range answers 400), <code>?offset</code>, <code>?search</code> (part of the name). The answer keeps its shape; <code>X-Total-Count</code> says how many rows the whole list has and <code>Link</code> gives the <code>next</code> page until the last.</p>
<div id="routes">Loading…</div>
<script src="/api/docs.js"></script></body></html>`;
}
