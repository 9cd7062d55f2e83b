import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { errorMessage } from '../lib/errors';

/** A read that failed: the server's message and a retry button. */
export function QueryError({ error, onRetry, title = 'Could not load this' }: { error: unknown; onRetry?: () => void; title?: string }) {
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertTriangle aria-hidden />}>
      {errorMessage(error, 'Something went wrong. Please try again.')}
      {onRetry && (
        <div>
          <Button mt="sm" size="xs" variant="light" color="red" onClick={onRetry}>
            Try again
          </Button>
        </div>
      )}
    </Alert>
  );
}
