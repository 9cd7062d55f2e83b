/**
 * Catches a page that fails to render, so the header and menus stay usable. The usual cause in
 * production is a release: an open tab asks for a page chunk of the previous build, which no
 * longer exists; reloading fetches the new version.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert, Button, Group } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';

/** Browsers word a failed dynamic import differently; all of them mention the module import. */
function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to load module script/i.test(message);
}

interface State {
  error: unknown;
}

export class PageErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A page failed to render', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const updated = isChunkLoadError(error);
    return (
      <Alert
        color={updated ? 'blue' : 'red'}
        variant="light"
        icon={<IconAlertTriangle aria-hidden />}
        title={updated ? 'Marketcraft has been updated' : 'This page could not be shown'}
        role="alert"
      >
        {updated ? 'A new version of Marketcraft is available. Reload to continue.' : 'Something went wrong while showing this page. Reloading usually helps.'}
        <Group mt="sm" gap="xs">
          <Button size="xs" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => window.location.reload()}>
            Reload
          </Button>
          {!updated && (
            <Button size="xs" variant="default" onClick={() => this.setState({ error: null })}>
              Try again
            </Button>
          )}
        </Group>
      </Alert>
    );
  }
}
