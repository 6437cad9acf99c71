/**
 * Security review, as tests: a key never reaches another partner's objects nor its own
 * grandchildren, and what it cannot reach looks exactly like what does not exist (404, never
 * 403); a deleted key is refused at once; secrets are returned once and never logged;
 * production refuses webhook URLs that point at loopback or private addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../fuzz/contract.ts';
import { describeAnswer, expectStatus, type Answer, type Api } from '../support/api.ts';
import { errorShape, expectOAuthError, expectPlainError, expectProblem } from '../support/errors.ts';
import { rowCounts } from '../support/organizations.ts';
import { requestToken } from '../support/partner.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createBankAccount, createWallet } from '../support/v1Money.ts';
import { eventually } from '../support/webhooks.ts';
import { testBudget, waitBudget } from '../support/wait.ts';
import { createCustomer, keyedBusinessChild, order, otherPartner, readyAccount, solanaAddress } from '../support/fixtures.ts';

const getOrganization = (api: Api, organizationId: string) => api.GET('/organization/{organizationId}', { params: { path: { organizationId } } });
const createKey = (api: Api, organizationId: string) => api.POST('/organization/{organizationId}/api_key', { params: { path: { organizationId } } });
const deleteKey = (api: Api, organizationId: string, id: string) => api.DELETE('/organization/{organizationId}/api_key/{id}', { params: { path: { organizationId, id } } });

describe('organization boundaries', () => {
  let server: TestServer;
  /** Objects of the server's partner (A), by the path parameter that names them. */
  const mine: Record<string, string> = {};
  let stranger: { key: string; partnerId: string };
  let child: { id: string; key: string };
  let grandchild: string;

  beforeAll(async () => {
    server = await startTestServer();
    const p = server.partnerId;
    stranger = await otherPartner(server);
    // A's objects, v2 and v1.
    const wallet = solanaAddress();
    expectStatus(await server.api.POST('/organization/{organizationId}/wallet', { params: { path: { organizationId: p } }, body: { custody: 'external', address: wallet, blockchain: 'solana' } }), 201);
    mine.paymentAccount = (await readyAccount(server, p)).id;
    mine.order = (await order(server, p, { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: wallet })).id;
    mine.subscription = expectStatus(await server.api.POST('/webhook_subscription', { body: { url: 'http://127.0.0.1:9/hook', eventType: 'orderUpdated' } }), 201).id;
    mine.customer = await createCustomer(server, { approved: true });
    const v1Wallet = await createWallet(server, mine.customer);
    mine.v1Wallet = v1Wallet.id;
    mine.v1BankAccount = (await createBankAccount(server, mine.customer)).internalAccountId;
    mine.v1Order = expectStatus(await server.api.POST('/ramp/order', { body: { customerId: mine.customer, type: 'onramp', sourceAmount: '250.00', walletId: v1Wallet.id, token: 'CETES' } }), 201).id;
    mine.v1Webhook = expectStatus(await server.api.POST('/ramp/webhook', { body: { url: 'https://partner.example/hooks', eventType: 'order_updated' } }), 201).id;
    mine.apiKey = expectStatus(await createKey(server.api, p), 201).id;
    // A sandbox partner A made: its maker's key may delete it, a stranger's never.
    mine.sandboxPartner = expectStatus(await server.api.POST('/sandbox/partners', { body: {} }), 201).id;
    // A business child with a key of its own (which A's key cannot create), and that child's
    // own customer: A's grandchild.
    child = await keyedBusinessChild(server);
    expectProblem(await createKey(server.api, child.id), 403, 'forbidden');
    grandchild = await createCustomer(server, { key: child.key, displayName: 'Grandchild', type: 'personal' });
    mine.event = (await server.services.storage.db.selectFrom('events').select('id').where('partner_id', '=', p).executeTakeFirstOrThrow()).id;
    for (const [name, id] of Object.entries(mine)) expect(id, name).toMatch(/^[0-9a-f-]{36}$/);
  }, 120_000);
  afterAll(() => server?.close());

  /** The id of A's object that a path parameter of this path names. */
  function idFor(path: string, parameter: string): string {
    if (parameter === 'organizationId' || parameter === 'org_id') return server.partnerId;
    if (parameter === 'customer_id') return mine.customer!;
    if (parameter === 'eventId') return mine.event!;
    if (parameter === 'partnerId') return mine.sandboxPartner!;
    const kinds: [RegExp, string][] = [
      [/payment_account\/\{id\}/, 'paymentAccount'], [/\/organization\/\{organizationId\}\/order\/\{id\}/, 'order'], [/api_key\/\{id\}/, 'apiKey'],
      [/webhook_subscription\/\{id\}/, 'subscription'], [/\/ramp\/order\/\{id\}/, 'v1Order'], [/\/ramp\/wallet\/\{id\}/, 'v1Wallet'],
      [/\/ramp\/bank-account\/\{id\}/, 'v1BankAccount'], [/\/ramp\/webhook\/\{id\}/, 'v1Webhook'], [/\/ramp\/swap\/\{id\}/, 'v1Order'],
    ];
    const kind = kinds.find(([pattern]) => pattern.test(path))?.[1];
    if (!kind) throw new Error(`no object of A for ${parameter} in ${path}`);
    return mine[kind]!;
  }

  it("never lets another partner's key reach A's objects, and answers as if they did not exist", async () => {
    const before = await rowCounts(server);
    const tried: string[] = [];
    for (const op of operations().filter((o) => o.keyed && o.parameters.some((p) => p.in === 'path'))) {
      const params = op.parameters.filter((p) => p.in === 'path');
      if (params.some((p) => p.name === 'identifier')) continue;
      const fill = (value: (name: string) => string) => params.reduce((path, p) => path.replace(`{${p.name}}`, value(p.name)), op.path);
      // Every operation of the contract, its path filled at run time and an empty body where it
      // takes one (most refuse it): no typed call can be written for that, so the raw sender.
      const body = op.body ? { body: {} } : {};
      const real = await server.sendRaw(op.method, fill((name) => idFor(op.path, name)), { key: stranger.key, ...body });
      const none = await server.sendRaw(op.method, fill(() => crypto.randomUUID()), { key: stranger.key, ...body });
      const where = `${op.operationId} ${op.method} ${op.path}: ${real.status} ${real.text_.slice(0, 200)}`;
      expect(real.status, where).not.toBe(403);
      expect(real.status, where).toBeGreaterThanOrEqual(400);
      expect(errorShape(real), where).toBe(errorShape(none));
      if (op.method === 'GET') expect(real.status, where).toBe(404);
      tried.push(op.operationId);
    }
    expect(tried.length).toBeGreaterThan(40);
    expect(await rowCounts(server)).toEqual(before);
    // A itself reads every one of them: they exist.
    const organizationId = server.partnerId;
    const reads: (() => Promise<Answer>)[] = [
      () => server.api.GET('/organization/{organizationId}/payment_account/{id}', { params: { path: { organizationId, id: mine.paymentAccount! } } }),
      () => server.api.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId, id: mine.order! } } }),
      () => server.api.GET('/webhook_subscription/{id}', { params: { path: { id: mine.subscription! } } }),
      () => server.api.GET('/ramp/order/{id}', { params: { path: { id: mine.v1Order! } } }),
      () => server.api.GET('/ramp/wallet/{id}', { params: { path: { id: mine.v1Wallet! } } }),
      () => server.api.GET('/ramp/bank-account/{id}', { params: { path: { id: mine.v1BankAccount! } } }),
      () => server.api.GET('/ramp/webhook/{id}', { params: { path: { id: mine.v1Webhook! } } }),
      () => server.api.GET('/ramp/customer/{customer_id}', { params: { path: { customer_id: mine.customer! } } }),
    ];
    for (const read of reads) expectStatus(await read(), 200);
  });

  it('keeps lists to the key\'s own objects', async () => {
    const api = server.as(stranger.key);
    const v2Lists = [
      api.GET('/organizations'), api.GET('/orders'), api.GET('/webhook_subscriptions'),
      api.GET('/organization/{organizationId}/api_keys', { params: { path: { organizationId: stranger.partnerId } } }),
    ];
    for (const list of await Promise.all(v2Lists)) {
      expect(JSON.stringify(expectStatus(list, 200).items), list.response.url).not.toMatch(new RegExp(Object.values(mine).join('|')));
    }
    const v1Lists = [
      api.POST('/ramp/customers', { body: {} }), api.POST('/ramp/orders', { body: {} }), api.POST('/ramp/wallets', { body: {} }),
      api.POST('/ramp/bank-accounts', { body: {} }), api.POST('/ramp/webhooks', { body: {} }),
    ];
    for (const list of await Promise.all(v1Lists)) expect(expectStatus(list, 200).items, list.response.url).toEqual([]);
  });

  it('does not reach grandchildren, nor lets a child reach its parent, and says 404 like for nothing', async () => {
    const random = crypto.randomUUID();
    const walletAddress = solanaAddress();
    const requests: [string, (id: string) => Promise<Answer>][] = [
      ['getOrganization', (id) => getOrganization(server.api, id)],
      ['getKyc', (id) => server.api.GET('/organization/{organizationId}/kyc', { params: { path: { organizationId: id } } })],
      ['listPaymentAccounts', (id) => server.api.GET('/organization/{organizationId}/payment_accounts', { params: { path: { organizationId: id } } })],
      ['createQuote', (id) => server.api.POST('/organization/{organizationId}/quote', {
        params: { path: { organizationId: id } }, body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '10.00', rail: 'spei', walletAddress },
      })],
      ['listOrders', (id) => server.api.GET('/orders', { params: { query: { organizationId: id } } })],
    ];
    for (const [name, request] of requests) {
      const grand = await request(grandchild);
      expectProblem(grand, 404, 'not-found');
      expect(errorShape(await request(random)), name).toBe(errorShape(grand));
    }
    const v1Requests: [string, (id: string) => Promise<Answer>][] = [
      ['v1RenameOrganization', (id) => server.api.PUT('/ramp/organization/{org_id}/name', { params: { path: { org_id: id } }, body: { displayName: 'Renamed' } })],
      ['v1GetCustomer', (id) => server.api.GET('/ramp/customer/{customer_id}', { params: { path: { customer_id: id } } })],
      ['v1ListCustomerOrders', (id) => server.api.POST('/ramp/customer/{customer_id}/orders', { params: { path: { customer_id: id } }, body: {} })],
    ];
    for (const [name, request] of v1Requests) {
      const grand = await request(grandchild);
      expectPlainError(grand, 404);
      expect(errorShape(await request(random)), name).toBe(errorShape(grand));
    }
    // The child's key works on the grandchild (its own child), not on its parent.
    expectStatus(await getOrganization(server.as(child.key), grandchild), 200);
    expectProblem(await getOrganization(server.as(child.key), server.partnerId), 404, 'not-found');
  });
});

describe('keys and secrets', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('refuses a deleted key on the very next request, on every surface', async () => {
    const own = server.partnerId;
    const { key, id } = expectStatus(await createKey(server.api, own), 201);
    expectStatus(await getOrganization(server.as(key), own), 200);
    expectStatus(await deleteKey(server.api, own, id), 204);
    expectProblem(await getOrganization(server.as(key), own), 401, 'unauthorized');
    expectPlainError(await server.as(key).POST('/ramp/customers', { body: {} }), 401);
    // Deleting a key twice is not found.
    expectProblem(await deleteKey(server.api, own, id), 404, 'not-found');
  });

  it('returns secrets only in the creation response and never writes them to the logs', { timeout: testBudget }, async () => {
    const fullKey = expectStatus(await createKey(server.api, server.partnerId), 201).key;
    const v2 = expectStatus(await server.api.POST('/webhook_subscription', { body: { url: 'http://127.0.0.1:9/secret-hook', eventType: 'kybUpdated' } }), 201);
    const v1 = expectStatus(await server.api.POST('/ramp/webhook', { body: { url: 'https://partner.example/secret-hook', eventType: 'kyb_updated' } }), 201);
    const secrets = [fullKey, server.key, v2.secret, v1.secret];
    for (const s of secrets) expect(s.length).toBeGreaterThan(20);
    // Reads after creation: prefixes at most.
    const keys = expectStatus(await server.api.GET('/organization/{organizationId}/api_keys', { params: { path: { organizationId: server.partnerId } } }), 200);
    const reads = [
      keys,
      expectStatus(await server.api.GET('/webhook_subscription/{id}', { params: { path: { id: v2.id } } }), 200),
      expectStatus(await server.api.GET('/webhook_subscriptions'), 200),
      expectStatus(await server.api.GET('/ramp/webhook/{id}', { params: { path: { id: v1.id } } }), 200),
      expectStatus(await server.api.POST('/ramp/webhooks', { body: {} }), 200),
    ];
    for (const read of reads.map((body) => JSON.stringify(body))) {
      for (const secret of secrets) expect(read).not.toContain(secret);
      expect(read).not.toMatch(/"secret"/);
    }
    expect(keys.items.map((k) => k.keyPrefix)).toContain(fullKey.slice(0, 16));
    // Requests that fail with those secrets in them, and ones that make the server log.
    expectProblem(await server.as(`${fullKey}x`).GET('/organizations'), 401, 'unauthorized');
    // A Bearer-prefixed key, which the typed client refuses to send.
    expectProblem(await server.sendRaw('GET', '/organizations', { key: `Bearer ${fullKey}` }), 401, 'unauthorized');
    expectOAuthError(await requestToken(server, { grant_type: 'refresh_token', refresh_token: v2.secret }), 'invalid_grant');
    // The token endpoint takes no API key: sent anyway, it must not be logged either.
    expectOAuthError(await server.as(null).POST('/auth/token', { body: { grant_type: 'refresh_token', refresh_token: 'x' }, headers: { Authorization: fullKey } }), 'invalid_request');
    expectPlainError(await server.sendRaw('POST', '/ramp/customers', { raw: `{"broken": "${fullKey}`, headers: { 'Content-Type': 'application/json' } }), 400);
    const another = await createCustomer(server, { displayName: 'Another', type: 'business' });
    expectStatus(await server.api.POST('/sandbox/organization/{organizationId}/kyb', { params: { path: { organizationId: another } }, body: { status: 'inProgress' } }), 200);
    // A delivery attempt is logged (to a closed port, so it fails and says why).
    await eventually(async () => (await server.jobs.tick(), server.logs.some((line) => line.includes('webhook attempt'))), waitBudget, 'a logged delivery attempt');
    const logs = server.logs.join('\n');
    for (const secret of secrets) {
      expect(logs).not.toContain(secret);
      // Nor the secret part of a key (its key id) on its own.
      if (secret.startsWith('api_')) expect(logs).not.toContain(secret.split(':')[1]!);
    }
  });
});

describe('webhook URLs in production', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_ENV: 'production' } });
  });
  afterAll(() => server?.close());

  const local = [
    'https://127.0.0.1/hooks', 'https://127.1/hooks', 'https://2130706433/hooks', 'https://0x7f000001/hooks', 'https://[::1]/hooks',
    'https://[::ffff:127.0.0.1]/hooks', 'https://localhost/hooks', 'https://api.localhost/hooks', 'https://10.0.0.8/hooks', 'https://172.16.5.4/hooks',
    'https://192.168.1.10/hooks', 'https://169.254.169.254/latest/meta-data', 'https://[fd00::1]/hooks', 'https://[fe80::1]/hooks', 'https://0.0.0.0/hooks',
    'https://100.64.0.1/hooks', 'https://intranet/hooks', 'https://printer.local/hooks', 'https://db.internal/hooks', 'http://partner.example.com/hooks',
    // IPv6 forms that carry an IPv4 address: IPv4-compatible, NAT64, 6to4, Teredo.
    'https://[::127.0.0.1]/hooks', 'https://[64:ff9b::a9fe:a9fe]/hooks', 'https://[2002:7f00:1::1]/hooks', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hooks',
  ];

  it('refuses loopback, private, link-local and local names, v2 and v1, storing nothing', async () => {
    const before = await rowCounts(server);
    for (const url of local) {
      const v2 = await server.api.POST('/webhook_subscription', { body: { url, eventType: 'orderUpdated' } });
      expectProblem(v2, 400, 'validation-error', `${url} ${describeAnswer(v2)}`);
      const v1 = await server.api.POST('/ramp/webhook', { body: { url, eventType: 'order_updated' } });
      expectPlainError(v1, 400, `${url} ${describeAnswer(v1)}`);
    }
    expect(await rowCounts(server)).toEqual(before);
  });

  it('accepts a public https URL', async () => {
    expectStatus(await server.api.POST('/webhook_subscription', { body: { url: 'https://hooks.partner-example.com/ramp', eventType: 'orderUpdated' } }), 201);
  });
});
