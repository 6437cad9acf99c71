/**
 * Every answer is validated against the contract before it leaves (validateResponses, on by
 * default): a handler whose body breaks its operation's schema is the server's fault, so the
 * client gets 500 `internal-error` (never the broken body) and the log gets one `internal error`
 * line naming the request and what did not match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Problem } from '../../server/shared/problems.ts';
import { expectPlainError, expectProblem } from '../support/errors.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('an answer that breaks the contract', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      handlers: {
        // SandboxClock requires `now` as a date-time and `frozen` as a boolean.
        getSandboxClock: () => ({ status: 200, body: { organizationId: 'not-a-uuid', now: 'yesterday', frozen: 'no', nextDueAt: null } as never }),
      },
    });
  });
  afterAll(() => server?.close());

  it('is a 500 internal-error problem with one log line, and its body is not sent', async () => {
    const answer = await server.sendRaw('GET', '/sandbox/clock');
    const problem = expectProblem(answer, 500, 'internal-error');
    expect(JSON.stringify(problem)).not.toContain('yesterday');
    const lines = server.logs.map((line) => JSON.parse(line) as { msg: string; instance?: string; path?: string; err?: { message?: string } });
    const logged = lines.filter((line) => line.msg === 'internal error');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ instance: problem.instance, path: '/sandbox/clock' });
    expect(logged[0]!.err?.message).toMatch(/response/i);
  });

  it('leaves the operations whose handlers keep the contract as they are', async () => {
    expect((await server.api.GET('/organization/{organizationId}', { params: { path: { organizationId: server.partnerId } } })).response.status).toBe(200);
  });
});

/**
 * The error handler's own answers are validated too. One the contract does not document for
 * its operation (listCountryCodes answers 200, 400 and 500, never 409) is the server's fault
 * like any other: the 500 internal-error in the surface's format, one log line, never
 * Express's HTML error page.
 */
describe('an error answer that breaks the contract', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      handlers: {
        listCountryCodes: () => {
          throw new Problem('conflict', 'a conflict listCountryCodes does not document');
        },
        // v1ListCustomers answers 200, 400, 401 and 500.
        v1ListCustomers: () => {
          throw new Problem('conflict', 'a conflict v1ListCustomers does not document');
        },
      },
    });
  });
  afterAll(() => server?.close());

  it.each(['/lookup/country-codes', '/ramp/customers'])('is a 500 internal-error in the surface format, logged once (%s)', async (path) => {
    const answer = await server.sendRaw('GET', path);
    const body = expectPlainError(answer, 500);
    expect(body.error).not.toContain('conflict');
    const logged = server.logs.map((line) => JSON.parse(line) as { msg: string; path?: string; err?: { message?: string } }).filter((line) => line.msg === 'internal error' && line.path === path);
    expect(logged).toHaveLength(1);
    // The validator's refusal: the status the operation does not document.
    expect(logged[0]!.err?.message).toMatch(/status code '409'/);
  });

  it('keeps the connection for the next request', async () => {
    const first = await server.sendRaw('GET', '/lookup/country-codes');
    expect(first.status).toBe(500);
    expect((await server.sendRaw('GET', '/lookup/tokens/cost')).status).toBe(200);
  });
});
