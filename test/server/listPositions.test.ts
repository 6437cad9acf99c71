/**
 * Pages are ranges of stored positions (server/storage/positions.ts): a deep page and the
 * last page answer the right items over HTTP, with and without date filters, and after a
 * deletion renumbers a list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type RequestBody } from '../support/api.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createCustomer } from '../support/fixtures.ts';
import { testBudget } from '../support/wait.ts';

const start = Date.parse('2025-06-01T00:00:00Z');
const minute = 60_000;

describe('deep and last pages', () => {
  let server: TestServer;
  let now = start;
  /** Customers oldest first, with their creation time; two at a time share one instant. */
  const customers: { id: string; at: string }[] = [];

  beforeAll(async () => {
    server = await startTestServer({ clock: { now: () => new Date(now) } });
    for (let i = 0; i < 23; i++) {
      now = start + Math.floor(i / 2) * minute;
      const id = await createCustomer(server, { displayName: `Customer ${i}` });
      customers.push({ id, at: new Date(now).toISOString() });
    }
  }, testBudget);
  afterAll(() => server.close());

  it('GET /organizations: a deep page and the last, newest first', async () => {
    const newest = customers.map((c) => c.id).reverse();
    const page = async (pageNumber: number) => expectStatus(await server.api.GET('/organizations', { params: { query: { pageSize: 4, pageNumber } } }), 200);
    const deep = await page(3);
    expect(deep).toMatchObject({ totalItems: 23, pageSize: 4, pageNumber: 3, totalPages: 6 });
    expect(deep.items.map((o) => o.organizationId)).toEqual(newest.slice(12, 16));
    const last = await page(5);
    expect(last.items.map((o) => o.organizationId)).toEqual(newest.slice(20));
    expect(await page(6)).toEqual({ items: [], totalItems: 23, pageSize: 4, pageNumber: 6, totalPages: 6 });
  });

  it('POST /ramp/customers: a deep and a last page inside a date range, with their next links', async () => {
    // After minute 2 (exclusive), up to minute 9 (inclusive): customers 6..19.
    const filters = { fromDate: new Date(start + 2 * minute).toISOString(), toDate: new Date(start + 9 * minute).toISOString() };
    const inside = customers.filter((c) => c.at > filters.fromDate && c.at <= filters.toDate).map((c) => c.id);
    expect(inside).toEqual(customers.slice(6, 20).map((c) => c.id));
    const ids = (page: { items: { customerId: string }[] }) => page.items.map((c) => c.customerId);
    const search = async (body: RequestBody<'v1SearchCustomers'>, query: { pageNumber?: number; pageSize?: number } = {}) =>
      expectStatus(await server.api.POST('/ramp/customers', { params: { query }, body }), 200);
    const deep = await search({ filters, pageSize: 3, pageNumber: 2 });
    expect(deep).toMatchObject({ totalItems: 14, totalPages: 5, next: `${server.services.config.baseUrl}/ramp/customers?pageNumber=3&pageSize=3` });
    expect(ids(deep)).toEqual(inside.slice(6, 9));
    const last = await search({ filters }, { pageNumber: 4, pageSize: 3 });
    expect(last).toMatchObject({ totalItems: 14, totalPages: 5, pageNumber: 4, next: null });
    expect(ids(last)).toEqual(inside.slice(12));
    // Without filters, the last page of all of them.
    const all = await search({ pageSize: 10, pageNumber: 2 });
    expect(ids(all)).toEqual(customers.slice(20).map((c) => c.id));
  });

  it('GET /webhook_subscriptions: deleting renumbers, and the last page shows who is left', async () => {
    const created: string[] = [];
    for (let i = 0; i < 9; i++) {
      created.push(expectStatus(await server.api.POST('/webhook_subscription', { body: { url: `http://127.0.0.1:9/hook/${i}`, eventType: 'orderUpdated' } }), 201).id);
    }
    for (const gone of [created[2]!, created[6]!]) expectStatus(await server.api.DELETE('/webhook_subscription/{id}', { params: { path: { id: gone } } }), 204);
    const left = created.filter((_, i) => i !== 2 && i !== 6);
    const page = async (pageNumber: number) => expectStatus(await server.api.GET('/webhook_subscriptions', { params: { query: { pageSize: 3, pageNumber } } }), 200);
    const last = await page(2);
    expect(last).toMatchObject({ totalItems: 7, totalPages: 3 });
    expect(last.items.map((s) => s.id)).toEqual(left.slice(6));
    expect((await page(1)).items.map((s) => s.id)).toEqual(left.slice(3, 6));
  });
});
