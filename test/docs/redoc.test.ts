/**
 * The Redoc pages open offline in a real Chromium and show every operation and webhook, each
 * with its path, parameters, responses and deprecation, and an operation's code samples in the
 * five languages of redocly.yaml.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { artifactsDir, browserAvailable, launchBrowser } from '../support/browser.ts';
import { testBudget, waitBudget } from '../support/wait.ts';
import { deref, loadBundle, operationsOf, root, surfaces, type Json } from '../support/documents.ts';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Opens a tag of Redoc's sidebar until `entry`, one of its operations, shows. The tag's name
 * toggles it, and one may be opening already (the one shown first) while its entries are not
 * yet visible: a click then closes it, so this clicks again until the entry shows.
 */
async function openTag(menu: Locator, tag: string, entry: Locator): Promise<void> {
  await vi.waitFor(
    async () => {
      // `.last()`: after any same-named heading of the description.
      if (!(await entry.isVisible())) await menu.getByText(tag, { exact: true }).last().click();
      // One attempt's wait, not the test's: an attempt that ends here clicks again, within waitBudget.
      await entry.waitFor({ state: 'visible', timeout: 2_000 });
    },
    { timeout: waitBudget, interval: 100 },
  );
}

describe.skipIf(!browserAvailable)('the Redoc pages', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    mkdirSync(artifactsDir, { recursive: true });
  });
  afterAll(async () => browser?.close());

  for (const surface of surfaces) {
    it(`${surface}.html renders offline with every operation`, { timeout: testBudget }, async () => {
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
      // Redoc 3 shows one tag at a time: open every tag of the sidebar in turn; every
      // operation and webhook must be listed by its summary.
      const tags = [...new Set(operations.flatMap(({ operation }) => operation.tags ?? []))];
      const menu = page.locator('[data-component-name="Menu/Menu"]').first();
      await menu.getByText(tags[0]!, { exact: true }).last().waitFor({ timeout: waitBudget });
      let text = '';
      for (const tag of tags) {
        const first = menu.getByText(operations.find(({ operation }) => operation.tags?.includes(tag))!.operation.summary, { exact: true }).first();
        await openTag(menu, tag, first);
        // Opening a tag may close the others: read the menu while this one is open.
        text += await menu.innerText();
      }
      for (const { operation } of operations) expect(text, operation.operationId).toContain(operation.summary);
      // The generated TypeScript samples travel inside the page, and opening an operation
      // shows its sample (Redoc lists only the languages redocly.yaml names).
      expect(await page.content()).toContain('createRampClient');
      // An operation of the tag left open, so its menu entry is already shown.
      const withSample = operations.filter(({ webhook, operation }) => !webhook && operation['x-codeSamples']);
      const target = withSample.find(({ operation }) => operation.tags?.includes(tags.at(-1))) ?? withSample[0]!;
      const entry = menu.getByText(target.operation.summary, { exact: true }).first();
      await openTag(menu, target.operation.tags[0], entry);
      await entry.scrollIntoViewIfNeeded({ timeout: waitBudget });
      await entry.click({ timeout: waitBudget });
      // Every language of redocly.yaml is offered by the samples panel's language menu, and each
      // shows its own sample: the TypeScript one calls the operation's path with the client.
      const panel = page.locator('.panel-request-samples').first();
      const samples = target.operation['x-codeSamples'] as { lang: string; label: string; source: string }[];
      expect(samples.map((s) => s.lang).sort()).toEqual(['Go', 'Java', 'Python', 'Shell', 'TypeScript']);
      const languageMenu = panel.getByRole('button', { name: new RegExp(`^(${samples.map((s) => escape(s.label)).join('|')})$`) });
      const call = target.operation.operationId === 'createToken' ? 'exchangeJwt' : `ramp.${target.method.toUpperCase()}('${target.path}'`;
      for (const { lang, label, source } of samples) {
        await languageMenu.click({ timeout: waitBudget });
        await page.getByRole('menuitem', { name: label, exact: true }).click({ timeout: waitBudget });
        const opening = source.split('\n').find((line) => line.trim() && !/^(#|\/\/)/.test(line))!.trim();
        const shown = panel.locator('pre').filter({ hasText: opening });
        await (lang === 'TypeScript' ? shown.filter({ hasText: call }) : shown).first().waitFor({ state: 'visible', timeout: waitBudget });
      }
      await page.screenshot({ path: join(artifactsDir, `redoc-${surface}.png`) });
      expect(errors).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    });

    it(`${surface}.html shows each operation's path, parameters and responses`, { timeout: 2 * testBudget }, async () => {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(join(root, 'generated', 'docs', `${surface}.html`)).href);
      const bundle = loadBundle(surface);
      const operations = operationsOf(bundle);
      await page.locator('[data-component-name="Menu/Menu"]').first().waitFor({ timeout: waitBudget });
      for (const { operation, path, webhook } of operations) {
        // Redoc 3 routes to an operation at #/<tag slug>/<operationId in lower case>.
        const route = `#/${operation.tags[0].toLowerCase().replaceAll(' ', '-')}/${operation.operationId.toLowerCase()}`;
        await page.evaluate((hash) => { location.hash = hash; }, route);
        const where = `${operation.operationId} at ${route}`;
        const parameters = [...(bundle.paths?.[path]?.parameters ?? []), ...(operation.parameters ?? [])].map((p: Json) => deref(bundle, p));
        const shown: [string, RegExp][] = [
          ['its path', new RegExp(escape(webhook ?? path))],
          ...parameters.filter((p) => p.in !== 'header').map((p): [string, RegExp] => [`parameter ${p.name}`, new RegExp(escape(p.name))]),
          ...Object.keys(operation.responses ?? {}).map((status): [string, RegExp] => [`response ${status}`, new RegExp(`(^|\\s)${status}(\\s|$)`, 'm')]),
          ...(operation.deprecated ? [['its deprecation', /Deprecated/] as [string, RegExp]] : []),
        ];
        // Redoc renders the route asynchronously: read the operation's own section (the element
        // whose id is the route) until it shows everything, or the wait budget runs out.
        let text = '';
        for (const until = Date.now() + waitBudget; Date.now() < until; await page.waitForTimeout(100)) {
          text = await page.evaluate((id) => (document.getElementById(id) as HTMLElement | null)?.innerText ?? '', route.slice(2));
          if (shown.every(([, pattern]) => pattern.test(text))) break;
        }
        for (const [what, pattern] of shown) expect(text, `${where}: ${what}`).toMatch(pattern);
      }
      await page.close();
    });
  }
});
