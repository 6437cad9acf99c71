/**
 * Abuse: what a careless or hostile client can send. Each request gets its documented error
 * or is served; nothing reaches the database; the process stays up with bounded memory and
 * cuts slow clients off. The server under test validates its own responses against the
 * contract, so an undocumented answer would show up here as a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../support/api.ts';
import { expectDocumentedDetail, expectOAuthError, expectPlainError, expectProblem } from '../support/errors.ts';
import { createCustomer } from '../support/fixtures.ts';
import { rowCounts } from '../support/organizations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { newSeedKey, rawRequest, startServerProcess, type ServerProcess } from '../support/process.ts';
import net from 'node:net';

const json = { 'Content-Type': 'application/json' };

describe('bodies and headers no client should send', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('refuses an oversized body with payload-too-large, in the format of each surface', async () => {
    const before = await rowCounts(server);
    const big = JSON.stringify({ url: 'http://127.0.0.1:9/x', eventType: 'orderUpdated', padding: 'x'.repeat(2_000_000) });
    const v2 = await server.sendRaw('POST', '/webhook_subscription', { raw: big, headers: json });
    expectProblem(v2, 413, 'payload-too-large', v2.text_.slice(0, 300));
    const v1 = await server.sendRaw('POST', '/ramp/customers', { raw: JSON.stringify({ pageSize: 10, filters: null, padding: 'x'.repeat(2_000_000) }), headers: json });
    expectPlainError(v1, 413, v1.text_.slice(0, 300));
    const auth = await server.sendRaw('POST', '/auth/token', { key: null, raw: `grant_type=refresh_token&refresh_token=${'x'.repeat(2_000_000)}`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(auth.status).toBeGreaterThanOrEqual(400);
    expect(auth.status).toBeLessThan(500);
    expect(await rowCounts(server)).toEqual(before);
  });

  it('refuses deeply nested JSON without running out of stack', async () => {
    const before = await rowCounts(server);
    const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    const cases: [string, string, string][] = [
      ['PUT', `/ramp/organization/${server.partnerId}/name`, `{"displayName": ${arrays(100_000)}}`],
      ['POST', `/organization/${server.partnerId}/payment_account`, `{"kind":"bankAccount","rail":"spei","accountDetails":{"clabe":"002010077777777771"},"registrationInfo":${arrays(100_000)}}`],
      ['POST', '/webhook_subscription', `{"url":"http://127.0.0.1:9/x","eventType":"orderUpdated","extra":${objects(40_000)}}`],
      ['PUT', `/organization/${server.partnerId}/kyb`, `{"representatives":[${objects(40_000)}]}`],
      ['POST', '/ramp/customers', `{"pageSize":10,"filters":${objects(40_000)}}`],
    ];
    for (const [method, path, raw] of cases) {
      const response = await server.sendRaw(method, path, { raw, headers: json });
      expect(response.status, `${method} ${path} → ${response.text_.slice(0, 200)}`).toBe(400);
    }
    const oauth = await server.sendRaw('POST', '/auth/token', { key: null, raw: `{"grant_type":"refresh_token","refresh_token":${arrays(100_000)}}`, headers: json });
    expectOAuthError(oauth, 'invalid_request');
    expect(await rowCounts(server)).toEqual(before);
  });

  it('refuses a long array before checking its items one by one (which would cost minutes)', async () => {
    const before = await rowCounts(server);
    for (const [method, path, body] of [
      ['PUT', `/organization/${server.partnerId}/kyb`, { representatives: Array.from({ length: 32_000 }, () => ({})) }],
      ['POST', '/ramp/customers', { pageSize: 10, filters: { fromDate: '2026-01-01T00:00:00Z', extra: Array.from({ length: 32_000 }, () => ({})) } }],
      ['POST', '/webhook_subscription', Array.from({ length: 32_000 }, () => ({}))],
    ] as const) {
      const response = await server.sendRaw(method, path, { body });
      expect(response.status, `${path} ${response.text_.slice(0, 300)}`).toBe(400);
      expect(response.text_).toMatch(/must not have more than 100 items/);
    }
    const v1Kyc = await server.sendRaw('POST', `/ramp/customer/${server.partnerId}/kyc`, { body: { address: Array.from({ length: 32_000 }, () => ({})) } });
    expect(v1Kyc.status).toBe(400);
    expect(v1Kyc.json_).toEqual({ error: 'Invalid KYC submission', details: [{ field: 'address', message: 'must not have more than 100 items' }] });
    expect(await rowCounts(server)).toEqual(before);
  }, 60_000);

  it('answers a huge array of wrong items with a bounded list of fields', async () => {
    // 100 items (the most a body may hold), each missing every field: 700 fields, 200 listed.
    const raw = JSON.stringify({ representatives: Array.from({ length: 100 }, () => ({})) });
    const response = await server.sendRaw('PUT', `/organization/${server.partnerId}/kyb`, { raw, headers: json });
    const problem = expectProblem(response, 400, 'validation-error', response.text_.slice(0, 300));
    expect(problem.errors.length).toBeLessThanOrEqual(200);
    expect(problem.detail).toMatch(/the first \d+ are listed/);
    expect(response.text_.length).toBeLessThan(64 * 1024);
  });

  it('takes bytes that are not UTF-8 as malformed input, in the body and in the path', async () => {
    const before = await rowCounts(server);
    const port = Number(new URL(server.url).port);
    const body = Buffer.concat([Buffer.from('{"displayName": "'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]);
    const renamed = await rawRequest(port, Buffer.concat([
      Buffer.from(`PUT /ramp/organization/${server.partnerId}/name HTTP/1.1\r\nHost: x\r\nAuthorization: ${server.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`),
      body,
    ]));
    // Either refused, or served with the bytes replaced; never a server error.
    expect(renamed.status, renamed.text).toBeGreaterThanOrEqual(200);
    expect(renamed.status, renamed.text).toBeLessThan(500);
    const badUtf8Json = await server.sendRaw('POST', '/webhook_subscription', { raw: '{"url": "http://127.0.0.1:9/\udc00", "eventType": "orderUpdated"}', headers: json });
    expect(badUtf8Json.status).toBeLessThan(500);
    for (const path of [`/organization/%ff%fe/kyc`, `/organization/${server.partnerId}%c3%28/kyc`, '/ramp/order/%E0%A4%A']) {
      const response = await server.sendRaw('GET', path);
      expect(response.status, `${path} → ${response.text_.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${path} → ${response.text_.slice(0, 200)}`).toBeLessThan(500);
    }
    const latin1Body = await server.sendRaw('POST', '/ramp/customers', { raw: '{"pageSize": 10}', headers: { 'Content-Type': 'application/json; charset=latin1' } });
    expect(latin1Body.status).toBeGreaterThanOrEqual(400);
    expect(latin1Body.status).toBeLessThan(500);
    // Renames go through only with the bytes the client meant; a refused one leaves no trace.
    if (renamed.status >= 400) expect(await rowCounts(server)).toEqual(before);
  });

  it('refuses API keys that are not ASCII with 401, whatever their bytes', async () => {
    const port = Number(new URL(server.url).port);
    expectProblem(await server.as(server.key.replace(/.$/, 'é')).GET('/organizations'), 401, 'unauthorized');
    for (const key of [Buffer.from(`${server.key.slice(0, -1)}ñ`, 'utf8'), Buffer.from([0x61, 0x70, 0x69, 0xff, 0x00, 0x80]), Buffer.from('api_sand:🙂:🙂', 'utf8')]) {
      const response = await rawRequest(port, Buffer.concat([Buffer.from('GET /organizations HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: '), key, Buffer.from('\r\n\r\n')]));
      // A NUL in a header is a malformed request for Node's parser (400); any other byte reaches us (401).
      expect([400, 401], response.text.slice(0, 300)).toContain(response.status);
    }
    expectPlainError(await server.as('api_sand:ñ:ñ').POST('/ramp/customers'), 401);
  });

  it('serves many requests in parallel, each one answered', async () => {
    const paths = ['/organizations', `/organization/${server.partnerId}`, '/orders', '/webhook_subscriptions', `/organization/${server.partnerId}/kyb`];
    const organizationId = server.partnerId;
    const reads = [
      () => server.api.GET('/organizations'),
      () => server.api.GET('/organization/{organizationId}', { params: { path: { organizationId } } }),
      () => server.api.GET('/orders'),
      () => server.api.GET('/webhook_subscriptions'),
      () => server.api.GET('/organization/{organizationId}/kyb', { params: { path: { organizationId } } }),
    ];
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        i % 4 === 3
          ? server.api.POST('/ramp/organization', { body: { displayName: `Parallel ${i}`, type: 'personal' } })
          : reads[i % reads.length]!(),
      ),
    );
    const statuses = responses.map((r) => r.response.status);
    expect(statuses.filter((s) => s !== 200 && s !== 201), JSON.stringify(statuses)).toEqual([]);
    expect(expectStatus(await server.api.GET('/organizations', { params: { query: { pageSize: 100 } } }), 200).totalItems).toBe(50);
  }, 120_000);
});

describe('the server process under abuse', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ RAMP_DATA_DIR: ':memory:', RAMP_SEED_API_KEY: newSeedKey(), RAMP_HEADERS_TIMEOUT_MS: '1000', RAMP_REQUEST_TIMEOUT_MS: '2000' });
  }, 120_000);
  afterAll(() => server?.stop());

  /** Opens a connection and sends `parts` one by one, `gapMs` apart; resolves when the server closes it. */
  const trickle = (parts: string[], gapMs: number) =>
    new Promise<{ answer: string; sentParts: number; closedAfterMs: number }>((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1');
      const started = Date.now();
      let sent = 0;
      let answer = '';
      const timer = setInterval(() => {
        if (sent < parts.length && !socket.destroyed) socket.write(parts[sent++]!);
      }, gapMs);
      socket.on('data', (c) => (answer += c.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ answer, sentParts: sent, closedAfterMs: Date.now() - started });
      });
    });

  it('cuts off a client that sends its headers too slowly (slowloris)', async () => {
    // One header byte every 200 ms: the whole request would take 40 s; the deadline is 1 s.
    const request = `GET /organizations HTTP/1.1\r\nHost: x\r\nAuthorization: ${'a'.repeat(150)}\r\n\r\n`;
    const results = await Promise.all(Array.from({ length: 20 }, () => trickle([...request], 200)));
    for (const r of results) {
      expect(r.sentParts).toBeLessThan(request.length);
      if (r.answer) expect(r.answer).toMatch(/^HTTP\/1\.1 408/);
    }
    const alive = await fetch(`${server.url}/lookup/country-codes`);
    expect(alive.status).toBe(200);
  }, 60_000);

  it('cuts off a client that sends its body too slowly', async () => {
    const head = `POST /ramp/customers HTTP/1.1\r\nHost: x\r\nAuthorization: x\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n`;
    const result = await trickle([head, ...Array.from({ length: 400 }, () => ' ')], 100);
    expect(result.sentParts).toBeLessThan(401);
    expect((await fetch(`${server.url}/lookup/country-codes`)).status).toBe(200);
  }, 60_000);

  it('refuses oversized headers and stays up with bounded memory after a flood of bad requests', async () => {
    const huge = await rawRequest(server.port, `GET /organizations HTTP/1.1\r\nHost: x\r\nX-Padding: ${'x'.repeat(100_000)}\r\nConnection: close\r\n\r\n`).catch(() => ({ status: 0, text: '' }));
    // Node answers 431, or closes the connection when the header is far too long.
    expect([0, 431]).toContain(huge.status);
    const start = server.rss();
    const big = 'x'.repeat(300_000);
    for (let round = 0; round < 10; round++) {
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          fetch(`${server.url}/webhook_subscription`, {
            method: 'POST',
            headers: { Authorization: i % 2 ? 'api_sand:nope' : 'x', 'Content-Type': 'application/json' },
            body: i % 3 === 0 ? big : `{"url": ${'['.repeat(50_000)}`,
          }).then((r) => r.status),
        ),
      );
    }
    const end = server.rss();
    expect((await fetch(`${server.url}/lookup/country-codes`)).status).toBe(200);
    expect(server.child.exitCode).toBe(null);
    // 300 bad requests of up to 300 kB each: the process keeps well under 200 MB more than it had.
    expect(end - start).toBeLessThan(200 * 1024 * 1024);
  }, 120_000);
});

describe('rate limiting of reads', () => {
  let server: TestServer;
  const frozen = new Date('2026-05-01T12:00:00.250Z');
  let now = frozen.getTime();
  beforeAll(async () => {
    // The key's own budget (the organizations' by default) is set apart: this test is about each organization's.
    server = await startTestServer({ clock: { now: () => new Date(now) }, env: { RAMP_RATE_LIMIT_READS_PER_SECOND: '5', RAMP_RATE_LIMIT_KEY_READS_PER_SECOND: '100' } });
  });
  afterAll(() => server?.close());

  it('answers 429 rate-limit-exceeded with Retry-After past the threshold, per organization, and only for v2 reads', async () => {
    const getOrganization = (organizationId: string) => server.api.GET('/organization/{organizationId}', { params: { path: { organizationId } } });
    const child = await createCustomer(server, { displayName: 'Limited', type: 'personal' });
    for (let i = 0; i < 5; i++) expectStatus(await getOrganization(server.partnerId), 200);
    const limited = await server.api.GET('/organizations');
    const refused = expectProblem(limited, 429, 'rate-limit-exceeded');
    expect(refused.detail).toBe(`Too many reads for organization ${server.partnerId}: at most 5 per second; retry in 1 second.`);
    expectDocumentedDetail(refused);
    expect(limited.response.headers.get('retry-after')).toBe('1');
    // Another organization has its own count; writes, v1 and lookups are not counted.
    expectStatus(await getOrganization(child), 200);
    expectStatus(await server.api.POST('/ramp/organization', { body: { displayName: 'Still writes', type: 'personal' } }), 201);
    expectStatus(await server.api.POST('/ramp/customers', { body: {} }), 200);
    expectStatus(await server.as(null).GET('/lookup/country-codes'), 200);
    // An id the key cannot act for counts against the key's own organization (and is still 404 to it).
    expectProblem(await getOrganization(crypto.randomUUID()), 429, 'rate-limit-exceeded');
    // The next window opens a second later.
    now += 1000;
    expectStatus(await server.api.GET('/organizations'), 200);
  });

  it('bounds a key\'s reads whatever the number of customers it reads', async () => {
    let at = new Date('2026-05-01T12:00:00.250Z').getTime();
    const limited = await startTestServer({ clock: { now: () => new Date(at) }, env: { RAMP_RATE_LIMIT_READS_PER_SECOND: '5' } });
    try {
      const customers = await Promise.all(Array.from({ length: 10 }, (_, i) => createCustomer(limited, { displayName: `Read ${i}`, type: 'personal' })));
      const read = (organizationId: string, api = limited.api) => api.GET('/organization/{organizationId}', { params: { path: { organizationId } } });
      // 4 reads of each of 10 customers in one second: each customer is within its 5, the key is not.
      const answers = [];
      for (let round = 0; round < 4; round++) for (const customer of customers) answers.push(await read(customer));
      expect(answers.filter((a) => a.response.status === 200)).toHaveLength(5);
      const refused = expectProblem(answers.at(-1)!, 429, 'rate-limit-exceeded');
      expect(refused.detail).toBe('Too many reads with this API key: at most 5 per second, whichever organizations they are for; retry in 1 second.');
      expectDocumentedDetail(refused);
      expect(answers.at(-1)!.response.headers.get('retry-after')).toBe('1');
      // Another key of the partner has a budget of its own (the organization's is not spent: its reads were of customers).
      const other = expectStatus(await limited.api.POST('/organization/{organizationId}/api_key', { params: { path: { organizationId: limited.partnerId } } }), 201);
      expectStatus(await read(limited.partnerId, limited.as(other.key)), 200);
      // The next window starts afresh.
      at += 1000;
      expectStatus(await read(customers[0]!), 200);
    } finally {
      await limited.close();
    }
  });

  it('is off by default', async () => {
    const unlimited = await startTestServer();
    try {
      const statuses = await Promise.all(Array.from({ length: 50 }, () => unlimited.api.GET('/organizations').then((r) => r.response.status)));
      expect(new Set(statuses)).toEqual(new Set([200]));
    } finally {
      await unlimited.close();
    }
  });
});
