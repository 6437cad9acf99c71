/**
 * The API reference as the sandbox serves it at /docs (getDocumentation, getDocumentationPage):
 * public in both environments, under the console's security headers with the policy Redoc
 * needs; and in a real Chromium with that policy on, each page renders and works (no
 * refusal, no script error, nothing from another origin), shows its surface's operations, and
 * axe-core finds no serious or critical violation, in the light and the dark theme.
 */
import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser, seriousAxeViolations } from '../support/browser.ts';
import { loadBundle, operationsOf, surfaces, type Surface } from '../support/documents.ts';
import { expectProblem } from '../support/errors.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { testBudget, waitBudget } from '../support/wait.ts';

/** A CSP as its directives: name → value. */
const directives = (csp: string | null) => new Map((csp ?? '').split(';').map((d) => d.trim().split(/\s+(.*)/s).slice(0, 2) as [string, string]));

/** The directives the documentation's policy sets otherwise than the console's (DocumentationContentSecurityPolicy.yaml). */
const redocNeeds = ['script-src', 'style-src', 'img-src', 'font-src'];

let server: TestServer;
let consoleCsp: Map<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  const page = await fetch(`${server.url}/sandbox/console`);
  consoleCsp = directives(page.headers.get('content-security-policy'));
}, testBudget);
afterAll(() => server?.close());

/** Checks the headers the console's page has, and the policy: the console's, but for what Redoc needs. */
function expectConsoleHeaders(response: Response, html: string) {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  const csp = directives(response.headers.get('content-security-policy'));
  for (const [name, value] of consoleCsp) if (!redocNeeds.includes(name)) expect(csp.get(name), name).toBe(value);
  expect([...csp.keys()].filter((name) => !consoleCsp.has(name))).toEqual(['font-src']);
  expect(csp.get('style-src')).toBe("'unsafe-inline'");
  // Exactly the page's own inline scripts, by hash: nothing else may run.
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  expect(csp.get('script-src')).toBe(inline.length > 0 ? inline.join(' ') : "'none'");
}

describe('the documentation at /docs', () => {
  it('lists the four surfaces, each a page served without a key', async () => {
    const index = await server.as(null).GET('/docs', { parseAs: 'text' });
    expectConsoleHeaders(index.response, index.data ?? '');
    const links = [...(index.data ?? '').matchAll(/href="(\/docs\/[a-z0-9]+)"/g)].map((m) => m[1]);
    expect(links).toEqual(['/docs/v1', '/docs/v2', '/docs/lookup', '/docs/auth']);
    for (const surface of surfaces) {
      const page = await server.as(null).GET('/docs/{page}', { params: { path: { page: surface } }, parseAs: 'text' });
      expectConsoleHeaders(page.response, page.data ?? '');
      expect(page.data).toContain(`<title>${loadBundle(surface).info.title}</title>`);
    }
  });

  it('answers 400 invalid-request for a page that is not a surface', async () => {
    expectProblem(await server.sendRaw('GET', '/docs/v3', { key: null }), 400, 'invalid-request');
  });

  it('is served in production too, as public documentation', async () => {
    const production = await startTestServer({ env: { RAMP_ENV: 'production', RAMP_APP_URL: 'https://app.ramp.example' } });
    try {
      for (const path of ['/docs', '/docs/v2']) {
        const response = await fetch(`${production.url}${path}`);
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).toContain('Ramp API');
      }
    } finally {
      await production.close();
    }
  }, testBudget);
});

describe.skipIf(!browserAvailable)('the documentation in Chromium, with its policy on', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  /** A page that records what a reader should never meet: a refusal of the policy, a script error, another origin. */
  async function open(path: string, colorScheme: 'light' | 'dark' = 'light') {
    const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) problems.push(`request to ${request.url()}`);
    });
    page.on('console', (message) => {
      // The browser asks for /favicon.ico by itself; the pages name no icon.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) problems.push(message.text().slice(0, 300));
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${server.url}${path}`);
    return { context, page, problems };
  }

  /**
   * Redoc's script ran (the policy admitted it): the server-rendered markup has the menu but
   * no operation, so an operation's section showing on its route proves it.
   */
  async function rendered(page: Page, surface: Surface) {
    const { operation, path } = operationsOf(loadBundle(surface)).find(({ webhook }) => !webhook)!;
    const route = `${operation.tags[0].toLowerCase().replaceAll(' ', '-')}/${operation.operationId.toLowerCase()}`;
    await page.locator('[data-component-name="Menu/Menu"]').first().waitFor({ timeout: waitBudget });
    await page.evaluate((hash) => { location.hash = hash; }, `#/${route}`);
    const section = page.locator(`[id="${route}"]`);
    await section.getByText(path, { exact: false }).first().waitFor({ timeout: waitBudget });
    await section.getByText(operation.summary, { exact: true }).first().waitFor({ timeout: waitBudget });
  }

  it('opens the landing page and follows its link to a surface', { timeout: testBudget }, async () => {
    const { context, page, problems } = await open('/docs');
    try {
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'Ramp API v2' }).click();
      await page.waitForURL(`${server.url}/docs/v2`, { timeout: waitBudget });
      await rendered(page, 'v2');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const surface of surfaces) {
    it(`/docs/${surface} renders, shows its operations and is clean for axe`, { timeout: testBudget }, async () => {
      const operations = operationsOf(loadBundle(surface));
      for (const colorScheme of ['light', 'dark'] as const) {
        const { context, page, problems } = await open(`/docs/${surface}`, colorScheme);
        try {
          // An operation opened on its route shows its path and summary, and every tag is in the menu.
          await rendered(page, surface);
          const menu = page.locator('[data-component-name="Menu/Menu"]').first();
          for (const tag of new Set(operations.flatMap(({ operation }) => operation.tags ?? []))) {
            await menu.getByText(tag, { exact: true }).last().waitFor({ timeout: waitBudget });
          }
          expect(await seriousAxeViolations(page), `${surface} (${colorScheme})`).toEqual([]);
          expect(problems, `${surface} (${colorScheme})`).toEqual([]);
        } finally {
          await context.close();
        }
      }
    });
  }
});
