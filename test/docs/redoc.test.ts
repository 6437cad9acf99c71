/** The Redoc pages open offline in a real Chromium and show every operation and webhook. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, browserAvailable, launchBrowser } from '../support/browser.ts';
import { loadBundle, operationsOf, root, surfaces } from '../support/documents.ts';

describe.skipIf(!browserAvailable)('the Redoc pages', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    mkdirSync(artifactsDir, { recursive: true });
  }, 60_000);
  afterAll(async () => browser?.close());

  for (const surface of surfaces) {
    it(`${surface}.html renders offline with every operation`, { timeout: 90_000 }, async () => {
      const page = await browser.newPage();
      const external: string[] = [];
      // Offline means offline: any request that leaves the file is recorded and refused.
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
        external.push(url);
        return route.abort();
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(pathToFileURL(join(root, 'generated', 'docs', `${surface}.html`)).href);
      const operations = operationsOf(loadBundle(surface));
      await page.waitForFunction(
        (count) => document.querySelectorAll('[data-section-id^="operation/"], [data-section-id^="webhook/"]').length >= count,
        operations.length,
        { timeout: 60_000 },
      );
      const text = await page.locator('body').innerText();
      for (const { operation } of operations) expect(text, operation.operationId).toContain(operation.summary);
      await page.screenshot({ path: join(artifactsDir, `redoc-${surface}.png`) });
      expect(errors).toEqual([]);
      expect(external.filter((url) => !url.includes('fonts.'))).toEqual([]);
      await page.close();
    });
  }
});
