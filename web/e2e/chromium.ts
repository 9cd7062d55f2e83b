/**
 * Which Chromium the journeys drive, resolved once per run (globalSetup) and handed to the tests:
 *
 * 1. `CHROMIUM_PATH`, when set (an operator's own browser);
 * 2. Debian's Chromium at /usr/bin/chromium, when installed;
 * 3. otherwise the Chromium binary that the npm package `@sparticuz/chromium` ships (a devDependency,
 *    so `npm ci` installs it like any other package: no download script, no browser fetched by a
 *    test tool). It is unpacked once into the temp folder and launched with playwright-core.
 *
 * So `npm ci && npm test` passes on a machine that has only Node.
 */
import { existsSync } from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export type ChromiumSource = 'CHROMIUM_PATH' | 'debian' | '@sparticuz/chromium';

export async function resolveChromium(env: NodeJS.ProcessEnv = process.env): Promise<{ path: string; source: ChromiumSource }> {
  if (env.CHROMIUM_PATH) return { path: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' };
  if (existsSync(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM, source: 'debian' };
  return { path: await packagedChromiumPath(), source: '@sparticuz/chromium' };
}

/** The Chromium binary of the npm package, unpacked (once) into the temp folder. */
export async function packagedChromiumPath(): Promise<string> {
  const { default: packagedChromium } = await import('@sparticuz/chromium');
  return packagedChromium.executablePath();
}
