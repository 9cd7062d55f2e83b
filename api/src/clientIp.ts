import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from '@marketcraft/db/logger.ts';
import { isIPv6 } from 'node:net';
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

/** Headers a reverse proxy adds to the requests it relays. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * Whether a reverse proxy that TRUST_PROXY_HOPS does not declare relayed the request (0, yet it
 * carries a forwarding header): its socket address is then the proxy's, often this machine's
 * (nginx, Caddy or Apache on the same host), not the person's. The local-password admin rule
 * (admins.ts) must not take such a request for the operator at the console.
 */
export function relayedByUndeclaredProxy(c: Context, trustedProxyHops = 0): boolean {
  return trustedProxyHops === 0 && FORWARDING_HEADERS.some((name) => c.req.header(name) !== undefined);
}

export const UNDECLARED_PROXY_WARNING =
  "Requests come through a reverse proxy (they carry X-Forwarded-For, Forwarded or X-Real-IP) but TRUST_PROXY_HOPS is 0: every per-address rule (sign-in and sign-up throttles, early-bird bonuses, join-code guessing, realtime streams) sees the proxy's address for everyone. Set TRUST_PROXY_HOPS to the number of proxies in front of the API (README).";

/**
 * Logs UNDECLARED_PROXY_WARNING once per process, at the first request relayed by an undeclared
 * proxy: the operator learns of the misconfiguration from the log instead of from players locked
 * out together or from a flood that no per-address limit stops.
 */
export function warnOfUndeclaredProxy(logger: Logger, trustedProxyHops: number): MiddlewareHandler {
  let warned = false;
  return async (c, next) => {
    if (!warned && relayedByUndeclaredProxy(c, trustedProxyHops)) {
      warned = true;
      logger.warn({ header: FORWARDING_HEADERS.find((name) => c.req.header(name) !== undefined) }, UNDECLARED_PROXY_WARNING);
    }
    await next();
  };
}

/**
 * The address a sign-up's early-bird bonus is counted against (EARLY_BIRD_PER_ADDRESS): an IPv4
 * address as it is (also when written IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address by its
 * /64 network (one household or machine usually holds a whole /64, so counting single IPv6
 * addresses would count nothing).
 */
export function signupAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Whether `ip` is the machine the game runs on (127.0.0.0/8, ::1, or 127.x written IPv4-mapped):
 * its operator, its tests and its drills. Behind a reverse proxy every request comes from the
 * proxy unless TRUST_PROXY_HOPS says how many to look through (docs/auth.md).
 */
export function isLoopbackAddress(ip: string): boolean {
  return ip === '::1' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/i.test(ip);
}
