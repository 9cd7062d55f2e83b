/**
 * A lazy component whose chunk can be loaded ahead (before React first renders it). Once loaded,
 * the component renders in the same pass as its parent: React.lazy suspends on any promise, even a
 * settled one, and a suspended page shows its spinner for at least 300 ms (React's throttle) and
 * starts its reads after the layout's, a second round trip on a phone.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface LazyChunk<T extends ComponentType> {
  Component: LazyExoticComponent<T>;
  /** Starts loading the chunk (once). */
  preload: () => Promise<unknown>;
}

export function lazyChunk<T extends ComponentType>(load: () => Promise<{ default: T }>): LazyChunk<T> {
  let loaded: { default: T } | undefined;
  let loading: Promise<{ default: T }> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined; // a chunk that failed (a network blip) is asked for again next time
        throw error;
      },
    ));
  // React.lazy calls `then` on what this returns and, with the chunk here, is answered at once:
  // a thenable that calls back synchronously (React reads it as settled).
  const Component = lazy(() => (loaded ? ({ then: (resolve: (module: { default: T }) => void) => resolve(loaded!) } as Promise<{ default: T }>) : preload()));
  return { Component, preload };
}
