/**
 * The browser's part of an LTI launch in the API tests: the platform calls our login, we send the
 * browser to the platform's auth endpoint, which answers a form that posts the id_token back to us.
 */
import { expect } from 'vitest';
import type { TestApp } from './testApp.ts';
import { findSetCookie, rawRequest } from './authHttp.ts';
import { readAutoSubmitForm, type TestPlatform } from './ltiPlatform.ts';
import { SESSION_COOKIE_NAME } from '../../src/auth/session.ts';
import { LTI_STATE_COOKIE } from '../../src/lti/routes.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export function ltiBrowser(app: TestApp, platform: TestPlatform) {
  async function startLaunch(loginHint: string, options: { messageHint?: string; targetLinkUri?: string } = {}) {
    const login = await rawRequest(app.baseUrl, 'POST', '/api/lti/login', {
      headers: { ...FORM, origin: platform.url },
      body: new URLSearchParams({
        iss: platform.issuer,
        login_hint: loginHint,
        target_link_uri: options.targetLinkUri ?? `${app.baseUrl}/api/lti/launch`,
        client_id: platform.clientId,
        lti_deployment_id: platform.deploymentId,
        ...(options.messageHint ? { lti_message_hint: options.messageHint } : {}),
      }).toString(),
    });
    expect(login.status, JSON.stringify(login.body)).toBe(302);
    const stateCookie = findSetCookie(login.setCookies, LTI_STATE_COOKIE)!.value;
    const auth = await fetch(login.headers.location!);
    expect(auth.status).toBe(200);
    return { ...readAutoSubmitForm(await auth.text()), stateCookie };
  }

  async function postForm(action: string, fields: Record<string, string>, stateCookie: string, accept = 'application/json') {
    return rawRequest(app.baseUrl, 'POST', new URL(action).pathname, {
      headers: { ...FORM, origin: platform.url, cookie: `${LTI_STATE_COOKIE}=${stateCookie}`, accept },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** A whole launch: the tool's answer (a redirect when it signed the user in). */
  async function launchAs(loginHint: string) {
    const started = await startLaunch(loginHint);
    return postForm(started.action, started.fields, started.stateCookie);
  }

  /** The session the answer's cookie holds: its token (usable as a bearer) and user. */
  async function sessionOf(answer: { setCookies: string[] }) {
    const token = findSetCookie(answer.setCookies, SESSION_COOKIE_NAME)!.value;
    const session = await app.api('GET', '/auth/session', { token });
    return { token, user: session.body.user as { id: number } };
  }

  return { startLaunch, postForm, launchAs, sessionOf };
}
