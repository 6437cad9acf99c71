/**
 * Organizations: the partner and its direct children (v2 `GET /organizations`,
 * `GET /organization/{id}`), and v1 creation and renaming (v1CreateOrganization, v1RenameOrganization).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type Api, type RequestBody } from '../../support/api.ts';
import { expectPlainError, expectProblem } from '../../support/errors.ts';
import { rowCounts } from '../../support/organizations.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createCustomer, keyedBusinessChild, stranger } from '../../support/fixtures.ts';

const organization = (api: Api, organizationId: string) => api.GET('/organization/{organizationId}', { params: { path: { organizationId } } });
const customer = (api: Api, customerId: string) => api.GET('/ramp/customer/{customer_id}', { params: { path: { customer_id: customerId } } });
const rename = (api: Api, organizationId: string, displayName: string) =>
  api.PUT('/ramp/organization/{org_id}/name', { params: { path: { org_id: organizationId } }, body: { displayName } });
const listOrganizations = (api: Api, query: { pageSize?: number; pageNumber?: number } = {}) => api.GET('/organizations', { params: { query } });

describe('organizations', () => {
  let server: TestServer;
  let time = Date.parse('2026-01-01T00:00:00Z');
  beforeAll(async () => {
    // Each creation a second apart, so "newest first" has one right answer.
    server = await startTestServer({ clock: { now: () => new Date((time += 1000)) } });
  });
  afterAll(() => server.close());
  const create = (body: RequestBody<'v1CreateOrganization'>) => server.api.POST('/ramp/organization', { body });

  describe('v1 POST /ramp/organization', () => {
    it('creates a child of the key organization, with a generated id or the one given', async () => {
      const generated = expectStatus(await create({ displayName: '  Tacos El Güero SA de CV ', type: 'business' }), 201);
      expect(generated).toEqual({
        organizationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        displayName: 'Tacos El Güero SA de CV',
        type: 'business',
        parentOrganizationId: server.partnerId,
        createdAt: expect.any(String),
      });
      const id = randomUUID();
      const chosen = expectStatus(await create({ organizationId: id.toUpperCase(), displayName: 'María', type: 'personal' }), 201);
      // Ids are stored in their canonical lowercase form, as keys carry them.
      expect(chosen.organizationId).toBe(id);
      expect(expectStatus(await organization(server.api, id), 200)).toEqual(chosen);
      expect(expectStatus(await customer(server.api, id), 200)).toMatchObject({ customerId: id, displayName: 'María', status: 'customer_pending' });
    });

    it('removes only ASCII whitespace around the name, the set the contract names, so any other character is a name', async () => {
      // What a partner sees: a name the contract's pattern accepts is stored, never refused by the service.
      const cases: [string, string][] = [
        ['\t Acme \r\n', 'Acme'],
        ['\u00a0', '\u00a0'],
        ['\u3000Tacos\u3000', '\u3000Tacos\u3000'],
        ['\ufeff', '\ufeff'],
      ];
      for (const [displayName, stored] of cases) {
        const created = expectStatus(await create({ displayName, type: 'personal' }), 201);
        expect(created.displayName, JSON.stringify(displayName)).toBe(stored);
        expect(expectStatus(await organization(server.api, created.organizationId), 200).displayName).toBe(stored);
        expect(expectStatus(await rename(server.api, created.organizationId, ` ${displayName}\f`), 200).displayName).toBe(stored);
      }
    });

    it('is 409 on an id already used, by any organization, and stores nothing', async () => {
      const child = await createCustomer(server);
      const other = await stranger(server);
      for (const id of [child, server.partnerId, other, child.toUpperCase()]) {
        const before = await rowCounts(server);
        const refused = expectPlainError(await create({ organizationId: id, displayName: 'Again', type: 'personal' }), 409, id);
        expect(refused).toEqual({ error: 'Organization id is already in use' });
        expect(await rowCounts(server)).toEqual(before);
      }
      expect(expectStatus(await organization(server.api, child), 200).displayName).not.toBe('Again');
    });

    it('gives one id to one of two concurrent creations', async () => {
      const id = randomUUID();
      const results = await Promise.all([1, 2, 3].map((n) => create({ organizationId: id, displayName: `Racer ${n}`, type: 'personal' })));
      expect(results.map((r) => r.response.status).sort()).toEqual([201, 409, 409]);
    });

    it('refuses a bad body with {"error": ...}: missing or blank name, unknown type, bad id, malformed JSON', async () => {
      const typed: [RequestBody<'v1CreateOrganization'>, RegExp][] = [
        // Blank: only ASCII whitespace, which the contract's pattern refuses.
        [{ displayName: '   ', type: 'personal' }, /^displayName must match pattern/],
        [{ displayName: ' \t\r\n\f', type: 'personal' }, /^displayName must match pattern/],
        [{ displayName: '', type: 'personal' }, /displayName/],
        [{ displayName: 'x'.repeat(201), type: 'personal' }, /displayName/],
        [{ displayName: 'Bad id', type: 'personal', organizationId: 'not-a-uuid' }, /organizationId/],
      ];
      // Bodies the contract refuses: a required field missing, a type its enum does not hold.
      const raw: [object, RegExp][] = [
        [{ type: 'personal' }, /^displayName is required$/],
        [{ displayName: 'Robot', type: 'robot' }, /type/],
        [{ displayName: 'Robot' }, /^type is required$/],
      ];
      const before = await rowCounts(server);
      for (const [body, message] of typed) expect(expectPlainError(await create(body), 400, JSON.stringify(body)).error, JSON.stringify(body)).toMatch(message);
      for (const [body, message] of raw) {
        expect(expectPlainError(await server.sendRaw('POST', '/ramp/organization', { body }), 400, JSON.stringify(body)).error, JSON.stringify(body)).toMatch(message);
      }
      const malformed = expectPlainError(await server.sendRaw('POST', '/ramp/organization', { raw: '{"displayName": "x",', headers: { 'Content-Type': 'application/json' } }), 400);
      expect(malformed.error).toMatch(/JSON/);
      expect(expectPlainError(await server.sendRaw('POST', '/ramp/organization'), 400)).toEqual({ error: 'displayName is required' });
      expect(await rowCounts(server)).toEqual(before);
    });
  });

  describe('v1 PUT /ramp/organization/{org_id}/name', () => {
    it('renames the own organization and a direct child', async () => {
      const own = expectStatus(await rename(server.api, server.partnerId, ' Remesas Norte '), 200);
      expect(own).toEqual({ displayName: 'Remesas Norte', organizationId: server.partnerId });
      expect(expectStatus(await organization(server.api, server.partnerId), 200).displayName).toBe('Remesas Norte');

      const child = await createCustomer(server, { displayName: 'Before' });
      const customerBefore = expectStatus(await customer(server.api, child), 200);
      expect(expectStatus(await rename(server.api, child.toUpperCase(), 'After'), 200)).toEqual({ displayName: 'After', organizationId: child });
      const customerAfter = expectStatus(await customer(server.api, child), 200);
      expect(customerAfter).toMatchObject({ displayName: 'After', createdAt: customerBefore.createdAt });
      expect(Date.parse(customerAfter.updatedAt)).toBeGreaterThan(Date.parse(customerBefore.updatedAt));
    });

    it('is 404 for a grandchild, a stranger or an unknown id, and changes nothing', async () => {
      const child = await keyedBusinessChild(server);
      const grandchild = await createCustomer(server, { key: child.key, displayName: 'Grandchild' });
      for (const id of [grandchild, await stranger(server), randomUUID()]) {
        expect(expectPlainError(await rename(server.api, id, 'Hijacked'), 404)).toEqual({ error: 'Organization not found' });
      }
      const asChild = server.as(child.key);
      expect(expectStatus(await organization(asChild, grandchild), 200).displayName).toBe('Grandchild');
      // The child may rename its own child.
      expectStatus(await rename(asChild, grandchild, 'Renamed by parent'), 200);
    });

    it('refuses a blank or missing name with 400 and keeps the old one', async () => {
      const child = await createCustomer(server, { displayName: 'Kept' });
      for (const displayName of ['  ', '', '\t\n']) expect(expectPlainError(await rename(server.api, child, displayName), 400, JSON.stringify(displayName)).error).toMatch(/displayName/);
      // A body without its required displayName.
      expect(expectPlainError(await server.sendRaw('PUT', `/ramp/organization/${child}/name`, { body: {} }), 400).error).toMatch(/displayName/);
      expect(expectStatus(await organization(server.api, child), 200).displayName).toBe('Kept');
    });
  });

  describe('v2', () => {
    it('GET /organizations lists direct children only, newest first, a page at a time', async () => {
      const own = await startTestServer({ clock: { now: () => new Date((time += 1000)) } });
      try {
        const children = [];
        for (let i = 0; i < 5; i++) children.push(await createCustomer(own, { type: i % 2 ? 'business' : 'personal', displayName: `Child ${i}` }));
        const keyed = await keyedBusinessChild(own);
        await createCustomer(own, { key: keyed.key, displayName: 'Grandchild' });
        const expected = [keyed.id, ...children.map((c) => c).reverse()];

        const first = expectStatus(await listOrganizations(own.api), 200);
        expect(first).toMatchObject({ totalItems: 6, pageSize: 30, pageNumber: 0, totalPages: 1 });
        expect(first.items.map((o) => o.organizationId)).toEqual(expected);
        for (const item of first.items) expect(item.parentOrganizationId).toBe(own.partnerId);

        const pages = [];
        for (let n = 0; n < 3; n++) pages.push(expectStatus(await listOrganizations(own.api, { pageSize: 2, pageNumber: n }), 200));
        expect(pages.flatMap((p) => p.items.map((o) => o.organizationId))).toEqual(expected);
        expect(pages[2]).toMatchObject({ totalItems: 6, pageSize: 2, pageNumber: 2, totalPages: 3 });
        expect(expectStatus(await listOrganizations(own.api, { pageSize: 2, pageNumber: 9 }), 200)).toEqual({ items: [], totalItems: 6, pageSize: 2, pageNumber: 9, totalPages: 3 });
        // The child sees its own child, not its siblings.
        expect(expectStatus(await listOrganizations(own.as(keyed.key)), 200).items.map((o) => o.displayName)).toEqual(['Grandchild']);
      } finally {
        await own.close();
      }
    });

    it('GET /organization/{id} returns the own organization or a direct child', async () => {
      const own = expectStatus(await organization(server.api, server.partnerId), 200);
      expect(own).toMatchObject({ organizationId: server.partnerId, type: 'business', parentOrganizationId: null });
      const child = await createCustomer(server, { type: 'personal', displayName: 'Ana' });
      expect(expectStatus(await organization(server.api, child), 200)).toMatchObject({ organizationId: child, type: 'personal', displayName: 'Ana', parentOrganizationId: server.partnerId });
      expectProblem(await organization(server.api, randomUUID()), 404, 'not-found');
    });
  });
});
