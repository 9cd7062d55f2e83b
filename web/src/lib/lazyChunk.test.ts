import { Suspense, createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyChunk } from './lazyChunk';

const Page = () => createElement('h1', null, 'The page');
const screen = (Component: React.ComponentType) => renderToString(createElement(Suspense, { fallback: 'Loading...' }, createElement(Component)));

describe('lazyChunk', () => {
  it('shows the spinner while the chunk has not been loaded', () => {
    const chunk = lazyChunk(() => Promise.resolve({ default: Page }));
    expect(screen(chunk.Component)).toContain('Loading...');
  });

  it('renders a preloaded page in the same pass as its parent, without the spinner', async () => {
    let loads = 0;
    const chunk = lazyChunk(() => {
      loads += 1;
      return Promise.resolve({ default: Page });
    });
    await chunk.preload();
    await chunk.preload();
    const html = screen(chunk.Component);
    expect(html).toContain('The page');
    expect(html).not.toContain('Loading...');
    expect(loads).toBe(1);
  });

  it('asks again for a chunk that failed to load', async () => {
    let loads = 0;
    const chunk = lazyChunk(() => {
      loads += 1;
      return loads === 1 ? Promise.reject(new Error('network blip')) : Promise.resolve({ default: Page });
    });
    await expect(chunk.preload()).rejects.toThrow('network blip');
    await chunk.preload();
    expect(screen(chunk.Component)).toContain('The page');
  });
});
