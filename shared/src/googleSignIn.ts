/**
 * What Google sign-in's callback tells the sign-in page when it fails: it redirects to
 * `/?auth_error=<text>` and the page shows the text in its red box (spec: 'error message or
 * "Google authentication failed"'). The address is anybody's to write, so a link to
 * `/?auth_error=Your account is locked: call ...` would put an attacker's words in our red box on
 * our sign-in page. So the page shows only these texts (googleRedirectMessage); the server sends
 * only these (anything else as GOOGLE_FAILED_MESSAGE).
 */
import { SIGNUP_THROTTLE_MESSAGE } from './constants.ts';

export const GOOGLE_STATE_MISMATCH_MESSAGE = 'Google sign-in expired or was started in another browser. Please try again.';
export const GOOGLE_FAILED_MESSAGE = 'Google authentication failed. Please try again.';
export const GOOGLE_CANCELLED_MESSAGE = 'Google sign-in was cancelled';
export const GOOGLE_UNVERIFIED_EMAIL_MESSAGE = 'Your Google account has no verified email address, so it cannot be used to sign in here';
export const GOOGLE_RETRY_MESSAGE = 'Sign-in could not finish because the account changed at the same time. Please try again.';

const GOOGLE_REDIRECT_MESSAGES: ReadonlySet<string> = new Set([
  GOOGLE_STATE_MISMATCH_MESSAGE,
  GOOGLE_FAILED_MESSAGE,
  GOOGLE_CANCELLED_MESSAGE,
  GOOGLE_UNVERIFIED_EMAIL_MESSAGE,
  GOOGLE_RETRY_MESSAGE,
  SIGNUP_THROTTLE_MESSAGE,
]);

/** The text of an `auth_error` the sign-in page may show, or null for anything it did not come from us. */
export function googleRedirectMessage(text: string | null): string | null {
  return text !== null && GOOGLE_REDIRECT_MESSAGES.has(text) ? text : null;
}
