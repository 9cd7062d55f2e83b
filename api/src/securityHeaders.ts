/**
 * Security headers on every answer (HTML, assets and API), from Hono's maintained `secureHeaders`
 * middleware, with a Content-Security-Policy the app passes:
 *
 * - scripts only from our own origin: the Vite bundle, /color-scheme.js and /api/docs.js are files,
 *   never inline, and nothing evaluates strings;
 * - styles from our origin and inline: Mantine writes its CSS variables in <style> tags and
 *   components set style attributes at run time (a nonce would turn 'unsafe-inline' off);
 * - images from our origin and data: URLs (icons), connections to our origin only (tRPC, REST,
 *   the realtime event stream); no plugins, no <base> tricks, forms post to us only;
 * - no framing by anyone (frame-ancestors 'none' and X-Frame-Options DENY: clickjacking).
 *
 * Referrer-Policy is 'strict-origin-when-cross-origin', not Hono's 'no-referrer': with no-referrer
 * browsers send `Origin: null` on same-origin POSTs, and the API's origin check would refuse the
 * app's own mutations.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { fixedHeaders } from './fixedHeaders.ts';

const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The security headers on every answer: secureHeaders' own values, decided once (api/src/fixedHeaders.ts). */
export function securityHeaders(): MiddlewareHandler {
  return fixedHeaders(secureHeaderRules());
}

function secureHeaderRules(): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
    // Google's sign-in returns by redirect, not a popup: the page may keep its own browsing context group.
    crossOriginOpenerPolicy: 'same-origin',
    // Scripts on other origins read the API with their own HTTP client, never from a page.
    crossOriginResourcePolicy: 'same-origin',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
  });
}
