/**
 * Same-origin JSON requests to the REST and auth routes (the session cookie rides along).
 * A non-OK answer throws an Error whose message is the server's `{error}` text when it sent one,
 * otherwise "<status>: <body or status text>" (spec section 8's shared request helper).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly serverMessage: string | null;
  constructor(status: number, message: string, serverMessage: string | null) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

export async function requestJson<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const serverMessage =
      parsed && typeof parsed === 'object' && 'error' in parsed && typeof (parsed as { error: unknown }).error === 'string'
        ? (parsed as { error: string }).error
        : null;
    throw new HttpError(response.status, serverMessage ?? `${response.status}: ${text || response.statusText}`, serverMessage);
  }
  return parsed as T;
}
