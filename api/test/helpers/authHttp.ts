/**
 * Raw HTTP for the auth tests: full control over Cookie / Origin / Sec-Fetch-Site headers, every
 * Set-Cookie line, no redirect following, and an optional local source address (127.0.0.x) so a
 * test can sign in "from" different addresses.
 */
import http from 'node:http';

export interface RawResponse<T = any> {
  status: number;
  headers: http.IncomingHttpHeaders;
  setCookies: string[];
  body: T;
}

export function rawRequest<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; localAddress?: string } = {},
): Promise<RawResponse<T>> {
  const url = new URL(path, baseUrl);
  const payload = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress: options.localAddress, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, setCookies: response.headers['set-cookie'] ?? [], body: body as T });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    if (payload !== undefined) request.write(payload);
    request.end();
  });
}

/** The Set-Cookie line for `name`, split into its value and lowercased attributes. */
export function findSetCookie(setCookies: string[], name: string): { value: string; attributes: Map<string, string> } | null {
  for (const line of setCookies) {
    const [pair = '', ...rest] = line.split(';');
    const index = pair.indexOf('=');
    if (pair.slice(0, index).trim() !== name) continue;
    const attributes = new Map<string, string>();
    for (const part of rest) {
      const [key = '', ...value] = part.trim().split('=');
      attributes.set(key.toLowerCase(), value.join('='));
    }
    return { value: decodeURIComponent(pair.slice(index + 1).trim()), attributes };
  }
  return null;
}
