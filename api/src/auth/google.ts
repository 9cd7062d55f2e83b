/**
 * Google sign-in, the one module that knows the OAuth library (arctic 3), so it can be swapped.
 * Authorization code flow with PKCE (S256) through arctic's generic OAuth2Client, pointed at
 * Google's endpoints or, when GOOGLE_AUTHORIZATION_URL / GOOGLE_TOKEN_URL are set, at others (the
 * tests' local fake provider). The ID token comes straight from the token endpoint over the
 * back channel, so its claims are read without checking the signature (OpenID Connect Core
 * 3.1.3.7); the audience must still be our client id.
 */
import { CodeChallengeMethod, OAuth2Client, decodeIdToken, generateCodeVerifier, generateState } from 'arctic';
import { z } from 'zod';
import { googleSignInEnabled, type ApiConfig } from '../config.ts';

const GOOGLE_AUTHORIZATION_ENDPOINT = 'https://accounts.google.com/o/oauth2/v2/auth';
const GOOGLE_TOKEN_ENDPOINT = 'https://oauth2.googleapis.com/token';
const GOOGLE_SCOPES = ['openid', 'email', 'profile'];
const GOOGLE_CALLBACK_PATH = '/api/auth/google/callback';

interface GoogleIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
}

export interface GoogleSignIn {
  /** A fresh state and PKCE code verifier to keep in cookies, and where to send the browser. */
  start: () => { state: string; codeVerifier: string; authorizationUrl: URL };
  /** Exchanges the authorization code (with the verifier) and reads who signed in. */
  finish: (code: string, codeVerifier: string) => Promise<GoogleIdentity>;
}

const idTokenClaimsSchema = z.object({
  sub: z.string().min(1),
  aud: z.union([z.string(), z.array(z.string())]),
  email: z.string().optional(),
  // Google sends a boolean; very old tokens carried the string "true".
  email_verified: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
});

function googleRedirectUri(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${GOOGLE_CALLBACK_PATH}`;
}

/** The Google sign-in of this server, or null when it is not configured. */
export function createGoogleSignIn(config: ApiConfig): GoogleSignIn | null {
  if (!googleSignInEnabled(config) || !config.GOOGLE_CLIENT_ID || !config.GOOGLE_CLIENT_SECRET || !config.PUBLIC_URL) return null;
  const clientId = config.GOOGLE_CLIENT_ID;
  const client = new OAuth2Client(clientId, config.GOOGLE_CLIENT_SECRET, googleRedirectUri(config.PUBLIC_URL));
  const authorizationEndpoint = config.GOOGLE_AUTHORIZATION_URL ?? GOOGLE_AUTHORIZATION_ENDPOINT;
  const tokenEndpoint = config.GOOGLE_TOKEN_URL ?? GOOGLE_TOKEN_ENDPOINT;
  return {
    start() {
      const state = generateState();
      const codeVerifier = generateCodeVerifier();
      const authorizationUrl = client.createAuthorizationURLWithPKCE(authorizationEndpoint, state, CodeChallengeMethod.S256, codeVerifier, GOOGLE_SCOPES);
      return { state, codeVerifier, authorizationUrl };
    },
    async finish(code, codeVerifier) {
      const tokens = await client.validateAuthorizationCode(tokenEndpoint, code, codeVerifier);
      const claims = idTokenClaimsSchema.parse(decodeIdToken(tokens.idToken()));
      const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
      if (!audiences.includes(clientId)) throw new Error('The ID token was issued to another client.');
      return {
        sub: claims.sub,
        email: claims.email ?? null,
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
      };
    },
  };
}
