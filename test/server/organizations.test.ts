/**
 * Organizations: the partner and its direct children (v2 `GET /organizations`,
 * `GET /organization/{id}`), and v1 creation and renaming (v1CreateOrganization, v1RenameOrganization).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowCounts } from '../support/organizations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createCustomer, keyedBusinessChild, stranger } from '../support/fixtures.ts';

describe('organizations', () => {
  let server: TestServer;
  let time = Date.parse('2026-01-01T00:00:00Z');
  beforeAll(async () => {
    // Each creation a second apart, so "newest first" has one right answer.
    server = await startTestServer({ clock: { now: () => new Date((time += 1000)) } });
  });
  afterAll(() => server.close());

  describe('v1 POST /ramp/organization', () => {
    it('creates a child of the key organization, with a generated id or the one given', async () => {
      const generated = await server.call('POST', '/ramp/organization', { body: { displayName: '  Tacos El Güero SA de CV ', type: 'business' } });
      expect(generated.status).toBe(201);
      expect(generated.json_).toEqual({
        organizationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        displayName: 'Tacos El Güero SA de CV',
        type: 'business',
        parentOrganizationId: server.partnerId,
        createdAt: expect.any(String),
      });
      const id = randomUUID();
      const chosen = await server.call('POST', '/ramp/organization', { body: { organizationId: id.toUpperCase(), displayName: 'María', type: 'personal' } });
      expect(chosen.status).toBe(201);
      // Ids are stored in their canonical lowercase form, as keys carry them.
      expect(chosen.json_.organizationId).toBe(id);
      expect((await server.call('GET', `/organization/${id}`)).json_).toEqual(chosen.json_);
      expect((await server.call('GET', `/ramp/customer/${id}`)).json_).toMatchObject({ customerId: id, displayName: 'María', status: 'customer_pending' });
    });

    it('is 409 on an id already used, by any organization, and stores nothing', async () => {
      const child = await createCustomer(server);
      const other = await stranger(server);
      for (const id of [child, server.partnerId, other, child.toUpperCase()]) {
        const before = await rowCounts(server);
        const response = await server.call('POST', '/ramp/organization', { body: { organizationId: id, displayName: 'Again', type: 'personal' } });
        expect(response.status, id).toBe(409);
        expect(response.json_).toEqual({ error: 'Organization id is already in use' });
        expect(await rowCounts(server)).toEqual(before);
      }
      expect((await server.call('GET', `/organization/${child}`)).json_.displayName).not.toBe('Again');
    });

    it('gives one id to one of two concurrent creations', async () => {
      const id = randomUUID();
      const results = await Promise.all(
        [1, 2, 3].map((n) => server.call('POST', '/ramp/organization', { body: { organizationId: id, displayName: `Racer ${n}`, type: 'personal' } })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    });

    it('refuses a bad body with {"error": ...}: missing or blank name, unknown type, bad id, malformed JSON', async () => {
      const cases: [unknown, RegExp][] = [
        [{ type: 'personal' }, /^displayName is required$/],
        [{ displayName: '   ', type: 'personal' }, /^displayName is required$/],
        [{ displayName: '', type: 'personal' }, /displayName/],
        [{ displayName: 'x'.repeat(201), type: 'personal' }, /displayName/],
        [{ displayName: 'Robot', type: 'robot' }, /type/],
        [{ displayName: 'Robot' }, /^type is required$/],
        [{ displayName: 'Bad id', type: 'personal', organizationId: 'not-a-uuid' }, /organizationId/],
      ];
      const before = await rowCounts(server);
      for (const [body, message] of cases) {
        const response = await server.call('POST', '/ramp/organization', { body });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.json_.error, JSON.stringify(body)).toMatch(message);
      }
      const malformed = await server.call('POST', '/ramp/organization', { raw: '{"displayName": "x",', headers: { 'Content-Type': 'application/json' } });
      expect(malformed.status).toBe(400);
      expect(malformed.json_).toEqual({ error: expect.stringMatching(/JSON/) });
      const empty = await server.call('POST', '/ramp/organization');
      expect(empty.status).toBe(400);
      expect(empty.json_).toEqual({ error: 'displayName is required' });
      expect(await rowCounts(server)).toEqual(before);
    });
  });

  describe('v1 PUT /ramp/organization/{org_id}/name', () => {
    it('renames the own organization and a direct child', async () => {
      const own = await server.call('PUT', `/ramp/organization/${server.partnerId}/name`, { body: { displayName: ' Remesas Norte ' } });
      expect(own.status).toBe(200);
      expect(own.json_).toEqual({ displayName: 'Remesas Norte', organizationId: server.partnerId });
      expect((await server.call('GET', `/organization/${server.partnerId}`)).json_.displayName).toBe('Remesas Norte');

      const child = await createCustomer(server, { displayName: 'Before' });
      const customerBefore = (await server.call('GET', `/ramp/customer/${child}`)).json_;
      const renamed = await server.call('PUT', `/ramp/organization/${child.toUpperCase()}/name`, { body: { displayName: 'After' } });
      expect(renamed.json_).toEqual({ displayName: 'After', organizationId: child });
      const customerAfter = (await server.call('GET', `/ramp/customer/${child}`)).json_;
      expect(customerAfter).toMatchObject({ displayName: 'After', createdAt: customerBefore.createdAt });
      expect(Date.parse(customerAfter.updatedAt)).toBeGreaterThan(Date.parse(customerBefore.updatedAt));
    });

    it('is 404 for a grandchild, a stranger or an unknown id, and changes nothing', async () => {
      const child = await keyedBusinessChild(server);
      const grandchild = await createCustomer(server, { key: child.key, displayName: 'Grandchild' });
      for (const id of [grandchild, await stranger(server), randomUUID()]) {
        const response = await server.call('PUT', `/ramp/organization/${id}/name`, { body: { displayName: 'Hijacked' } });
        expect(response.status).toBe(404);
        expect(response.json_).toEqual({ error: 'Organization not found' });
      }
      expect((await server.call('GET', `/organization/${grandchild}`, { key: child.key })).json_.displayName).toBe('Grandchild');
      // The child may rename its own child.
      expect((await server.call('PUT', `/ramp/organization/${grandchild}/name`, { key: child.key, body: { displayName: 'Renamed by parent' } })).status).toBe(200);
    });

    it('refuses a blank or missing name with 400 and keeps the old one', async () => {
      const child = await createCustomer(server, { displayName: 'Kept' });
      for (const body of [{ displayName: '  ' }, { displayName: '' }, {}]) {
        const response = await server.call('PUT', `/ramp/organization/${child}/name`, { body });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.json_.error).toMatch(/displayName/);
      }
      expect((await server.call('GET', `/organization/${child}`)).json_.displayName).toBe('Kept');
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

        const first = await own.call('GET', '/organizations');
        expect(first.status).toBe(200);
        expect(first.json_).toMatchObject({ totalItems: 6, pageSize: 30, pageNumber: 0, totalPages: 1 });
        expect(first.json_.items.map((o: { organizationId: string }) => o.organizationId)).toEqual(expected);
        for (const item of first.json_.items) expect(item.parentOrganizationId).toBe(own.partnerId);

        const pages = [];
        for (let n = 0; n < 3; n++) pages.push((await own.call('GET', `/organizations?pageSize=2&pageNumber=${n}`)).json_);
        expect(pages.flatMap((p) => p.items.map((o: { organizationId: string }) => o.organizationId))).toEqual(expected);
        expect(pages[2]).toMatchObject({ totalItems: 6, pageSize: 2, pageNumber: 2, totalPages: 3 });
        expect((await own.call('GET', '/organizations?pageSize=2&pageNumber=9')).json_).toEqual({ items: [], totalItems: 6, pageSize: 2, pageNumber: 9, totalPages: 3 });
        // The child sees its own child, not its siblings.
        expect((await own.call('GET', '/organizations', { key: keyed.key })).json_.items.map((o: { displayName: string }) => o.displayName)).toEqual(['Grandchild']);
      } finally {
        await own.close();
      }
    });

    it('GET /organization/{id} returns the own organization or a direct child', async () => {
      const own = await server.call('GET', `/organization/${server.partnerId}`);
      expect(own.json_).toMatchObject({ organizationId: server.partnerId, type: 'business', parentOrganizationId: null });
      const child = await createCustomer(server, { type: 'personal', displayName: 'Ana' });
      expect((await server.call('GET', `/organization/${child}`)).json_).toMatchObject({ organizationId: child, type: 'personal', displayName: 'Ana', parentOrganizationId: server.partnerId });
      expect((await server.call('GET', `/organization/${randomUUID()}`)).status).toBe(404);
    });
  });
});
