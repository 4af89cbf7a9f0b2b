/**
 * Debian's Chromium driven by playwright-core (INFRA.md: `apt-get install chromium`; .ci/run installs
 * it), headless, with a fresh profile; and where screenshots go (test-artifacts/, kept by CI).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ROOT } from './stacks';

export const CHROMIUM = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The path of a screenshot named `name`, its folder created. */
export function artifactPath(name: string): string {
  const dir = join(ROOT, 'test-artifacts');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
