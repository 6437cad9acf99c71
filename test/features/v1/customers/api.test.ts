/**
 * v1 customers: the partner's direct children as a v1 page (v1ListCustomers, v1SearchCustomers, v1GetCustomer; v1.yaml, Pagination and Errors):
 * defaults, the exact pageSize messages, filters by creation time, the `next` link, an empty
 * body meaning the defaults, malformed JSON as `{"error": ...}`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationsRepository } from '../../../../server/features/organizations/repository.ts';
import { expectStatus, type RawRequest, type RequestBody } from '../../../support/api.ts';
import { expectPlainError } from '../../../support/errors.ts';
import { rowCounts } from '../../../support/organizations.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { createCustomer, keyedBusinessChild, stranger } from '../../../support/fixtures.ts';

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
  type PageQuery = { pageNumber?: number; pageSize?: number };
  const list = (query: PageQuery = {}) => server.api.GET('/ramp/customers', { params: { query } });
  const search = (body?: RequestBody<'v1SearchCustomers'>, query: PageQuery = {}) =>
    server.api.POST('/ramp/customers', { params: { query }, ...(body === undefined ? {} : { body }) });
  const customer = (id: string) => server.api.GET('/ramp/customer/{customer_id}', { params: { path: { customer_id: id } } });

  it('GET /ramp/customers: the first page with the defaults, oldest first, direct children only', async () => {
    const page = expectStatus(await list(), 200);
    expect(page).toMatchObject({ pageNumber: 0, pageSize: 30, totalItems: 6, totalPages: 1, next: null });
    expect(ids(page)).toEqual(customers);
    expect(ids(page)).not.toContain(grandchild);
    expect(page.items[0]).toEqual({ customerId: customers[0], displayName: 'Day 1', createdAt: at(1), updatedAt: at(1), status: 'customer_pending' });
  });

  it('an empty body, an empty object and no body all mean the defaults', async () => {
    const expected = expectStatus(await list(), 200);
    expect(expectStatus(await search({}), 200)).toEqual(expected);
    expect(expectStatus(await search(), 200)).toEqual(expected);
    // What no typed client sends: an empty body labelled JSON, one labelled as a form, a null filter.
    const variants: RawRequest[] = [
      { raw: '', headers: { 'Content-Type': 'application/json' } },
      // curl -d '' labels an empty body as form data.
      { raw: '', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
      { body: { filters: null } },
    ];
    for (const variant of variants) {
      const response = await server.sendRaw('POST', '/ramp/customers', variant);
      expect(response.status, JSON.stringify(variant)).toBe(200);
      expect(response.json_, JSON.stringify(variant)).toEqual(expected);
    }
  });

  it('pages with a next link that can be followed, by GET or by POSTing the same body', async () => {
    const first = expectStatus(await search({ pageSize: 4 }), 200);
    expect(first).toMatchObject({ pageNumber: 0, pageSize: 4, totalItems: 6, totalPages: 2 });
    expect(first.next).toBe(`${server.services.config.baseUrl}/ramp/customers?pageNumber=1&pageSize=4`);
    // The link's query, as a client following it sends it.
    const link = new URL(first.next!);
    const query = { pageNumber: Number(link.searchParams.get('pageNumber')), pageSize: Number(link.searchParams.get('pageSize')) };
    const second = expectStatus(await list(query), 200);
    expect(second).toMatchObject({ pageNumber: 1, pageSize: 4, totalItems: 6, totalPages: 2, next: null });
    expect([...ids(first), ...ids(second)]).toEqual(customers);
    expect(expectStatus(await search({ pageSize: 4 }, query), 200)).toEqual(second);
    const past = expectStatus(await search({ pageSize: 4, pageNumber: 7 }), 200);
    expect(past).toMatchObject({ items: [], pageNumber: 7, totalItems: 6, totalPages: 2, next: null });
  });

  it('filters on creation time: after fromDate, up to and including toDate', async () => {
    type Filters = NonNullable<RequestBody<'v1SearchCustomers'>['filters']>;
    const filtered = async (filters: Filters, extra: PageQuery = {}) => expectStatus(await search({ filters, ...extra }), 200);
    expect(ids(await filtered({ fromDate: at(2) }))).toEqual(customers.slice(2));
    expect(ids(await filtered({ fromDate: at(1.5), toDate: at(4) }))).toEqual(customers.slice(1, 4));
    // An offset is read as the same instant in UTC.
    expect(ids(await filtered({ fromDate: '2025-03-02T18:00:00-06:00', toDate: '2025-03-05T00:00:00+00:00' }))).toEqual(customers.slice(2, 4));
    const paged = await filtered({ fromDate: at(0) }, { pageSize: 2, pageNumber: 1 });
    expect(ids(paged)).toEqual(customers.slice(2, 4));
    expect(paged).toMatchObject({ totalItems: 6, totalPages: 3, next: `${server.services.config.baseUrl}/ramp/customers?pageNumber=2&pageSize=2` });
    // Following next with the same body keeps the filter.
    const next = expectStatus(await search({ filters: { fromDate: at(2) } }, { pageNumber: 2, pageSize: 2 }), 200);
    expect(next).toMatchObject({ items: [], totalItems: 4, totalPages: 2, next: null });
    expect((await filtered({ fromDate: at(10) })).totalItems).toBe(0);
  });

  it('answers the exact messages for a page size out of range, in the body or the query', async () => {
    const tooMany = { error: 'You can only request 100 items at a time' };
    const zero = { error: 'Page size must be greater than 0' };
    const cases = [
      ['body pageSize 101', () => search({ pageSize: 101 }), tooMany],
      ['body pageSize 1000', () => search({ pageSize: 1000 }), tooMany],
      ['body pageSize 0', () => search({ pageSize: 0 }), zero],
      ['body pageSize -5', () => search({ pageSize: -5 }), zero],
      ['GET pageSize 500', () => list({ pageSize: 500 }), tooMany],
      ['GET pageSize 0', () => list({ pageSize: 0 }), zero],
      ['query pageSize 101 over body 10', () => search({ pageSize: 10 }, { pageSize: 101 }), tooMany],
    ] as const;
    for (const [name, call, body] of cases) expect(expectPlainError(await call(), 400, name)).toEqual(body);
    expectStatus(await search({ pageSize: 100 }), 200);
    expect(expectStatus(await search({ pageSize: 1 }), 200).totalPages).toBe(6);
  });

  it('refuses other bad bodies with {"error": ...} that names the field', async () => {
    const typed: [RequestBody<'v1SearchCustomers'>, RegExp][] = [
      [{ filters: { fromDate: 'last tuesday' } }, /filters\.fromDate/],
      [{ filters: { fromDate: at(1), toDate: '2025-13-40' } }, /filters\.toDate/],
      [{ pageNumber: -1 }, /pageNumber/],
      [{ pageSize: 1.5 }, /pageSize/],
    ];
    for (const [body, message] of typed) expect(expectPlainError(await search(body), 400, JSON.stringify(body)).error).toMatch(message);
    // What the contract refuses by its shape: broken JSON, filters without fromDate, a string page size, another media type.
    const raw: [RawRequest, number, RegExp][] = [
      [{ raw: '{"pageSize": 5', headers: { 'Content-Type': 'application/json' } }, 400, /JSON/],
      [{ body: { filters: {} } }, 400, /^filters\.fromDate is required$/],
      [{ body: { filters: { toDate: at(3) } } }, 400, /^filters\.fromDate is required$/],
      [{ body: { pageSize: 'ten' } }, 400, /pageSize/],
      [{ raw: '{}', headers: { 'Content-Type': 'text/plain' } }, 415, /Content-Type text\/plain is not accepted/],
    ];
    for (const [options, status, message] of raw) {
      expect(expectPlainError(await server.sendRaw('POST', '/ramp/customers', options), status, JSON.stringify(options)).error).toMatch(message);
    }
    expect(expectPlainError(await list({ pageNumber: -1 }), 400).error).toMatch(/pageNumber/);
  });

  it('GET /ramp/customer/{id}: a direct child with its verification status, anything else 404', async () => {
    const db = server.services.storage.db;
    const [person, , business] = customers;
    const read = async (id: string) => expectStatus(await customer(id), 200);
    expect(await read(person!)).toMatchObject({ customerId: person, displayName: 'Day 1', status: 'customer_pending' });
    await organizationsRepository(db).update(person!, { kyc_status: 'approved' });
    expect((await read(person!)).status).toBe('customer_verified');
    await organizationsRepository(db).update(person!, { kyc_status: 'denied' });
    expect((await read(person!)).status).toBe('customer_failed');
    // A business customer follows its KYB.
    await organizationsRepository(db).update(business!, { kyb_status: 'approved' });
    expect((await read(business!)).status).toBe('customer_verified');
    expect((await read(person!.toUpperCase())).customerId).toBe(person);
    const before = await rowCounts(server);
    for (const id of [grandchild, server.partnerId, await stranger(server), randomUUID()]) {
      expect(expectPlainError(await customer(id), 404, id)).toEqual({ error: 'Customer not found' });
    }
    expect((await rowCounts(server)).organizations).toBe(before.organizations! + 1);
  });
});
