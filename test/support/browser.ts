/**
 * Debian's Chromium, driven by playwright-core. The browser is a real part of the tests:
 * where it is not installed they are skipped locally, and CI (RAMP_REQUIRE_BROWSER=1)
 * fails instead of skipping.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const browserAvailable = existsSync(chromiumPath);

if (!browserAvailable && process.env.RAMP_REQUIRE_BROWSER === '1') {
  throw new Error(`RAMP_REQUIRE_BROWSER=1 but there is no Chromium at ${chromiumPath}`);
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export const artifactsDir = join(import.meta.dirname, '..', '..', 'test-results');
