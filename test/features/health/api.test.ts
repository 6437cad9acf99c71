/**
 * Readiness (getHealth), as a partner's CI and a probe use it: no key, 200 `ready` once the
 * database answers. Its 503 while the database is unreachable is proved with every other
 * operation's in documentedErrors.test.ts (PostgreSQL, the connections cut).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../../support/api.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

describe('GET /health', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('answers ready without a key, and the same with one', async () => {
    expect(expectStatus(await server.as(null).GET('/health'), 200)).toEqual({ status: 'ready' });
    expect(expectStatus(await server.api.GET('/health'), 200)).toEqual({ status: 'ready' });
  });

  it('answers a bad query or method in the documented format', async () => {
    const unknown = await server.sendRaw('GET', '/health?verbose=1', { key: null });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const post = await server.sendRaw('POST', '/health', { key: null });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});
