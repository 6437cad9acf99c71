/**
 * The API reference as the sandbox serves it at /docs (getDocumentation, getDocumentationPage):
 * public in both environments, under the console's security headers with the policy Redoc
 * needs; and in a real Chromium with that policy on, each page renders and works (no
 * refusal, no script error, nothing from another origin), shows its surface's operations, and
 * axe-core finds no serious or critical violation, in the light and the dark theme.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import type { operations } from '../../generated/types/ramp.ts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser, seriousAxeViolations } from '../support/browser.ts';
import { loadBundle, operationsOf, root, surfaces, type Json, type Surface } from '../support/documents.ts';
import { codeSampleLanguage } from '../../scripts/code-samples.ts';
import { sampleLanguages } from '../../scripts/code-samples-languages.ts';
import { quickstartSteps } from '../../scripts/docs-quickstart.ts';
import { workflowSummaries } from '../../scripts/docs-workflows.ts';
import { expectProblem } from '../support/errors.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { testBudget, waitBudget } from '../support/wait.ts';

/** A CSP as its directives: name → value. */
const directives = (csp: string | null) => new Map((csp ?? '').split(';').map((d) => d.trim().split(/\s+(.*)/s).slice(0, 2) as [string, string]));

/** The directives the documentation's policy sets otherwise than the console's (DocumentationContentSecurityPolicy.yaml). */
const redocNeeds = ['script-src', 'style-src', 'img-src', 'font-src'];

type WorkflowId = operations['getDocumentationWorkflow']['parameters']['path']['workflow'];

/** The Arazzo workflows (openapi/workflows/), each with its steps in order: what their pages show. */
const workflows = readdirSync(join(root, 'openapi', 'workflows'))
  .filter((file) => file.endsWith('.arazzo.yaml'))
  .flatMap((file) => (parse(readFileSync(join(root, 'openapi', 'workflows', file), 'utf8')).workflows as Json[]).map((w) => ({ id: w.workflowId as WorkflowId, steps: w.steps as Json[] })));

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
    expect(links).toEqual(['/docs/v1', '/docs/v2', '/docs/lookup', '/docs/auth', '/docs/quickstart', '/docs/webhooks']);
    for (const surface of surfaces) {
      const page = await server.as(null).GET('/docs/{page}', { params: { path: { page: surface } }, parseAs: 'text' });
      expectConsoleHeaders(page.response, page.data ?? '');
      expect(page.data).toContain(`<title>${loadBundle(surface).info.title}</title>`);
    }
  });

  it('serves the quickstart without a key, under the same headers, its links made the served pages\'', async () => {
    const quickstart = await server.as(null).GET('/docs/{page}', { params: { path: { page: 'quickstart' } }, parseAs: 'text' });
    expectConsoleHeaders(quickstart.response, quickstart.data ?? '');
    expect(quickstart.data).not.toMatch(/href="\.\//);
    expect(quickstart.data).toContain('href="/docs/v1#/organizations/v1createorganization"');
  });

  it('serves a page per workflow and the webhook recipes without a key, under the same headers, every link served and landing', async () => {
    const index = (await server.as(null).GET('/docs', { parseAs: 'text' })).data ?? '';
    const operations = surfaces.flatMap((surface) => operationsOf(loadBundle(surface)).map(({ operation }) => `/docs/${surface}#/${operation.tags[0].toLowerCase().replaceAll(' ', '-')}/${operation.operationId.toLowerCase()}`));
    for (const { id, steps } of workflows) {
      expect(index).toContain(`href="/docs/workflows/${id}"`);
      const page = await server.as(null).GET('/docs/workflows/{workflow}', { params: { path: { workflow: id } }, parseAs: 'text' });
      const html = page.data ?? '';
      expectConsoleHeaders(page.response, html);
      // No script: the policy admits none.
      expect(directives(page.response.headers.get('content-security-policy')).get('script-src'), id).toBe("'none'");
      expect([...html.matchAll(/<h3 id="step-([^"]+)"/g)].map((m) => m[1]), id).toEqual(steps.map((step) => step.stepId));
      // Each step links its operation on its surface's page (an operation there) or the workflow it runs.
      const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
      expect(links.filter((link) => !link.startsWith('http')).every((link) => link === '/docs' || operations.includes(link) || workflows.some((w) => link === `/docs/workflows/${w.id}`)), `${id}: ${links.join(' ')}`).toBe(true);
      for (const step of steps) {
        const operationId = step.operationId?.split('.').at(-1);
        if (operationId) expect(links.some((link) => link.endsWith(`/${operationId.toLowerCase()}`)), `${id} ${step.stepId}`).toBe(true);
        else expect(links, `${id} ${step.stepId}`).toContain(`/docs/workflows/${step.workflowId.split('.').at(-1)}`);
      }
    }
    const recipes = await server.as(null).GET('/docs/{page}', { params: { path: { page: 'webhooks' } }, parseAs: 'text' });
    expectConsoleHeaders(recipes.response, recipes.data ?? '');
    expect(recipes.data).toContain('href="/docs"');
    expect(recipes.data).not.toMatch(/href="\.\.?\//);
    expectProblem(await server.sendRaw('GET', '/docs/workflows/v3Onramp', { key: null }), 400, 'invalid-request');
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

  it('a workflow page lists its steps in order, links each to its operation and is clean for axe', { timeout: testBudget }, async () => {
    for (const { id, steps } of workflows) {
      const { context, page, problems } = await open(`/docs/workflows/${id}`);
      try {
        expect(await page.locator('ol.steps > li h3').allTextContents(), id).toEqual(steps.map((step) => step.stepId));
        expect(await seriousAxeViolations(page), id).toEqual([]);
        expect(problems, id).toEqual([]);
      } finally {
        await context.close();
      }
    }
    // A step's link opens its operation on its surface's page; a workflow step's opens that workflow.
    const { context, page, problems } = await open('/docs/workflows/v2Onramp');
    try {
      await page.locator('#step-customer').locator('..').getByRole('link', { name: 'v2ApprovedCustomer' }).click();
      await page.waitForURL(`${server.url}/docs/workflows/v2ApprovedCustomer`, { timeout: waitBudget });
      await page.goBack();
      await page.locator('#step-order').locator('..').getByRole('link', { name: '/organization/{organizationId}/order' }).click();
      await page.waitForURL(`${server.url}/docs/v2#/orders/createorder`, { timeout: waitBudget });
      await page.locator('[id="orders/createorder"]').getByText('Create an order from a quote', { exact: true }).first().waitFor({ timeout: waitBudget });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the landing page searches every operation and webhook by keyboard, and a result opens its operation', { timeout: testBudget }, async () => {
    const { context, page, problems } = await open('/docs');
    try {
      const indexed = await page.evaluate(() => JSON.parse(document.getElementById('search-index')!.textContent!).length);
      expect(indexed).toBe(surfaces.reduce((n, surface) => n + operationsOf(loadBundle(surface)).length, 0));
      // Tab reaches the labelled field first; typing filters as one types.
      await page.keyboard.press('Tab');
      const search = page.getByRole('searchbox', { name: /operation, path, summary or tag/i });
      expect(await search.evaluate((element) => element === document.activeElement)).toBe(true);
      await page.keyboard.type('order');
      const result = page.locator('#search-results li').filter({ has: page.locator('code', { hasText: /^createOrder$/ }) });
      await result.waitFor({ timeout: waitBudget });
      await page.getByRole('status').getByText(/matches/).waitFor({ timeout: waitBudget });
      expect(await seriousAxeViolations(page)).toEqual([]);
      // A webhook is found too.
      await search.fill('orderUpdated');
      await page.locator('#search-results li').filter({ has: page.locator('code', { hasText: /^receiveOrderUpdated$/ }) }).waitFor({ timeout: waitBudget });
      await search.fill('order');
      await result.getByRole('link').focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`${server.url}/docs/v2#/orders/createorder`, { timeout: waitBudget });
      await page.locator('[id="orders/createorder"]').getByText('/organization/{organizationId}/order', { exact: false }).first().waitFor({ timeout: waitBudget });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the landing page and a workflow\'s open offline from generated/docs/, linking the files beside them', { timeout: testBudget }, async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const docs = pathToFileURL(join(root, 'generated', 'docs')).href;
      await page.goto(`${docs}/index.html`);
      await page.getByRole('searchbox').fill('order');
      const result = page.locator('#search-results li').filter({ has: page.locator('code', { hasText: /^createOrder$/ }) });
      expect(await result.getByRole('link').getAttribute('href')).toBe('./v2.html#/orders/createorder');
      await page.getByRole('link', { name: workflowSummaries()[0]!.workflows[0]!.summary }).click();
      await page.waitForURL(`${docs}/workflows/${workflowSummaries()[0]!.workflows[0]!.id}.html`, { timeout: waitBudget });
      const hrefs = await page.locator('ol.steps a').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
      expect(hrefs.length).toBeGreaterThan(0);
      for (const href of hrefs) expect(existsSync(fileURLToPath(href.replace(/#.*/, ''))), href).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('/docs/webhooks shows the rule and the four languages, each with its code as the repository has it, and is clean for axe', { timeout: testBudget }, async () => {
    const { context, page, problems } = await open('/docs/webhooks');
    try {
      const verifiers = { TypeScript: 'client/webhooks.ts', Python: 'samples/webhooks/python/verify_webhook.py', Go: 'samples/webhooks/go/webhook.go', Java: 'samples/webhooks/java/src/main/java/com/example/ramp/WebhookVerifier.java' };
      for (const [language, file] of Object.entries(verifiers)) {
        const section = page.locator('section').filter({ has: page.getByRole('heading', { level: 2, name: language, exact: true }) });
        expect(await section.locator('pre').first().textContent(), language).toBe(readFileSync(join(root, file), 'utf8'));
        await section.getByText('Why this library:').waitFor({ timeout: waitBudget });
      }
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('/docs/quickstart shows its steps, one language at a time chosen by keyboard, and is clean for axe', { timeout: testBudget }, async () => {
    const languages = [codeSampleLanguage, ...sampleLanguages];
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context, page, problems } = await open('/docs/quickstart', colorScheme);
      try {
        for (const step of quickstartSteps) await page.getByRole('heading', { name: step.title }).waitFor({ timeout: waitBudget });
        // The first language is chosen; each arrow key moves to the next, as a radio group does.
        await page.getByRole('radio', { name: languages[0]!.label }).focus();
        for (const [i, { lang, label }] of languages.entries()) {
          if (i > 0) await page.keyboard.press('ArrowRight');
          expect(await page.getByRole('radio', { name: label }).isChecked(), label).toBe(true);
          const shown = await page.locator('.sample').evaluateAll((samples) => samples.filter((s) => (s as HTMLElement).offsetParent !== null).map((s) => s.getAttribute('data-lang')));
          expect(shown, label).toEqual(quickstartSteps.map(() => lang));
          expect(await seriousAxeViolations(page), `quickstart in ${lang} (${colorScheme})`).toEqual([]);
        }
        expect(problems, colorScheme).toEqual([]);
      } finally {
        await context.close();
      }
    }
    // A step's link opens its operation on the surface's Redoc page.
    const { context, page, problems } = await open('/docs/quickstart');
    try {
      await page.locator('#create-the-order').getByRole('link', { name: 'createOrder' }).click();
      await page.waitForURL(`${server.url}/docs/v2#/orders/createorder`, { timeout: waitBudget });
      await page.locator('[id="orders/createorder"]').getByText('/organization/{organizationId}/order', { exact: false }).first().waitFor({ timeout: waitBudget });
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
