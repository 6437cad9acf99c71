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

/**
 * axe-core's serious and critical violations on the page as it stands, one line each
 * (rule, impact, the first elements). axe is read from node_modules and evaluated in the page
 * through the DevTools protocol: nothing is fetched, and the page's CSP (no inline script)
 * stays as it is.
 */
export async function seriousAxeViolations(page: import('playwright-core').Page): Promise<string[]> {
  const { readFileSync } = await import('node:fs');
  const { createRequire } = await import('node:module');
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(source);
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return results
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}
