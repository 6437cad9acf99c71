/**
 * v1 customers: the partner's direct children as a v1 page (v1ListCustomers, v1SearchCustomers, v1GetCustomer; v1.yaml, Pagination and Errors):
 * defaults, the exact pageSize messages, filters by creation time, the `next` link, an empty
 * body meaning the defaults, malformed JSON as `{"error": ...}`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationsRepository } from '../../server/features/organizations/repository.ts';
import { rowCounts } from '../support/organizations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createCustomer, keyedBusinessChild, stranger } from '../support/fixtures.ts';

const start = Date.parse('2025-03-01T00:00:00Z');
const day = 86_400_000;
const at = (days: number) => new Date(start + days * day).toISOString();

describe('v1 customers', () => {
  let server: TestServer;
  let now = start;
  /** Customers created on days 1..5 (one per day), oldest first. */
  const customers: string[] = [];
  let grandchild: string;

  beforeAll(async () => {
    server = await startTestServer({ clock: { now: () => new Date(now) } });
    for (let d = 1; d <= 5; d++) {
      now = start + d * day;
      customers.push((await createCustomer(server, { type: d === 3 ? 'business' : 'personal', displayName: `Day ${d}` })));
    }
    now = start + 6 * day;
    const child = await keyedBusinessChild(server);
    customers.push(child.id);
    grandchild = (await createCustomer(server, { key: child.key }));
    now = start + 30 * day;
  });
  afterAll(() => server.close());

  const ids = (page: { items: { customerId: string }[] }) => page.items.map((c) => c.customerId);

  it('GET /ramp/customers: the first page with the defaults, oldest first, direct children only', async () => {
    const response = await server.call('GET', '/ramp/customers');
    expect(response.status).toBe(200);
    expect(response.json_).toMatchObject({ pageNumber: 0, pageSize: 30, totalItems: 6, totalPages: 1, next: null });
    expect(ids(response.json_)).toEqual(customers);
    expect(ids(response.json_)).not.toContain(grandchild);
    expect(response.json_.items[0]).toEqual({ customerId: customers[0], displayName: 'Day 1', createdAt: at(1), updatedAt: at(1), status: 'customer_pending' });
  });

  it('an empty body, an empty object and no body all mean the defaults', async () => {
    const expected = (await server.call('GET', '/ramp/customers')).json_;
    const variants = [
      { body: {} },
      {},
      { raw: '', headers: { 'Content-Type': 'application/json' } },
      // curl -d '' labels an empty body as form data.
      { raw: '', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
      { body: { filters: null } },
    ];
    for (const variant of variants) {
      const response = await server.call('POST', '/ramp/customers', variant);
      expect(response.status, JSON.stringify(variant)).toBe(200);
      expect(response.json_, JSON.stringify(variant)).toEqual(expected);
    }
  });

  it('pages with a next link that can be followed, by GET or by POSTing the same body', async () => {
    const first = (await server.call('POST', '/ramp/customers', { body: { pageSize: 4 } })).json_;
    expect(first).toMatchObject({ pageNumber: 0, pageSize: 4, totalItems: 6, totalPages: 2 });
    expect(first.next).toBe(`${server.services.config.baseUrl}/ramp/customers?pageNumber=1&pageSize=4`);
    const path = first.next.slice(server.services.config.baseUrl.length);
    const second = (await server.call('GET', path)).json_;
    expect(second).toMatchObject({ pageNumber: 1, pageSize: 4, totalItems: 6, totalPages: 2, next: null });
    expect([...ids(first), ...ids(second)]).toEqual(customers);
    const posted = (await server.call('POST', path, { body: { pageSize: 4 } })).json_;
    expect(posted).toEqual(second);
    const past = (await server.call('POST', '/ramp/customers', { body: { pageSize: 4, pageNumber: 7 } })).json_;
    expect(past).toMatchObject({ items: [], pageNumber: 7, totalItems: 6, totalPages: 2, next: null });
  });

  it('filters on creation time: after fromDate, up to and including toDate', async () => {
    const search = async (filters: unknown, extra: object = {}) => {
      const response = await server.call('POST', '/ramp/customers', { body: { filters, ...extra } });
      expect(response.status, JSON.stringify(filters)).toBe(200);
      return response.json_;
    };
    expect(ids(await search({ fromDate: at(2) }))).toEqual(customers.slice(2));
    expect(ids(await search({ fromDate: at(1.5), toDate: at(4) }))).toEqual(customers.slice(1, 4));
    // An offset is read as the same instant in UTC.
    expect(ids(await search({ fromDate: '2025-03-02T18:00:00-06:00', toDate: '2025-03-05T00:00:00+00:00' }))).toEqual(customers.slice(2, 4));
    const paged = await search({ fromDate: at(0) }, { pageSize: 2, pageNumber: 1 });
    expect(ids(paged)).toEqual(customers.slice(2, 4));
    expect(paged).toMatchObject({ totalItems: 6, totalPages: 3, next: `${server.services.config.baseUrl}/ramp/customers?pageNumber=2&pageSize=2` });
    // Following next with the same body keeps the filter.
    const next = await server.call('POST', '/ramp/customers?pageNumber=2&pageSize=2', { body: { filters: { fromDate: at(2) } } });
    expect(next.json_).toMatchObject({ items: [], totalItems: 4, totalPages: 2, next: null });
    expect((await search({ fromDate: at(10) })).totalItems).toBe(0);
  });

  it('answers the exact messages for a page size out of range, in the body or the query', async () => {
    const tooMany = { error: 'You can only request 100 items at a time' };
    const zero = { error: 'Page size must be greater than 0' };
    const cases: [string, string, { body?: unknown }, unknown][] = [
      ['POST', '/ramp/customers', { body: { pageSize: 101 } }, tooMany],
      ['POST', '/ramp/customers', { body: { pageSize: 1000 } }, tooMany],
      ['POST', '/ramp/customers', { body: { pageSize: 0 } }, zero],
      ['POST', '/ramp/customers', { body: { pageSize: -5 } }, zero],
      ['GET', '/ramp/customers?pageSize=500', {}, tooMany],
      ['GET', '/ramp/customers?pageSize=0', {}, zero],
      ['POST', '/ramp/customers?pageSize=101', { body: { pageSize: 10 } }, tooMany],
    ];
    for (const [method, path, options, body] of cases) {
      const response = await server.call(method, path, options);
      expect(response.status, `${method} ${path} ${JSON.stringify(options.body)}`).toBe(400);
      expect(response.json_).toEqual(body);
    }
    expect((await server.call('POST', '/ramp/customers', { body: { pageSize: 100 } })).status).toBe(200);
    expect((await server.call('POST', '/ramp/customers', { body: { pageSize: 1 } })).json_.totalPages).toBe(6);
  });

  it('refuses other bad bodies with {"error": ...} that names the field', async () => {
    const cases: [{ body?: unknown; raw?: string; headers?: Record<string, string> }, RegExp][] = [
      [{ raw: '{"pageSize": 5', headers: { 'Content-Type': 'application/json' } }, /JSON/],
      [{ body: { filters: {} } }, /^filters\.fromDate is required$/],
      [{ body: { filters: { toDate: at(3) } } }, /^filters\.fromDate is required$/],
      [{ body: { filters: { fromDate: 'last tuesday' } } }, /filters\.fromDate/],
      [{ body: { filters: { fromDate: at(1), toDate: '2025-13-40' } } }, /filters\.toDate/],
      [{ body: { pageNumber: -1 } }, /pageNumber/],
      [{ body: { pageSize: 'ten' } }, /pageSize/],
      [{ body: { pageSize: 1.5 } }, /pageSize/],
      [{ raw: '{}', headers: { 'Content-Type': 'text/plain' } }, /media type/],
    ];
    for (const [options, message] of cases) {
      const response = await server.call('POST', '/ramp/customers', options);
      expect(response.status, JSON.stringify(options)).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(response.json_, JSON.stringify(options)).toEqual({ error: expect.stringMatching(message) });
    }
    const query = await server.call('GET', '/ramp/customers?pageNumber=-1');
    expect(query.status).toBe(400);
    expect(query.json_).toEqual({ error: expect.stringMatching(/pageNumber/) });
  });

  it('GET /ramp/customer/{id}: a direct child with its verification status, anything else 404', async () => {
    const db = server.services.storage.db;
    const [person, , business] = customers;
    expect((await server.call('GET', `/ramp/customer/${person}`)).json_).toMatchObject({ customerId: person, displayName: 'Day 1', status: 'customer_pending' });
    await organizationsRepository(db).update(person!, { kyc_status: 'approved' });
    expect((await server.call('GET', `/ramp/customer/${person}`)).json_.status).toBe('customer_verified');
    await organizationsRepository(db).update(person!, { kyc_status: 'denied' });
    expect((await server.call('GET', `/ramp/customer/${person}`)).json_.status).toBe('customer_failed');
    // A business customer follows its KYB.
    await organizationsRepository(db).update(business!, { kyb_status: 'approved' });
    expect((await server.call('GET', `/ramp/customer/${business}`)).json_.status).toBe('customer_verified');
    expect((await server.call('GET', `/ramp/customer/${person!.toUpperCase()}`)).json_.customerId).toBe(person);
    const before = await rowCounts(server);
    for (const id of [grandchild, server.partnerId, await stranger(server), randomUUID()]) {
      const response = await server.call('GET', `/ramp/customer/${id}`);
      expect(response.status).toBe(404);
      expect(response.json_).toEqual({ error: 'Customer not found' });
    }
    expect((await rowCounts(server)).organizations).toBe(before.organizations! + 1);
  });
});
