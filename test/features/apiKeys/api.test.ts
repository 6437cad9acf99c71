/**
 * API keys (v2.yaml, Authentication) through the designed key endpoints: format and
 * environment checks, salted hashes, 5 active keys at most, business organizations with KYB
 * approved only, the whole key once then its first 16 characters, revocation at once.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../server/features/apiKeys/useCases.ts';
import { expectStatus, type Api } from '../../support/api.ts';
import { expectProblem } from '../../support/errors.ts';
import { rowCounts } from '../../support/organizations.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { approve, createCustomer, keyedBusinessChild, stranger } from '../../support/fixtures.ts';

const keyPattern = /^api_sand:[A-Za-z0-9]{32}:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const createKey = (api: Api, organizationId: string) => api.POST('/organization/{organizationId}/api_key', { params: { path: { organizationId } } });
const deleteKey = (api: Api, organizationId: string, id: string) => api.DELETE('/organization/{organizationId}/api_key/{id}', { params: { path: { organizationId, id } } });
const listKeys = (api: Api, organizationId: string, query: { pageSize?: number; pageNumber?: number } = {}) =>
  api.GET('/organization/{organizationId}/api_keys', { params: { path: { organizationId }, query } });
const getOrganization = (api: Api, organizationId: string) => api.GET('/organization/{organizationId}', { params: { path: { organizationId } } });

async function activeKeys(server: TestServer, organizationId: string) {
  return expectStatus(await listKeys(server.api, organizationId, { pageSize: 100 }), 200).items;
}

describe('API keys', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('are shown whole once, then by their first 16 characters only', async () => {
    const created = expectStatus(await createKey(server.api, server.partnerId), 201);
    const { key, id, keyPrefix } = created;
    expect(key).toMatch(keyPattern);
    expect(key.endsWith(`:${server.partnerId}`)).toBe(true);
    expect(keyPrefix).toBe(key.slice(0, 16));
    expect(created).toMatchObject({ organizationId: server.partnerId, lastUsedAt: null });
    // The id to delete it by is not part of the key.
    expect(key).not.toContain(id);

    const listing = expectStatus(await listKeys(server.api, server.partnerId), 200);
    const listed = listing.items.find((item) => item.id === id);
    expect(listed).toEqual({ id, organizationId: server.partnerId, keyPrefix, createdAt: created.createdAt, lastUsedAt: null });
    expect(JSON.stringify(listing)).not.toContain(key.split(':')[1]);

    // The new key works on both generations, and its use shows.
    expectStatus(await server.as(key).GET('/organizations'), 200);
    expectStatus(await server.as(key).GET('/ramp/customers'), 200);
    const used = (await activeKeys(server, server.partnerId)).find((item) => item.id === id)!;
    expect(Date.parse(used.lastUsedAt!)).toBeGreaterThanOrEqual(Date.parse(created.createdAt));
    expectStatus(await deleteKey(server.api, server.partnerId, id), 204);
  });

  it('are stored as a hash salted per organization, never the key or its secret segment', async () => {
    const { key, id } = expectStatus(await createKey(server.api, server.partnerId), 201);
    const secret = key.split(':')[1]!;
    const db = server.services.storage.db;
    const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.hash).not.toBe(createHash('sha256').update(key).digest('hex'));
    const salts = await db.selectFrom('organizations').select('key_salt').execute();
    expect(new Set(salts.map((s) => s.key_salt)).size).toBe(salts.length);
    // Under another organization's id the same secret is no key at all.
    const child = await keyedBusinessChild(server);
    const moved = `api_sand:${secret}:${child.id}`;
    expectProblem(await server.as(moved).GET('/organizations'), 401, 'unauthorized');
    expectStatus(await deleteKey(server.api, server.partnerId, id), 204);
  });

  it('are at most 5 active per organization: the sixth is 409 conflict, until one is deleted', async () => {
    const child = await keyedBusinessChild(server);
    const create = () => createKey(server.as(child.key), child.id);
    for (let i = 0; i < 4; i++) expectStatus(await create(), 201);
    expect(await activeKeys(server, child.id)).toHaveLength(5);
    const before = await rowCounts(server);
    expect(expectProblem(await create(), 409, 'conflict').detail).toContain('5 active');
    expect(await rowCounts(server)).toEqual(before);
    // The partner revokes one of its customer's keys (the newest, not the one creating);
    // the customer may create one again.
    const newest = (await activeKeys(server, child.id)).at(-1)!;
    expect(newest.keyPrefix).not.toBe(child.key.slice(0, 16));
    expectStatus(await deleteKey(server.api, child.id, newest.id), 204);
    const again = expectStatus(await create(), 201);
    expect(await activeKeys(server, child.id)).toHaveLength(5);
    expectStatus(await getOrganization(server.as(again.key), child.id), 200);
  });

  it('hold the limit under concurrent creation', async () => {
    const child = await keyedBusinessChild(server);
    const results = await Promise.all(Array.from({ length: 10 }, () => createKey(server.as(child.key), child.id)));
    const statuses = results.map((r) => r.response.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(4);
    expect(statuses.filter((s) => s === 409)).toHaveLength(6);
    expect(await activeKeys(server, child.id)).toHaveLength(5);
  });

  it('are listed oldest first, a page at a time', async () => {
    const child = await keyedBusinessChild(server);
    for (let i = 0; i < 2; i++) expectStatus(await createKey(server.as(child.key), child.id), 201);
    const all = await activeKeys(server, child.id);
    expect(all).toHaveLength(3);
    expect(all.map((k) => k.createdAt)).toEqual([...all.map((k) => k.createdAt)].sort());
    expect(all[0]!.keyPrefix).toBe(child.key.slice(0, 16));
    expect(expectStatus(await listKeys(server.api, child.id, { pageSize: 2, pageNumber: 1 }), 200)).toEqual({ items: [all[2]], totalItems: 3, pageSize: 2, pageNumber: 1, totalPages: 2 });
    expect(expectStatus(await listKeys(server.api, child.id, { pageSize: 2, pageNumber: 5 }), 200)).toEqual({ items: [], totalItems: 3, pageSize: 2, pageNumber: 5, totalPages: 2 });
  });

  it('are revoked at once by deletion, no longer listed, and a second deletion is 404', async () => {
    const child = await keyedBusinessChild(server);
    const [listed] = await activeKeys(server, child.id);
    // A key may revoke itself.
    expectStatus(await deleteKey(server.as(child.key), child.id, listed!.id), 204);
    expectProblem(await getOrganization(server.as(child.key), child.id), 401, 'unauthorized');
    expect(await activeKeys(server, child.id)).toEqual([]);
    expectProblem(await deleteKey(server.api, child.id, listed!.id), 404, 'not-found');
  });

  it("are created by the organization that holds them: never by a partner for its customer (403 forbidden)", async () => {
    // Whatever the customer: a person, a business whose KYB is pending, one approved.
    const person = await createCustomer(server, { type: 'personal' });
    const pending = await createCustomer(server, { type: 'business' });
    const approved = await createCustomer(server, { type: 'business' });
    await approve(server, approved);
    for (const id of [person, pending, approved, approved.toUpperCase()]) {
      const before = await rowCounts(server);
      const refused = expectProblem(await createKey(server.api, id), 403, 'forbidden');
      expect(refused.detail).toBe('API keys are created by the organization that holds them; a partner acts for its customer organizations with its own key.');
      expect(await rowCounts(server)).toEqual(before);
      expect(await activeKeys(server, id)).toEqual([]);
    }
    // The partner still acts for the customer with its own key, and creates keys for itself.
    expectStatus(await getOrganization(server.api, approved), 200);
    const own = expectStatus(await createKey(server.api, server.partnerId), 201);
    expectStatus(await deleteKey(server.api, server.partnerId, own.id), 204);
  });

  it("so a partner never reaches its customers' customers, though a customer with a key of its own does", async () => {
    const child = await keyedBusinessChild(server);
    const grandchild = await createCustomer(server, { key: child.key, type: 'business', approved: true });
    // The partner can neither address the grandchild nor mint the key that would.
    expectProblem(await getOrganization(server.api, grandchild), 404, 'not-found');
    expectProblem(await createKey(server.api, child.id), 403, 'forbidden');
    expectProblem(await createKey(server.api, grandchild), 404, 'not-found');
    // The customer's own key acts as the customer: its child is its direct child.
    expectStatus(await getOrganization(server.as(child.key), grandchild), 200);
    expectProblem(await createKey(server.as(child.key), grandchild), 403, 'forbidden');
  });

  it('exist only for business organizations whose KYB is approved', async () => {
    // No key can reach such an organization as its own, so the rule is shown on the domain.
    const person = await createCustomer(server, { type: 'personal' });
    await expect(issueApiKey(server.services, person)).rejects.toMatchObject({ slug: 'forbidden', detail: 'Only business organizations can hold API keys.' });
    const business = await createCustomer(server, { type: 'business' });
    await expect(issueApiKey(server.services, business)).rejects.toMatchObject({ slug: 'forbidden', detail: expect.stringMatching(/KYB/) });
    expect(await activeKeys(server, business)).toEqual([]);
    await approve(server, business);
    const { key } = await issueApiKey(server.services, business);
    // The customer's key acts for the customer, not for its parent.
    expectStatus(await getOrganization(server.as(key), business), 200);
    expectProblem(await getOrganization(server.as(key), server.partnerId), 404, 'not-found');
  });

  it('are listed and revoked for the own organization or a direct child only', async () => {
    const child = await keyedBusinessChild(server);
    const grandchild = await createCustomer(server, { key: child.key, type: 'business', approved: true });
    const other = await stranger(server);
    for (const id of [grandchild, other]) {
      expectProblem(await createKey(server.api, id), 404, 'not-found', `createApiKey ${id}`);
      expectProblem(await listKeys(server.api, id), 404, 'not-found', `listApiKeys ${id}`);
    }
    // The partner deletes its child's key only under the child's id, not under its own.
    const [childKey] = await activeKeys(server, child.id);
    expectProblem(await deleteKey(server.api, server.partnerId, childKey!.id), 404, 'not-found');
    expectStatus(await getOrganization(server.as(child.key), child.id), 200);
    // The child cannot see its parent's keys.
    expectProblem(await listKeys(server.as(child.key), server.partnerId), 404, 'not-found');
  });

  it('refuse a key id that is not a uuid with invalid-request', async () => {
    expectProblem(await deleteKey(server.api, server.partnerId, 'abc'), 400, 'invalid-request');
  });
});

// Starts two more servers: slow on a loaded machine.
describe('API keys in production', () => {
  it('are production keys, refused by the sandbox', async () => {
    const production = await startTestServer({ env: { RAMP_ENV: 'production' } });
    const sandbox = await startTestServer();
    try {
      const created = expectStatus(await createKey(production.api, production.partnerId), 201);
      expect(created.key).toMatch(/^api_prod:/);
      expectStatus(await production.as(created.key).GET('/organizations'), 200);
      expectProblem(await sandbox.as(created.key).GET('/organizations'), 401, 'unauthorized');
    } finally {
      await production.close();
      await sandbox.close();
    }
  });
});
