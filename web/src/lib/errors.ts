import { TRPCClientError } from '@trpc/client';

/** The message a player reads for a failed call: the server's message when it sent one. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message.trim()) {
    // Network failures in browsers read "Failed to fetch"; that is no help to a player.
    if (error.message === 'Failed to fetch' || error.message === 'NetworkError when attempting to fetch resource.') return fallback;
    return error.message;
  }
  return fallback;
}

export function isUnauthorized(error: unknown): boolean {
  if (error instanceof TRPCClientError) {
    const data = error.data as { code?: string; httpStatus?: number } | undefined;
    return data?.code === 'UNAUTHORIZED' || data?.httpStatus === 401;
  }
  return false;
}

/** "No company found": the player has no active company (e.g. after bankruptcy). */
export function isNotFound(error: unknown): boolean {
  if (error instanceof TRPCClientError) {
    const data = error.data as { code?: string } | undefined;
    return data?.code === 'NOT_FOUND';
  }
  return false;
}
