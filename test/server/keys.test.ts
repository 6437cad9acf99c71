/**
 * API keys (v2.yaml, Authentication) through the designed key endpoints: format and
 * environment checks, salted hashes, 5 active keys at most, business organizations with KYB
 * approved only, the whole key once then its first 16 characters, revocation at once.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../server/features/apiKeys/useCases.ts';
import { expectProblem } from '../support/errors.ts';
import { rowCounts } from '../support/organizations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { approve, createCustomer, keyedBusinessChild, stranger } from '../support/fixtures.ts';

const keyPattern = /^api_sand:[A-Za-z0-9]{32}:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function activeKeys(server: TestServer, organizationId: string, key?: string) {
  const response = await server.call('GET', `/organization/${organizationId}/api_keys?pageSize=100`, { key });
  expect(response.status, response.text_).toBe(200);
  return response.json_.items as { id: string; keyPrefix: string; organizationId: string; createdAt: string; lastUsedAt: string | null }[];
}

describe('API keys', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('are shown whole once, then by their first 16 characters only', async () => {
    const created = await server.call('POST', `/organization/${server.partnerId}/api_key`);
    expect(created.status).toBe(201);
    const { key, id, keyPrefix } = created.json_;
    expect(key).toMatch(keyPattern);
    expect(key.endsWith(`:${server.partnerId}`)).toBe(true);
    expect(keyPrefix).toBe(key.slice(0, 16));
    expect(created.json_).toMatchObject({ organizationId: server.partnerId, lastUsedAt: null });
    // The id to delete it by is not part of the key.
    expect(key).not.toContain(id);

    const listing = await server.call('GET', `/organization/${server.partnerId}/api_keys`);
    const listed = listing.json_.items.find((item: { id: string }) => item.id === id);
    expect(listed).toEqual({ id, organizationId: server.partnerId, keyPrefix, createdAt: created.json_.createdAt, lastUsedAt: null });
    expect(listing.text_).not.toContain(key.split(':')[1]);

    // The new key works on both generations, and its use shows.
    expect((await server.call('GET', '/organizations', { key })).status).toBe(200);
    expect((await server.call('GET', '/ramp/customers', { key })).status).toBe(200);
    const used = (await activeKeys(server, server.partnerId)).find((item) => item.id === id)!;
    expect(Date.parse(used.lastUsedAt!)).toBeGreaterThanOrEqual(Date.parse(created.json_.createdAt));
    await server.call('DELETE', `/organization/${server.partnerId}/api_key/${id}`);
  });

  it('are stored as a hash salted per organization, never the key or its secret segment', async () => {
    const { key, id } = (await server.call('POST', `/organization/${server.partnerId}/api_key`)).json_;
    const secret = key.split(':')[1];
    const db = server.services.storage.db;
    const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.hash).not.toBe(createHash('sha256').update(key).digest('hex'));
    const salts = await db.selectFrom('organizations').select('key_salt').execute();
    expect(new Set(salts.map((s) => s.key_salt)).size).toBe(salts.length);
    // Under another organization's id the same secret is no key at all.
    const child = await keyedBusinessChild(server);
    const moved = `api_sand:${secret}:${child.id}`;
    expect((await server.call('GET', '/organizations', { key: moved })).status).toBe(401);
    await server.call('DELETE', `/organization/${server.partnerId}/api_key/${id}`);
  });

  it('are at most 5 active per organization: the sixth is 409 conflict, until one is deleted', async () => {
    const child = await keyedBusinessChild(server);
    const create = () => server.call('POST', `/organization/${child.id}/api_key`, { key: child.key });
    for (let i = 0; i < 4; i++) expect((await create()).status).toBe(201);
    expect(await activeKeys(server, child.id)).toHaveLength(5);
    const before = await rowCounts(server);
    const sixth = await create();
    expect(sixth.status).toBe(409);
    expect(sixth.json_).toMatchObject({ type: 'https://docs.ramp.example/errors/conflict', detail: expect.stringContaining('5 active') });
    expect(await rowCounts(server)).toEqual(before);
    // The partner revokes one of its customer's keys (the newest, not the one creating);
    // the customer may create one again.
    const newest = (await activeKeys(server, child.id)).at(-1)!;
    expect(newest.keyPrefix).not.toBe(child.key.slice(0, 16));
    expect((await server.call('DELETE', `/organization/${child.id}/api_key/${newest.id}`)).status).toBe(204);
    const again = await create();
    expect(again.status).toBe(201);
    expect(await activeKeys(server, child.id)).toHaveLength(5);
    expect((await server.call('GET', `/organization/${child.id}`, { key: again.json_.key })).status).toBe(200);
  });

  it('hold the limit under concurrent creation', async () => {
    const child = await keyedBusinessChild(server);
    const results = await Promise.all(Array.from({ length: 10 }, () => server.call('POST', `/organization/${child.id}/api_key`, { key: child.key })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(4);
    expect(statuses.filter((s) => s === 409)).toHaveLength(6);
    expect(await activeKeys(server, child.id)).toHaveLength(5);
  });

  it('are listed oldest first, a page at a time', async () => {
    const child = await keyedBusinessChild(server);
    for (let i = 0; i < 2; i++) await server.call('POST', `/organization/${child.id}/api_key`, { key: child.key });
    const all = await activeKeys(server, child.id);
    expect(all).toHaveLength(3);
    expect(all.map((k) => k.createdAt)).toEqual([...all.map((k) => k.createdAt)].sort());
    expect(all[0]!.keyPrefix).toBe(child.key.slice(0, 16));
    const page1 = await server.call('GET', `/organization/${child.id}/api_keys?pageSize=2&pageNumber=1`);
    expect(page1.json_).toEqual({ items: [all[2]], totalItems: 3, pageSize: 2, pageNumber: 1, totalPages: 2 });
    const past = await server.call('GET', `/organization/${child.id}/api_keys?pageSize=2&pageNumber=5`);
    expect(past.json_).toEqual({ items: [], totalItems: 3, pageSize: 2, pageNumber: 5, totalPages: 2 });
  });

  it('are revoked at once by deletion, no longer listed, and a second deletion is 404', async () => {
    const child = await keyedBusinessChild(server);
    const [listed] = await activeKeys(server, child.id);
    // A key may revoke itself.
    expect((await server.call('DELETE', `/organization/${child.id}/api_key/${listed!.id}`, { key: child.key })).status).toBe(204);
    expect((await server.call('GET', `/organization/${child.id}`, { key: child.key })).status).toBe(401);
    expect(await activeKeys(server, child.id)).toEqual([]);
    const again = await server.call('DELETE', `/organization/${child.id}/api_key/${listed!.id}`);
    expect(again.status).toBe(404);
    expect(again.json_.type).toBe('https://docs.ramp.example/errors/not-found');
  });

  it("are created by the organization that holds them: never by a partner for its customer (403 forbidden)", async () => {
    // Whatever the customer: a person, a business whose KYB is pending, one approved.
    const person = await createCustomer(server, { type: 'personal' });
    const pending = await createCustomer(server, { type: 'business' });
    const approved = await createCustomer(server, { type: 'business' });
    await approve(server, approved);
    for (const id of [person, pending, approved, approved.toUpperCase()]) {
      const before = await rowCounts(server);
      const refused = await server.call('POST', `/organization/${id}/api_key`);
      expectProblem(refused, 403, 'forbidden');
      expect(refused.json_.detail).toBe('API keys are created by the organization that holds them; a partner acts for its customer organizations with its own key.');
      expect(await rowCounts(server)).toEqual(before);
      expect(await activeKeys(server, id)).toEqual([]);
    }
    // The partner still acts for the customer with its own key, and creates keys for itself.
    expect((await server.call('GET', `/organization/${approved}`)).status).toBe(200);
    const own = await server.call('POST', `/organization/${server.partnerId}/api_key`);
    expect(own.status).toBe(201);
    await server.call('DELETE', `/organization/${server.partnerId}/api_key/${own.json_.id}`);
  });

  it("so a partner never reaches its customers' customers, though a customer with a key of its own does", async () => {
    const child = await keyedBusinessChild(server);
    const grandchild = await createCustomer(server, { key: child.key, type: 'business', approved: true });
    // The partner can neither address the grandchild nor mint the key that would.
    expectProblem(await server.call('GET', `/organization/${grandchild}`), 404, 'not-found');
    expectProblem(await server.call('POST', `/organization/${child.id}/api_key`), 403, 'forbidden');
    expectProblem(await server.call('POST', `/organization/${grandchild}/api_key`), 404, 'not-found');
    // The customer's own key acts as the customer: its child is its direct child.
    expect((await server.call('GET', `/organization/${grandchild}`, { key: child.key })).status).toBe(200);
    expectProblem(await server.call('POST', `/organization/${grandchild}/api_key`, { key: child.key }), 403, 'forbidden');
  });

  it('exist only for business organizations whose KYB is approved', async () => {
    // No key can reach such an organization as its own, so the rule is shown on the domain.
    const { storage, config } = server.services;
    const person = await createCustomer(server, { type: 'personal' });
    await expect(issueApiKey(storage, config, person, new Date())).rejects.toMatchObject({ slug: 'forbidden', detail: 'Only business organizations can hold API keys.' });
    const business = await createCustomer(server, { type: 'business' });
    await expect(issueApiKey(storage, config, business, new Date())).rejects.toMatchObject({ slug: 'forbidden', detail: expect.stringMatching(/KYB/) });
    expect(await activeKeys(server, business)).toEqual([]);
    await approve(server, business);
    const { key } = await issueApiKey(storage, config, business, new Date());
    // The customer's key acts for the customer, not for its parent.
    expect((await server.call('GET', `/organization/${business}`, { key })).status).toBe(200);
    expect((await server.call('GET', `/organization/${server.partnerId}`, { key })).status).toBe(404);
  });

  it('are listed and revoked for the own organization or a direct child only', async () => {
    const child = await keyedBusinessChild(server);
    const grandchild = await createCustomer(server, { key: child.key, type: 'business', approved: true });
    const other = await stranger(server);
    for (const id of [grandchild, other]) {
      for (const [method, path] of [['POST', `/organization/${id}/api_key`], ['GET', `/organization/${id}/api_keys`]] as const) {
        const response = await server.call(method, path);
        expect(response.status, `${method} ${path}`).toBe(404);
      }
    }
    // The partner deletes its child's key only under the child's id, not under its own.
    const [childKey] = await activeKeys(server, child.id);
    expect((await server.call('DELETE', `/organization/${server.partnerId}/api_key/${childKey!.id}`)).status).toBe(404);
    expect((await server.call('GET', `/organization/${child.id}`, { key: child.key })).status).toBe(200);
    // The child cannot see its parent's keys.
    expect((await server.call('GET', `/organization/${server.partnerId}/api_keys`, { key: child.key })).status).toBe(404);
  });

  it('refuse a key id that is not a uuid with invalid-request', async () => {
    const response = await server.call('DELETE', `/organization/${server.partnerId}/api_key/abc`);
    expect(response.status).toBe(400);
    expect(response.json_.type).toBe('https://docs.ramp.example/errors/invalid-request');
  });
});

// Starts two more servers: slow on a loaded machine.
describe('API keys in production', () => {
  it('are production keys, refused by the sandbox', async () => {
    const production = await startTestServer({ env: { RAMP_ENV: 'production' } });
    const sandbox = await startTestServer();
    try {
      const created = await production.call('POST', `/organization/${production.partnerId}/api_key`);
      expect(created.status).toBe(201);
      expect(created.json_.key).toMatch(/^api_prod:/);
      expect((await production.call('GET', '/organizations', { key: created.json_.key })).status).toBe(200);
      expect((await sandbox.call('GET', '/organizations', { key: created.json_.key })).status).toBe(401);
    } finally {
      await production.close();
      await sandbox.close();
    }
  });
});
