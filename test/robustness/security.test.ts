/**
 * Security review, as tests: a key never reaches another partner's objects nor its own
 * grandchildren, and what it cannot reach looks exactly like what does not exist (404, never
 * 403); a deleted key is refused at once; secrets are returned once and never logged;
 * production refuses webhook URLs that point at loopback or private addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../fuzz/contract.ts';
import { slugOf } from '../support/errors.ts';
import { rowCounts } from '../support/organizations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createBankAccount, createWallet } from '../support/v1Money.ts';
import { eventually } from '../webhooks/support.ts';
import { waitBudget } from '../support/wait.ts';
import { createCustomer, keyedBusinessChild, otherPartner, readyAccount, solanaAddress } from '../support/fixtures.ts';

/** What an error answer says, with ids taken out (they name what was asked for). */
const shapeOf = (response: { status: number; json_: any; text_: string }) =>
  `${response.status} ${(response.json_?.type ?? response.json_?.error ?? response.text_).toString().replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')}`;

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
    await server.call('POST', `/organization/${p}/wallet`, { body: { custody: 'external', address: wallet, blockchain: 'solana' } });
    mine.paymentAccount = (await readyAccount(server, p)).id;
    const quote = await server.call('POST', `/organization/${p}/quote`, { body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: wallet } });
    mine.order = (await server.call('POST', `/organization/${p}/order`, { body: { quoteId: quote.json_.quoteId } })).json_.id;
    mine.subscription = (await server.call('POST', '/webhook_subscription', { body: { url: 'http://127.0.0.1:9/hook', eventType: 'orderUpdated' } })).json_.id;
    mine.customer = await createCustomer(server, { approved: true });
    const v1Wallet = await createWallet(server, mine.customer);
    mine.v1Wallet = v1Wallet.id;
    mine.v1BankAccount = (await createBankAccount(server, mine.customer)).internalAccountId;
    mine.v1Order = (await server.call('POST', '/ramp/order', { body: { customerId: mine.customer, type: 'onramp', sourceAmount: '250.00', walletId: v1Wallet.id, token: 'CETES' } })).json_.id;
    mine.v1Webhook = (await server.call('POST', '/ramp/webhook', { body: { url: 'https://partner.example/hooks', eventType: 'order_updated' } })).json_.id;
    mine.apiKey = (await server.call('POST', `/organization/${p}/api_key`)).json_.id;
    // A business child with a key of its own (which A's key cannot create), and that child's
    // own customer: A's grandchild.
    child = await keyedBusinessChild(server);
    expect((await server.call('POST', `/organization/${child.id}/api_key`)).status).toBe(403);
    grandchild = (await server.call('POST', '/ramp/organization', { key: child.key, body: { displayName: 'Grandchild', type: 'personal' } })).json_.organizationId;
    mine.event = (await server.services.storage.db.selectFrom('events').select('id').where('partner_id', '=', p).executeTakeFirstOrThrow()).id;
    for (const [name, id] of Object.entries(mine)) expect(id, name).toMatch(/^[0-9a-f-]{36}$/);
  }, 120_000);
  afterAll(() => server?.close());

  /** The id of A's object that a path parameter of this path names. */
  function idFor(path: string, parameter: string): string {
    if (parameter === 'organizationId' || parameter === 'org_id') return server.partnerId;
    if (parameter === 'customer_id') return mine.customer!;
    if (parameter === 'eventId') return mine.event!;
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
      const body = op.body ? { body: {} } : {};
      const real = await server.call(op.method, fill((name) => idFor(op.path, name)), { key: stranger.key, ...body });
      const none = await server.call(op.method, fill(() => crypto.randomUUID()), { key: stranger.key, ...body });
      const where = `${op.operationId} ${op.method} ${op.path}: ${real.status} ${real.text_.slice(0, 200)}`;
      expect(real.status, where).not.toBe(403);
      expect(real.status, where).toBeGreaterThanOrEqual(400);
      expect(shapeOf(real), where).toBe(shapeOf(none));
      if (op.method === 'GET') expect(real.status, where).toBe(404);
      tried.push(op.operationId);
    }
    expect(tried.length).toBeGreaterThan(40);
    expect(await rowCounts(server)).toEqual(before);
    // A itself reads every one of them: they exist.
    for (const path of [`/organization/${server.partnerId}/payment_account/${mine.paymentAccount}`, `/organization/${server.partnerId}/order/${mine.order}`, `/webhook_subscription/${mine.subscription}`, `/ramp/order/${mine.v1Order}`, `/ramp/wallet/${mine.v1Wallet}`, `/ramp/bank-account/${mine.v1BankAccount}`, `/ramp/webhook/${mine.v1Webhook}`, `/ramp/customer/${mine.customer}`]) {
      expect((await server.call('GET', path)).status, path).toBe(200);
    }
  });

  it('keeps lists to the key\'s own objects', async () => {
    for (const path of ['/organizations', '/orders', '/webhook_subscriptions', `/organization/${stranger.partnerId}/api_keys`]) {
      const response = await server.call('GET', path, { key: stranger.key });
      if (response.status === 200) expect(JSON.stringify(response.json_.items), path).not.toMatch(new RegExp(Object.values(mine).join('|')));
    }
    for (const path of ['/ramp/customers', '/ramp/orders', '/ramp/wallets', '/ramp/bank-accounts', '/ramp/webhooks']) {
      const response = await server.call('POST', path, { key: stranger.key, body: {} });
      expect(response.status).toBe(200);
      expect(response.json_.items, path).toEqual([]);
    }
  });

  it('does not reach grandchildren, nor lets a child reach its parent, and says 404 like for nothing', async () => {
    const random = crypto.randomUUID();
    for (const [method, path, body] of [
      ['GET', '/organization/{id}', undefined], ['GET', '/organization/{id}/kyc', undefined], ['GET', '/organization/{id}/payment_accounts', undefined],
      ['POST', '/organization/{id}/quote', { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '10.00', rail: 'spei', walletAddress: solanaAddress() }],
      ['PUT', '/ramp/organization/{id}/name', { displayName: 'Renamed' }], ['GET', '/ramp/customer/{id}', undefined], ['POST', '/ramp/customer/{id}/orders', {}],
      ['GET', '/orders?organizationId={id}', undefined],
    ] as const) {
      const grand = await server.call(method, path.replace('{id}', grandchild), body === undefined ? {} : { body });
      const none = await server.call(method, path.replace('{id}', random), body === undefined ? {} : { body });
      expect(grand.status, `${method} ${path} ${grand.text_.slice(0, 200)}`).toBe(404);
      expect(shapeOf(grand)).toBe(shapeOf(none));
    }
    // The child's key works on the grandchild (its own child), not on its parent.
    expect((await server.call('GET', `/organization/${grandchild}`, { key: child.key })).status).toBe(200);
    const up = await server.call('GET', `/organization/${server.partnerId}`, { key: child.key });
    expect(up.status).toBe(404);
    expect(slugOf(up)).toBe('not-found');
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
    const created = await server.call('POST', `/organization/${own}/api_key`);
    const key = created.json_.key as string;
    expect((await server.call('GET', `/organization/${own}`, { key })).status).toBe(200);
    expect((await server.call('DELETE', `/organization/${own}/api_key/${created.json_.id}`)).status).toBe(204);
    const v2 = await server.call('GET', `/organization/${own}`, { key });
    expect(v2.status).toBe(401);
    expect(slugOf(v2)).toBe('unauthorized');
    const v1 = await server.call('POST', '/ramp/customers', { key, body: {} });
    expect(v1.status).toBe(401);
    // Deleting a key twice is not found.
    expect((await server.call('DELETE', `/organization/${own}/api_key/${created.json_.id}`)).status).toBe(404);
  });

  it('returns secrets only in the creation response and never writes them to the logs', { timeout: 180_000 }, async () => {
    const key = await server.call('POST', `/organization/${server.partnerId}/api_key`);
    expect(key.status).toBe(201);
    const fullKey = key.json_.key as string;
    const v2 = await server.call('POST', '/webhook_subscription', { body: { url: 'http://127.0.0.1:9/secret-hook', eventType: 'kybUpdated' } });
    const v1 = await server.call('POST', '/ramp/webhook', { body: { url: 'https://partner.example/secret-hook', eventType: 'kyb_updated' } });
    expect([key.status, v2.status, v1.status]).toEqual([201, 201, 201]);
    const secrets = [fullKey, server.key, v2.json_.secret as string, v1.json_.secret as string];
    for (const s of secrets) expect(s.length).toBeGreaterThan(20);
    // Reads after creation: prefixes at most.
    const reads = [
      await server.call('GET', `/organization/${server.partnerId}/api_keys`),
      await server.call('GET', `/webhook_subscription/${v2.json_.id}`),
      await server.call('GET', '/webhook_subscriptions'),
      await server.call('GET', `/ramp/webhook/${v1.json_.id}`),
      await server.call('POST', '/ramp/webhooks', { body: {} }),
    ];
    for (const read of reads) {
      expect(read.status).toBe(200);
      for (const secret of secrets) expect(read.text_).not.toContain(secret);
      expect(read.text_).not.toMatch(/"secret"/);
    }
    expect(reads[0]!.json_.items.map((k: any) => k.keyPrefix)).toContain(fullKey.slice(0, 16));
    // Requests that fail with those secrets in them, and ones that make the server log.
    await server.call('GET', '/organizations', { key: `${fullKey}x` });
    await server.call('GET', '/organizations', { key: `Bearer ${fullKey}` });
    await server.call('POST', '/auth/token', { key: null, body: { grant_type: 'refresh_token', refresh_token: v2.json_.secret } });
    await server.call('POST', '/auth/token', { key: fullKey, body: { grant_type: 'refresh_token', refresh_token: 'x' } });
    await server.call('POST', '/ramp/customers', { raw: `{"broken": "${fullKey}`, headers: { 'Content-Type': 'application/json' } });
    const another = (await server.call('POST', '/ramp/organization', { body: { displayName: 'Another', type: 'business' } })).json_.organizationId;
    expect((await server.call('POST', `/sandbox/organization/${another}/kyb`, { body: { status: 'inProgress' } })).status).toBe(200);
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
      const v2 = await server.call('POST', '/webhook_subscription', { body: { url, eventType: 'orderUpdated' } });
      expect(v2.status, `${url} ${v2.text_}`).toBe(400);
      expect(slugOf(v2)).toBe('validation-error');
      const v1 = await server.call('POST', '/ramp/webhook', { body: { url, eventType: 'order_updated' } });
      expect(v1.status, `${url} ${v1.text_}`).toBe(400);
    }
    expect(await rowCounts(server)).toEqual(before);
  });

  it('accepts a public https URL', async () => {
    const accepted = await server.call('POST', '/webhook_subscription', { body: { url: 'https://hooks.partner-example.com/ramp', eventType: 'orderUpdated' } });
    expect(accepted.status, accepted.text_).toBe(201);
  });
});
