import { describe, expect, it } from 'vitest';
import { GOOGLE_CANCELLED_MESSAGE, GOOGLE_UNVERIFIED_EMAIL_MESSAGE, googleRedirectMessage } from './googleSignIn.ts';
import { SIGNUP_THROTTLE_MESSAGE } from './constants.ts';

describe('the texts the sign-in page takes from ?auth_error=', () => {
  it("shows the callback's own messages", () => {
    for (const message of [GOOGLE_CANCELLED_MESSAGE, GOOGLE_UNVERIFIED_EMAIL_MESSAGE, SIGNUP_THROTTLE_MESSAGE])
      expect(googleRedirectMessage(message)).toBe(message);
  });

  it("never shows somebody else's words from a link (phishing in our red box)", () => {
    for (const planted of [
      'Your account is locked: call +1 555 0100 to unlock it',
      'Google authentication failed. Visit evil.example to continue',
      '',
      ' Google sign-in was cancelled.',
    ]) {
      expect(googleRedirectMessage(planted)).toBeNull();
    }
    expect(googleRedirectMessage(null)).toBeNull();
  });
});
