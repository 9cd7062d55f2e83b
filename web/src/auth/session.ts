/** The signed-in user: GET /api/auth/session, and the sign-in, sign-up and sign-out calls. */
import { useQuery, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { AuthProviders, AuthUser } from '@marketcraft/shared';
import { requestJson } from '../lib/http';

export const SESSION_QUERY_KEY = ['auth', 'session'] as const;

export interface SessionAnswer {
  user: AuthUser | null;
}

/** The answer asked for at start-up, handed to the session query's first call. */
let startupAnswer: Promise<SessionAnswer> | null = null;

function fetchSession(): Promise<SessionAnswer> {
  const early = startupAnswer;
  startupAnswer = null;
  return early ?? requestJson<SessionAnswer>('GET', '/api/auth/session');
}

/**
 * Asks for the session as the app's script starts (main.tsx), before React's first render, and calls
 * `then` with the answer: the chunk of what will show first (the sign-in page or the player's page)
 * starts loading at once rather than after the first render, a long task on a slow phone. index.html
 * preloads this same request, so the answer is usually here already. A failure is left to the
 * session query, whose first call receives this request (and shows its error).
 */
export function askSessionAtStart(then: (answer: SessionAnswer) => void): void {
  startupAnswer = requestJson<SessionAnswer>('GET', '/api/auth/session');
  startupAnswer.then(then, () => undefined);
}

export function useSession(): UseQueryResult<SessionAnswer> {
  return useQuery({ queryKey: SESSION_QUERY_KEY, queryFn: fetchSession });
}

export function fetchProviders(): Promise<AuthProviders> {
  return requestJson<AuthProviders>('GET', '/api/auth/providers');
}

export interface Credentials {
  email: string;
  password: string;
}

export function signIn(credentials: Credentials): Promise<{ user: AuthUser }> {
  return requestJson('POST', '/api/auth/signin', credentials);
}

export function signUp(credentials: Credentials): Promise<{ user: AuthUser }> {
  return requestJson('POST', '/api/auth/signup', credentials);
}

export function signOut(): Promise<{ ok: boolean }> {
  return requestJson('POST', '/api/auth/signout');
}

/**
 * Switches the app to a new session state: the session query answers `user` (which swaps the
 * sign-in screen and the layout), and every other cached answer, which belonged to the previous
 * user, is dropped. The session query itself is kept (its observer must see the change).
 */
export function applySession(queryClient: QueryClient, user: AuthUser | null): void {
  queryClient.setQueryData<SessionAnswer>(SESSION_QUERY_KEY, { user });
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] || query.queryKey[1] !== SESSION_QUERY_KEY[1] });
}
