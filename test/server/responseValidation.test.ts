/**
 * Every answer is validated against the contract before it leaves (validateResponses, on by
 * default): a handler whose body breaks its operation's schema is the server's fault, so the
 * client gets 500 `internal-error` (never the broken body) and the log gets one `internal error`
 * line naming the request and what did not match.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../client/index.ts';
import { Problem } from '../../server/shared/problems.ts';
import { requestLogLimits } from '../../server/features/requestLog/rules.ts';
import { StoredBody, StoredPage } from '../../server/shared/storedBodies.ts';
import { expectPlainError, expectProblem } from '../support/errors.ts';
import { loadBundle } from '../support/documents.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { eventually } from '../support/wait.ts';

type Order = Schema<'Order'>;

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
        // v1GetCustomer answers 200, 400, 401, 404 and 500: neither 429 nor its Retry-After.
        v1GetCustomer: () => {
          throw new Problem('conflict', 'a conflict with a header v1GetCustomer does not document', {}, { 'Retry-After': '7' });
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

  it('answers without the refused problem\'s own headers', async () => {
    const answer = await server.sendRaw('GET', '/ramp/customer/00000000-0000-4000-8000-000000000000');
    expectPlainError(answer, 500);
    expect(answer.headers.get('retry-after')).toBeNull();
  });

  it('answers on the same connection, which stays open for the next request', async () => {
    // One keep-alive socket: Express's final handler, reached after an answer, would close it.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<{ status: number; type: string | undefined; reused: boolean }>((resolve, reject) => {
        const request = http.get(`${server.url}${path}`, { agent, headers: { authorization: server.key } }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode!, type: response.headers['content-type'], reused: request.reusedSocket }));
        });
        request.on('error', reject);
      });
    try {
      expect(await get('/lookup/country-codes')).toMatchObject({ status: 500, type: expect.stringMatching(/^application\/json/), reused: false });
      expect(await get('/lookup/tokens/cost')).toEqual({ status: 200, type: expect.stringMatching(/^application\/json/), reused: true });
    } finally {
      agent.destroy();
    }
  });
});

/**
 * A stored page (GET /orders: each order's body, checked against Order when it was stored) is
 * sent as text, past the response validator's `res.json` hook. What the page adds to its items
 * is checked instead against the operation's response schema, and its items' schema against
 * the one the response lists: a page that breaks either is the same 500 and the same log line.
 */
describe('a stored body or page that breaks the contract', () => {
  let server: TestServer;
  const meta = { totalItems: 0, pageSize: 30, pageNumber: 0, totalPages: 0 };
  beforeAll(async () => {
    server = await startTestServer({
      handlers: {
        // PageMeta's counts are at least 0.
        listOrders: () => ({ status: 200, body: new StoredPage('Order', [], { ...meta, totalItems: -1 }) }),
        // A page of stored Order bodies where the operation lists quotes.
        listQuotes: () => ({ status: 200, body: new StoredPage('Order', [], meta) as never }),
        // A stored Order body where the operation answers a payment account.
        getPaymentAccount: () => ({ status: 200, body: new StoredBody('Order', '{}') as never }),
      },
    });
  });
  afterAll(() => server?.close());

  const refused = async (path: string) => {
    const answer = await server.sendRaw('GET', path);
    const problem = expectProblem(answer, 500, 'internal-error');
    const logged = server.logs.map((line) => JSON.parse(line) as { msg: string; instance?: string; path?: string; err?: { message?: string } }).filter((line) => line.msg === 'internal error');
    expect(logged.filter((line) => line.instance === problem.instance)).toHaveLength(1);
    return logged.find((line) => line.instance === problem.instance)!.err?.message;
  };

  it('is a 500 internal-error with one log line when its members break the page schema', async () => {
    expect(await refused('/orders')).toMatch(/^response to listOrders \(200\) does not match its schema: \/totalItems must be >= 0/);
  });

  it('is a 500 internal-error with one log line when the operation lists items of another schema', async () => {
    expect(await refused(`/organization/${server.partnerId}/quotes`)).toMatch(/^response to listQuotes \(200\) lists Quote, not the stored Order bodies/);
  });

  it('is a 500 internal-error with one log line when the operation answers another schema', async () => {
    expect(await refused(`/organization/${server.partnerId}/payment_account/${crypto.randomUUID()}`)).toMatch(/^response to getPaymentAccount \(200\) is PaymentAccount, not the stored Order body/);
  });
});

describe('with response validation off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { RAMP_VALIDATE_RESPONSES: 'false' },
      handlers: { listOrders: () => ({ status: 200, body: new StoredPage('Order', [], { totalItems: -1, pageSize: 30, pageNumber: 0, totalPages: 0 }) }) },
    });
  });
  afterAll(() => server?.close());

  it('sends a stored page unchecked, as res.json sends any other answer', async () => {
    const answer = await server.sendRaw('GET', '/orders', { verbatimPath: true });
    expect(answer.status).toBe(200);
    expect(answer.text_).toBe('{"items":[],"totalItems":-1,"pageSize":30,"pageNumber":0,"totalPages":0}');
  });
});

/**
 * A stored body or page is written as its text (http/storedAnswers.ts), not through Express's
 * `send`: the answer must still be what `send` would have made of it, multi-byte characters
 * included, and the request log must still keep it.
 */
describe('a stored page as sent', () => {
  let server: TestServer;
  // The contract's canceled onramp (test:prism checks every answer against it), each with its own ids and
  // a name of two- and three-byte characters: longer than the 1,000 bytes from which `send` copies a text.
  const example: Order = loadBundle('ramp').components.examples.OrderOnrampCanceled.value;
  const order = (i: number): Order => {
    const made = structuredClone(example);
    made.id = made.id.replace(/.{2}$/, String(i).padStart(2, '0'));
    made.quoteId = made.quoteId.replace(/.{2}$/, String(i).padStart(2, '0'));
    made.fundingInstructions!.destination.beneficiaryName = 'Rampa Ejemplo — Pagos Señalados ✓';
    return made;
  };
  const items = Array.from({ length: 3 }, (_, i) => JSON.stringify(order(i)));
  const meta = { totalItems: 3, pageSize: 30, pageNumber: 0, totalPages: 1 };
  const text = `{"items":[${items.join(',')}],${JSON.stringify(meta).slice(1)}`;
  beforeAll(async () => {
    server = await startTestServer({ handlers: { listOrders: () => ({ status: 200, body: new StoredPage('Order', items, meta) }) } });
  });
  afterAll(() => server?.close());

  // Straight to the server (not through test:prism's proxy), to see its own bytes.
  const get = () => server.sendRaw('GET', '/orders', { verbatimPath: true });

  it('is its text, typed JSON in UTF-8, its length in bytes', async () => {
    const answer = await get();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(text.length).toBeGreaterThan(1000);
    expect(Buffer.byteLength(text)).toBeGreaterThan(text.length);
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(answer.text_).toBe(text);
  });

  it('is kept in the request log as it was sent', async () => {
    await get();
    const entry = await eventually(async () => {
      const { data } = await server.api.GET('/sandbox/requests', { params: { query: { operationId: 'listOrders', reads: true } } });
      return data?.items[0];
    });
    // Shorter than what the log keeps of a read's answer: kept whole.
    expect(Buffer.byteLength(text)).toBeLessThan(requestLogLimits.readAnswerBytes);
    expect(entry.responseBody).toBe(text);
    expect(entry.truncated).toBe(false);
  });
});
