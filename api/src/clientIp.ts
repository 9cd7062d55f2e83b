import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * The caller's address, used to throttle sign-in attempts per address.
 * With `trustedProxyHops` = 0 (the default) it is the socket's peer and no header is believed.
 * Behind N reverse proxies (TRUST_PROXY_HOPS=N) it is the address the outermost trusted proxy saw:
 * the N-th entry of X-Forwarded-For counted from the right (entries further left are
 * client-controlled and ignored).
 */
export function clientIpOf(c: Context, trustedProxyHops = 0): string {
  if (trustedProxyHops > 0) {
    const forwarded = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const address = forwarded[forwarded.length - trustedProxyHops];
    if (address) return address;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
