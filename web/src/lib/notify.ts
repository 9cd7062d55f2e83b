/** Toasts (spec section 8): errors in destructive style (red), successes in green. */
import { notifications } from '@mantine/notifications';
import { errorMessage } from './errors';

export function notifySuccess(title: string, message?: string): void {
  notifications.show({ title, message: message ?? '', color: 'green', withBorder: true });
}

export function notifyError(title: string, message: string): void {
  notifications.show({ title, message, color: 'red', withBorder: true, role: 'alert' } as Parameters<typeof notifications.show>[0]);
}

/** A failed mutation: the server's message, or the spec's fallback text for that situation. */
export function notifyFailure(title: string, error: unknown, fallback: string): void {
  notifyError(title, errorMessage(error, fallback));
}

export function notifyInfo(title: string, message: string): void {
  notifications.show({ title, message, color: 'blue', withBorder: true });
}
