/**
 * The process's one log line per request, as a partner's CI reads it (server/http/requestLog.ts):
 * method, path without its query string, operation, status, duration, organization when
 * authenticated; never a key or the Authorization header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../support/api.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { eventually, testBudget } from '../support/wait.ts';

type Line = { level: number; msg: string; method?: string; path?: string; operationId?: string; status?: number; durationMs?: number; organizationId?: string };

describe('one log line per request', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const requestLines = (path: string) =>
    server.logs.map((text) => JSON.parse(text) as Line).filter((line) => line.msg === 'request' && line.path === path);

  it('logs an authenticated request with its operation and organization, without its query string', { timeout: testBudget }, async () => {
    const objectId = crypto.randomUUID();
    expectStatus(await server.api.GET('/sandbox/requests', { params: { query: { pageSize: 1, objectId } } }), 200);
    const [line, ...more] = await eventually(() => requestLines('/sandbox/requests').length > 0 && requestLines('/sandbox/requests'));
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: 30, method: 'GET', path: '/sandbox/requests', operationId: 'listSandboxRequests', status: 200, organizationId: server.partnerId });
    expect(line!.durationMs).toBeGreaterThanOrEqual(0);
    expect(server.logs.join('\n')).not.toContain(objectId);
  });

  it('logs a refused key without the key or its header, and an anonymous request without an organization', { timeout: testBudget }, async () => {
    const wrongKey = `${server.key.slice(0, -4)}zzzz`;
    await server.as(wrongKey).GET('/organizations', {});
    expectStatus(await server.as(null).GET('/lookup/country-codes', {}), 200);
    const [refused] = await eventually(() => requestLines('/organizations').length > 0 && requestLines('/organizations'));
    expect(refused).toMatchObject({ method: 'GET', status: 401 });
    expect(refused!.organizationId).toBeUndefined();
    const [anonymous] = await eventually(() => requestLines('/lookup/country-codes').length > 0 && requestLines('/lookup/country-codes'));
    expect(anonymous).toMatchObject({ method: 'GET', status: 200, operationId: expect.any(String) });
    expect(anonymous!.organizationId).toBeUndefined();
    const text = server.logs.join('\n');
    for (const secret of [server.key, wrongKey, 'Bearer', 'authorization']) expect(text).not.toContain(secret);
  });
});
