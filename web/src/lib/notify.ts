/** Toasts (spec section 8): errors in destructive style (red), successes in green. */
import { notifications } from '@mantine/notifications';
import { errorMessage } from './errors';

export function notifySuccess(title: string, message?: string): void {
  notifications.show({ title, message: message ?? '', color: 'green', withBorder: true });
}

/** The toast each key showed last (notifyLatest). */
const latestToasts = new Map<string, string>();

/** Shown before the ordinary toasts (Mantine sorts the queue by priority, then by age). */
const LATEST_PRIORITY = 1;

/**
 * A success that supersedes the previous one of its kind (`key`) and shows at once: with one toast
 * on screen at a time, a second 'Turn complete' would wait behind the first (or behind any other
 * toast) and show an older week than the page does. The older one is closed; a toast of another
 * kind on screen steps back into the queue and shows after it.
 */
export function notifyLatest(key: string, title: string, message: string): void {
  const previous = latestToasts.get(key);
  if (previous) notifications.hide(previous);
  latestToasts.set(key, notifications.show({ title, message, color: 'green', withBorder: true, priority: LATEST_PRIORITY }));
}

export function notifyError(title: string, message: string): void {
  notifications.show({ title, message, color: 'red', withBorder: true, role: 'alert' } as Parameters<typeof notifications.show>[0]);
}

/** A failed mutation: the server's message, or the spec's fallback text for that situation. */
export function notifyFailure(title: string, error: unknown, fallback: string): void {
  notifyError(title, errorMessage(error, fallback));
}
