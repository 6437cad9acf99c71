/**
 * `GET /` (getHome) as a browser opens the base URL: a page, not an empty 404, pointing to
 * the API reference and, in the sandbox only, to the console; no key needed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { testBudget } from '../../support/wait.ts';

const browserHeaders = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' };

async function openHome(server: TestServer) {
  const response = await fetch(`${server.url}/`, { headers: browserHeaders });
  return { response, html: await response.text() };
}

describe.each([
  { env: 'sandbox', links: ['/docs', '/sandbox/console'], absent: [] as string[] },
  { env: 'production', links: ['/docs'], absent: ['/sandbox/console'] },
])('the home page in $env', ({ env, links, absent }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: env === 'production' ? { RAMP_ENV: 'production' } : {} });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a browser without a key with a page linking where to go', { timeout: testBudget }, async () => {
    const { response, html } = await openHome(server);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(links);
    for (const path of absent) expect(html).not.toContain(path);
    expect(html).toContain(server.services.config.baseUrl);
    expect(html).toContain('Authorization');
    // Each link leads somewhere a browser can open.
    for (const href of links) expect((await fetch(`${server.url}${href}`, { headers: browserHeaders })).status).toBe(200);
  });
});
