/**
 * Whether an error means "the database cannot be reached right now" (down, restarting, out of
 * connections, network gone) rather than a fault of the request or of our code. The API answers
 * those 503 with Retry-After instead of 500; the health check reports them.
 *
 * postgres.js reports a refused or lost connection with a Node error code (ECONNREFUSED, ...) or
 * its own (CONNECTION_CLOSED, CONNECT_TIMEOUT, ...); a server that is shutting down or starting
 * answers SQLSTATE 57P01-57P03, a full server 53300, and class 08 is "connection exception".
 * drizzle wraps the driver's error as `cause`, so the whole chain is searched.
 */
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_NODE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    pending.push((current as { cause?: unknown }).cause);
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return false;
}
