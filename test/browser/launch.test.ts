/**
 * The launch pages in a real Chromium. A partner site (a small node:http server on
 * 127.0.0.1) embeds the launch page, served by the test server on `localhost`, a different
 * origin and site, in an iframe and answers the postMessage handshake; or it form-POSTs to
 * `/auth/launch` at the top level. A third server plays another origin that frames the app
 * pages. Screenshots go to test-results/.
 */
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, browserAvailable, launchBrowser } from '../support/browser.ts';
import { jwtBearer, Partner } from '../support/partner.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { testBudget, waitBudget } from '../support/wait.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

describe.skipIf(!browserAvailable)('the launch pages in Chromium', () => {
  let server: TestServer;
  let partner: Partner;
  let browser: Browser;
  let site: Server;
  let appOrigin: string;
  let siteOrigin: string;
  let other: Server;
  let otherPort: number;

  /**
   * The partner's site. `/embed` frames the launch page and answers its request: first
   * `service:auth:await`, then (after fetching a JWT its server signs) the response.
   * `/form` is a plain HTML form POSTing a JWT to `/auth/launch`.
   */
  async function partnerSite(request: URL): Promise<{ type: string; body: string }> {
    const target = request.searchParams.get('target') ?? '/kyc';
    const scope = request.searchParams.get('scope') ?? 'kyc';
    if (request.pathname === '/assertion') {
      return { type: 'application/json', body: JSON.stringify({ assertion: await partner.sign({ scope }) }) };
    }
    if (request.pathname === '/form') {
      const fields = { grant_type: jwtBearer, assertion: await partner.sign({ scope }), target, return_url: `${siteOrigin}/wallet` };
      const inputs = Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`).join('');
      return { type: 'text/html', body: `<!doctype html><title>Partner wallet</title><h1>Partner wallet</h1><form method="post" action="${appOrigin}/auth/launch">${inputs}<button id="go">Verify my identity</button></form>` };
    }
    if (request.pathname === '/embed') {
      const mode = request.searchParams.get('mode') ?? 'answer';
      const script = `
        const app = ${JSON.stringify(appOrigin)};
        const mode = ${JSON.stringify(mode)};
        const sign = async () => (await (await fetch('/assertion?scope=${encodeURIComponent(scope)}')).json()).assertion;
        window.received = [];
        let intruderReady;
        const intruderLoaded = new Promise((resolve) => { intruderReady = resolve; });
        window.addEventListener('message', async (event) => {
          if (event.data && event.data.type === 'intruder:ready') intruderReady();
          if (event.data && event.data.type === 'intruder:sent') window.intruderSent = true;
          if (event.origin !== app) return;
          window.received.push(event.data);
          if (event.data.type !== 'service:auth:request' || mode === 'silent') return;
          if (mode === 'intruder') {
            // Another frame on the page (another origin) answers in the partner's place.
            const assertion = await sign();
            await intruderLoaded;
            document.getElementById('intruder').contentWindow.postMessage({ assertion, target: ${JSON.stringify(target)} }, '*');
            return;
          }
          event.source.postMessage({ type: 'service:auth:await' }, app);
          if (mode === 'await-only') return;
          const assertion = await sign();
          event.source.postMessage({ type: 'service:auth:response', grant_type: ${JSON.stringify(jwtBearer)}, assertion, target: ${JSON.stringify(target)}, return_url: location.origin + '/wallet' }, app);
        });`;
      const intruder = `<script>addEventListener('message', (e) => {
        parent.frames[0].postMessage({ type: 'service:auth:response', grant_type: ${JSON.stringify(jwtBearer)}, assertion: e.data.assertion, target: e.data.target }, '*');
        parent.postMessage({ type: 'intruder:sent' }, '*');
      });
      parent.postMessage({ type: 'intruder:ready' }, '*');</script>`;
      return {
        type: 'text/html',
        body: `<!doctype html><title>Partner wallet</title><style>body{font-family:sans-serif}iframe{width:640px;height:420px;border:2px solid #446}</style>
<h1>Partner wallet</h1><p>Ramp, embedded:</p>
<script>${script}</script>
<iframe id="ramp" src="${appOrigin}/auth/launch?origin=${encodeURIComponent(siteOrigin)}"></iframe>
${mode === 'intruder' ? `<iframe id="intruder" sandbox="allow-scripts" style="display:none" srcdoc="${escapeHtml(intruder)}"></iframe>` : ''}`,
      };
    }
    if (request.pathname === '/frame') return framer(request);
    return { type: 'text/plain', body: 'not found' };
  }

  /** A page that frames `src` (the partner's own, or another origin's). */
  function framer(request: URL) {
    const src = request.searchParams.get('src') ?? '';
    return { type: 'text/html', body: `<!doctype html><title>Framer</title><h1>${escapeHtml(request.origin)}</h1><iframe id="app" src="${escapeHtml(src)}" style="width:640px;height:360px"></iframe>` };
  }

  beforeAll(async () => {
    mkdirSync(artifactsDir, { recursive: true });
    server = await startTestServer();
    partner = await Partner.create(server);
    await partner.register();
    // Same server, another site: the app as the browser sees it.
    appOrigin = server.url.replace('127.0.0.1', 'localhost');
    site = createServer((req, res) => {
      partnerSite(new URL(req.url ?? '/', siteOrigin)).then(
        ({ type, body }) => res.writeHead(200, { 'Content-Type': type }).end(body),
        (error: Error) => res.writeHead(500).end(error.message),
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    // Another origin, reached as localhost (the app's site) or 127.0.0.1 (the partner's site).
    other = createServer((req, res) => {
      const { type, body } = framer(new URL(req.url ?? '/', `http://${req.headers.host}`));
      res.writeHead(200, { 'Content-Type': type }).end(body);
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherPort = (other.address() as AddressInfo).port;
    browser = await launchBrowser();
  }, testBudget);

  afterAll(async () => {
    await browser?.close();
    site?.closeAllConnections();
    site?.close();
    other?.closeAllConnections();
    other?.close();
    await server?.close();
  });

  async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    return { context, page: await context.newPage() };
  }

  const frameWith = (page: Page, path: string) => page.frames().find((f) => f.url().startsWith(`${appOrigin}${path}`));

  it('an embedded launch answers the handshake (await first) and ends signed in at the target', async () => {
    const { context, page } = await newPage();
    try {
      const launches: { cookie: string | null; dest: string | undefined }[] = [];
      page.on('response', async (response) => {
        // The page passes its origin on: the session's pages may be framed by it alone.
        if (response.request().method() === 'POST' && response.url() === `${appOrigin}/auth/launch?origin=${encodeURIComponent(siteOrigin)}`) {
          launches.push({ cookie: await response.headerValue('set-cookie'), dest: response.request().headers()['sec-fetch-dest'] });
        }
      });
      await page.goto(`${siteOrigin}/embed?target=${encodeURIComponent('/kyc?step=1')}&scope=kyc`);
      const frame = page.frameLocator('#ramp');
      expect(await frame.locator('#flow').textContent({ timeout: waitBudget })).toBe('kyc');
      expect(await frame.locator('#name').textContent()).toBe('Ana López');
      expect(await frame.locator('#return').getAttribute('href')).toBe(`${siteOrigin}/wallet`);
      expect(frameWith(page, '/kyc?step=1')).toBeDefined();
      expect(await page.evaluate(() => (window as unknown as { received: { type: string }[] }).received.map((m) => m.type))).toEqual(['service:auth:request']);
      expect(launches).toHaveLength(1);
      expect(launches[0]!.cookie).toMatch(/^ramp_session=s_[\w-]+; Path=\/; HttpOnly; SameSite=None; Secure; Partitioned$/);
      // The browser kept it, for the partner's site only.
      const cookies = await context.cookies(appOrigin);
      expect(cookies.map((c) => c.name)).toContain('ramp_session');
      await page.screenshot({ path: join(artifactsDir, 'launch-iframe-signed-in.png') });
    } finally {
      await context.close();
    }
  });

  /**
   * Frames `${appOrigin}${path}` from `framerOrigin` and answers what the browser did: the
   * status the app answered (200: the session cookie went along) and whether the frame shows
   * the app's page or the browser's refusal.
   */
  async function frameFrom(page: Page, framerOrigin: string, path: string) {
    const answered = page.waitForResponse((response) => response.url() === `${appOrigin}${path}`);
    await page.goto(`${framerOrigin}/frame?src=${encodeURIComponent(`${appOrigin}${path}`)}`);
    const status = (await answered).status();
    const frame = (await (await page.$('#app'))!.contentFrame())!;
    // A refused frame commits the browser's error document instead of the page.
    await page.waitForFunction(() => document.readyState === 'complete');
    await frame.waitForLoadState();
    const shown = frame.url() === `${appOrigin}${path}` ? await frame.locator('#flow').textContent({ timeout: waitBudget }) : null;
    return { status, frameUrl: frame.url(), shown };
  }

  it('after a top-level launch no other origin may frame the app pages, not even one of the same site', async () => {
    const { context, page } = await newPage();
    try {
      const refusals: string[] = [];
      page.on('console', (message) => { if (/frame-ancestors/.test(message.text())) refusals.push(message.text()); });
      await page.goto(`${siteOrigin}/form?target=${encodeURIComponent('/kyc')}&scope=kyc`);
      await page.click('#go');
      await page.waitForURL(`${appOrigin}/kyc`);
      // localhost:<other port> is another origin of the app's own site: the Lax cookie goes along.
      for (const path of ['/kyc', '/account']) {
        const framed = await frameFrom(page, `http://localhost:${otherPort}`, path);
        expect(framed.status, path).toBe(200);
        expect(framed.shown, path).toBeNull();
        expect(framed.frameUrl, path).not.toBe(`${appOrigin}${path}`);
      }
      expect(refusals.length).toBeGreaterThan(0);
      expect(refusals[0]).toContain("frame-ancestors 'none'");
      await page.screenshot({ path: join(artifactsDir, 'app-page-framing-refused.png') });
    } finally {
      await context.close();
    }
  });

  it("after an embedded launch the app pages may be framed by the partner's origin alone", async () => {
    const { context, page } = await newPage();
    try {
      await page.goto(`${siteOrigin}/embed?target=/kyc&scope=kyc`);
      expect(await page.frameLocator('#ramp').locator('#flow').textContent({ timeout: waitBudget })).toBe('kyc');
      const partnerFrame = await frameFrom(page, siteOrigin, '/kyc');
      expect(partnerFrame).toMatchObject({ status: 200, shown: 'kyc' });
      // 127.0.0.1:<other port> shares the partner's site, so the partitioned cookie goes along.
      const otherFrame = await frameFrom(page, `http://127.0.0.1:${otherPort}`, '/kyc');
      expect(otherFrame.status).toBe(200);
      expect(otherFrame.shown).toBeNull();
      expect(otherFrame.frameUrl).not.toBe(`${appOrigin}/kyc`);
    } finally {
      await context.close();
    }
  });

  it('a form-POST launch lands on the target with the session cookie set', async () => {
    const { context, page } = await newPage();
    try {
      await page.goto(`${siteOrigin}/form?target=${encodeURIComponent('/onramp?amount=500')}&scope=${encodeURIComponent('onramp kyc')}`);
      await page.click('#go');
      await page.waitForURL(`${appOrigin}/onramp?amount=500`);
      expect(await page.locator('#flow').textContent()).toBe('onramp');
      expect(await page.locator('#scopes').textContent()).toBe('onramp kyc');
      const session = (await context.cookies(appOrigin)).find((c) => c.name === 'ramp_session');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      // A reload is still signed in: the cookie is what carries the session.
      await page.reload();
      expect(await page.locator('#email').textContent()).toBe('ana.lopez@example.com');
      await page.screenshot({ path: join(artifactsDir, 'launch-form-post-signed-in.png') });
    } finally {
      await context.close();
    }
  });

  it('an unallowed target shows invalid_target, by form POST and in the frame', async () => {
    const { context, page } = await newPage();
    try {
      await page.goto(`${siteOrigin}/form?target=/settings`);
      await page.click('#go');
      await page.waitForURL(`${appOrigin}/auth/launch`);
      expect(await page.locator('meta[name="oauth-error"]').getAttribute('content')).toBe('invalid_target');
      expect(await page.locator('#error').textContent()).toBe('invalid_target');
      expect(await context.cookies(appOrigin)).toEqual([]);
      await page.screenshot({ path: join(artifactsDir, 'launch-invalid-target.png') });

      // The postMessage page sends its embedder's target on as it is: an absolute URL is
      // invalid_target there too, not invalid_request.
      for (const target of ['/settings', 'https://evil.example/kyc']) {
        await page.goto(`${siteOrigin}/embed?target=${encodeURIComponent(target)}`);
        const frame = page.frameLocator('#ramp');
        expect(await frame.locator('#error').textContent({ timeout: waitBudget }), target).toBe('invalid_target');
        await page.waitForFunction(() => (window as unknown as { received: { type: string }[] }).received.some((m) => m.type === 'service:auth:error'));
        const received = await page.evaluate(() => (window as unknown as { received: unknown[] }).received);
        expect(received, target).toEqual([{ type: 'service:auth:request' }, { type: 'service:auth:error', error: 'invalid_target' }]);
        expect(frameWith(page, '/auth/launch'), target).toBeDefined();
        if (target === '/settings') await page.screenshot({ path: join(artifactsDir, 'launch-iframe-invalid-target.png') });
      }
      expect(await context.cookies(appOrigin)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('waits 10 s for an answer, 30 s more per await, then times out cleanly', async () => {
    const { context, page } = await newPage();
    try {
      await page.clock.install();
      await page.goto(`${siteOrigin}/embed?mode=await-only`);
      const frame = page.frameLocator('#ramp');
      await page.waitForFunction(() => (window as unknown as { received: unknown[] }).received.length === 1);
      await page.clock.runFor(20_000);
      // Past the first 10 s, still waiting thanks to the await.
      expect(await frame.locator('#title').textContent()).toBe('Signing in…');
      await page.clock.runFor(25_000);
      expect(await frame.locator('#error').textContent({ timeout: waitBudget })).toBe('timeout');
      await page.waitForFunction(() => (window as unknown as { received: { type: string }[] }).received.some((m) => m.type === 'service:auth:error'));
      expect(await page.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual([
        { type: 'service:auth:request' },
        { type: 'service:auth:error', error: 'timeout' },
      ]);
      await page.screenshot({ path: join(artifactsDir, 'launch-iframe-timeout.png') });
    } finally {
      await context.close();
    }
  });

  it('ignores a response from another frame of another origin', async () => {
    const { context, page } = await newPage();
    try {
      await page.clock.install();
      await page.goto(`${siteOrigin}/embed?mode=intruder`);
      await page.waitForFunction(() => (window as unknown as { intruderSent?: boolean }).intruderSent === true);
      await page.clock.runFor(11_000);
      const frame = page.frameLocator('#ramp');
      expect(await frame.locator('#error').textContent({ timeout: waitBudget })).toBe('timeout');
      expect(await page.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual([
        { type: 'service:auth:request' },
        { type: 'service:auth:error', error: 'timeout' },
      ]);
      expect(await context.cookies(appOrigin)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
