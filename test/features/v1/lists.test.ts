/**
 * The v1 POST lists of orders, wallets and bank accounts (and a customer's swaps): oldest first, the page envelope
 * with a followable `next` on the configured base URL, v1.yaml's exact pageSize messages,
 * date filters (fromDate exclusive, toDate inclusive), and the customer-scoped variants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../../client/index.ts';
import { expectStatus, type Api } from '../../support/api.ts';
import { expectPlainError } from '../../support/errors.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createBankAccount, randomSolanaAddress } from '../../support/v1Money.ts';
import { createCustomer, manualClock, otherPartner, unreachableOrganization } from '../../support/fixtures.ts';

const baseUrl = 'https://api.sandbox.ramp.test/v';
const clock = manualClock({ start: '2026-01-10T00:00:00.000Z' });
let server: TestServer;
let alice: string;
let bob: string;
/** Creation times and ids of what was made, per list. */
const made: Record<'orders' | 'wallets' | 'bank-accounts' | 'swaps', { id: string; customerId: string; createdAt: string }[]> = { orders: [], wallets: [], 'bank-accounts': [], swaps: [] };

type Item = Schema<'V1Order'> | Schema<'V1Wallet'> | Schema<'V1BankAccount'> | Schema<'V1Swap'>;
const idOf = (item: Item) => ('internalAccountId' in item ? item.internalAccountId : item.id);
/** A bank account names its holder `organizationId`; orders and wallets name it `customerId`. */
const ownerOf = (item: Item) => ('customerId' in item ? item.customerId : item.organizationId);

type ListBody = Schema<'V1PaginationRequest'>;
type PageQuery = { pageNumber?: number; pageSize?: number };
const withBody = (body?: ListBody) => (body === undefined ? {} : { body });
/** The three v1 lists and their customer-scoped variants, through the typed client. */
const lists = {
  orders: {
    all: (api: Api, body?: ListBody, query: PageQuery = {}) => api.POST('/ramp/orders', { params: { query }, ...withBody(body) }),
    ofCustomer: (api: Api, customerId: string, body?: ListBody, query: PageQuery = {}) =>
      api.POST('/ramp/customer/{customer_id}/orders', { params: { path: { customer_id: customerId }, query }, ...withBody(body) }),
  },
  wallets: {
    all: (api: Api, body?: ListBody, query: PageQuery = {}) => api.POST('/ramp/wallets', { params: { query }, ...withBody(body) }),
    ofCustomer: (api: Api, customerId: string, body?: ListBody, query: PageQuery = {}) =>
      api.POST('/ramp/customer/{customer_id}/wallets', { params: { path: { customer_id: customerId }, query }, ...withBody(body) }),
  },
  'bank-accounts': {
    all: (api: Api, body?: ListBody, query: PageQuery = {}) => api.POST('/ramp/bank-accounts', { params: { query }, ...withBody(body) }),
    ofCustomer: (api: Api, customerId: string, body?: ListBody, query: PageQuery = {}) =>
      api.POST('/ramp/customer/{customer_id}/bank-accounts', { params: { path: { customer_id: customerId }, query }, ...withBody(body) }),
  },
};

beforeAll(async () => {
  server = await startTestServer({ clock, env: { RAMP_BASE_URL: baseUrl } });
  alice = await createCustomer(server, { approved: true });
  bob = await createCustomer(server, { approved: true });
  for (let i = 0; i < 7; i++) {
    const customerId = i % 3 === 2 ? bob : alice;
    clock.advance(60_000);
    const wallet = expectStatus(await server.api.POST('/ramp/wallet', { body: { customerId, custody: 'external', blockchain: 'solana', address: randomSolanaAddress() } }), 201);
    made.wallets.push({ id: wallet.id, customerId, createdAt: wallet.createdAt });
    clock.advance(60_000);
    const account = await createBankAccount(server, customerId);
    made['bank-accounts'].push({ id: account.internalAccountId, customerId, createdAt: account.createdAt });
    clock.advance(60_000);
    const order = expectStatus(await server.api.POST('/ramp/order', { body: { customerId, type: 'onramp', sourceAmount: `${100 + i}.00`, walletId: wallet.id, token: 'CETES' } }), 201);
    made.orders.push({ id: order.id, customerId, createdAt: order.createdAt });
    clock.advance(60_000);
    const swap = expectStatus(await server.api.POST('/ramp/swap', { body: { customerId, walletId: wallet.id, sourceToken: 'USDC', targetToken: 'CETES', sourceAmount: `${10 + i}` } }), 201);
    made.swaps.push({ id: swap.id, customerId, createdAt: swap.createdAt });
  }
});
afterAll(() => server.close());

/** A `next` URL on the configured base URL: its path under the server, and its page query. */
function link(next: string) {
  expect(next.startsWith(baseUrl), next).toBe(true);
  const url = new URL(next);
  return { path: next.slice(baseUrl.length).split('?')[0], query: { pageNumber: Number(url.searchParams.get('pageNumber')), pageSize: Number(url.searchParams.get('pageSize')) } };
}

describe.each(['orders', 'wallets', 'bank-accounts'] as const)('POST /ramp/%s', (what) => {
  const path = `/ramp/${what}`;
  const list = async (body?: ListBody, query: PageQuery = {}, api: Api = server.api) => lists[what].all(api, body, query);
  const ofCustomer = async (customerId: string, body?: ListBody, query: PageQuery = {}, api: Api = server.api) => lists[what].ofCustomer(api, customerId, body, query);
  /** Follows a `next` link of this list with `body`. */
  const follow = async (next: string, body?: ListBody) => {
    const { path: linked, query } = link(next);
    if (linked === path) return expectStatus(await list(body, query), 200);
    const customer = linked!.match(/^\/ramp\/customer\/([^/]+)\//)?.[1];
    expect(linked).toBe(`/ramp/customer/${customer}/${what}`);
    return expectStatus(await ofCustomer(customer!, body, query), 200);
  };

  it('answers the first page with defaults for an empty body, oldest first', async () => {
    for (const body of [undefined, {}]) {
      const page = expectStatus(await list(body), 200);
      expect(page).toMatchObject({ pageNumber: 0, pageSize: 30, totalItems: 7, totalPages: 1, next: null });
      expect(page.items.map(idOf)).toEqual(made[what].map((m) => m.id));
    }
  });

  it('pages with a next link on the base URL that gives the next page when followed with the same body', async () => {
    const body = { pageSize: 3 };
    const first = expectStatus(await list(body), 200);
    expect(first).toMatchObject({ pageNumber: 0, pageSize: 3, totalItems: 7, totalPages: 3, next: `${baseUrl}${path}?pageNumber=1&pageSize=3` });
    const seen: Item[] = [...first.items];
    let next = first.next;
    while (next) {
      const page = await follow(next, body);
      seen.push(...page.items);
      next = page.next;
    }
    expect(seen.map(idOf)).toEqual(made[what].map((m) => m.id));
    // The query overrides the body, so even an empty body follows.
    expect((await follow(`${baseUrl}${path}?pageNumber=2&pageSize=3`)).items.map(idOf)).toEqual([made[what][6]!.id]);
  });

  it('answers empty items past the last page', async () => {
    expect(expectStatus(await list({ pageNumber: 5, pageSize: 3 }), 200)).toMatchObject({ items: [], pageNumber: 5, totalItems: 7, totalPages: 3, next: null });
  });

  it('keeps items created after fromDate and at or before toDate', async () => {
    const all = made[what];
    const filters = { fromDate: all[1]!.createdAt, toDate: all[4]!.createdAt };
    const page = expectStatus(await list({ filters }), 200);
    expect(page.items.map(idOf)).toEqual(all.slice(2, 5).map((m) => m.id));
    expect(page.totalItems).toBe(3);
    const open = expectStatus(await list({ filters: { fromDate: all[5]!.createdAt } }), 200);
    expect(open.items.map(idOf)).toEqual([all[6]!.id]);
    // A zone offset names the same instant.
    const shifted = new Date(Date.parse(all[5]!.createdAt)).toISOString().replace('Z', '+00:00');
    expect(expectStatus(await list({ filters: { fromDate: shifted } }), 200).totalItems).toBe(1);
    // A null filter, which the contract does not type, is taken as none.
    const unfiltered = await server.sendRaw('POST', path, { body: { filters: null } });
    expect(unfiltered.status).toBe(200);
    expect(unfiltered.json_).toMatchObject({ totalItems: 7 });
  });

  it.each([
    [{ pageSize: 101 }, {}, 'You can only request 100 items at a time'],
    [{ pageSize: 0 }, {}, 'Page size must be greater than 0'],
    [{}, { pageSize: 101 }, 'You can only request 100 items at a time'],
    [{ pageSize: 10 }, { pageSize: 0 }, 'Page size must be greater than 0'],
  ])('refuses pageSize out of range with v1.yaml\'s message (%j %j)', async (body, query, error) => {
    expect(expectPlainError(await list(body, query), 400)).toEqual({ error });
  });

  it('refuses malformed JSON, filters without fromDate, a date that is not ISO 8601 and a negative page', async () => {
    // Broken JSON, and filters without their required fromDate: only sendRaw sends them.
    expectPlainError(await server.sendRaw('POST', path, { raw: '{"pageSize":', headers: { 'Content-Type': 'application/json' } }), 400);
    expectPlainError(await server.sendRaw('POST', path, { body: { filters: { toDate: '2026-01-01T00:00:00Z' } } }), 400);
    for (const body of [{ filters: { fromDate: 'yesterday' } }, { pageNumber: -1 }]) expectPlainError(await list(body), 400, JSON.stringify(body));
  });

  it('lists one customer with /ramp/customer/{id}/…, with its own next links', async () => {
    const bobs = made[what].filter((m) => m.customerId === bob);
    const first = expectStatus(await ofCustomer(bob, { pageSize: 1 }), 200);
    expect(first).toMatchObject({ totalItems: bobs.length, totalPages: bobs.length, next: `${baseUrl}/ramp/customer/${bob}/${what}?pageNumber=1&pageSize=1` });
    const second = await follow(first.next!, { pageSize: 1 });
    expect([...first.items, ...second.items].map(idOf)).toEqual(bobs.map((m) => m.id));
    for (const item of second.items) expect(ownerOf(item)).toBe(bob);
  });

  it('answers 404 in the v1 shape for a customer who is not a direct child of the key\'s organization', async () => {
    const grandchild = await unreachableOrganization(server, alice, { type: 'personal' });
    const other = await otherPartner(server);
    for (const [customer, key] of [[crypto.randomUUID(), server.key], [grandchild, server.key], [alice, other.key], [server.partnerId, server.key]] as const) {
      expect(expectPlainError(await ofCustomer(customer, {}, {}, server.as(key)), 404, customer)).toEqual({ error: 'Customer not found' });
    }
  });

  it('shows another partner none of these', async () => {
    const other = await otherPartner(server);
    expect(expectStatus(await list({}, {}, server.as(other.key)), 200)).toMatchObject({ items: [], totalItems: 0, next: null });
  });
});

// v1ListCustomerSwaps (designed): a customer's swaps, listed as its orders are.
describe('POST /ramp/customer/{customer_id}/swaps', () => {
  const path = (customer: string) => `/ramp/customer/${customer}/swaps`;
  const swapsOf = (customer: string) => made.swaps.filter((m) => m.customerId === customer);
  const swaps = (customerId: string, body?: ListBody, query: PageQuery = {}, api: Api = server.api) =>
    api.POST('/ramp/customer/{customer_id}/swaps', { params: { path: { customer_id: customerId }, query }, ...withBody(body) });

  it('answers the customer\'s swaps, oldest first, each as GET /ramp/swap/{id} shows it', async () => {
    for (const body of [undefined, {}]) {
      const page = expectStatus(await swaps(alice, body), 200);
      expect(page).toMatchObject({ pageNumber: 0, pageSize: 30, totalItems: swapsOf(alice).length, totalPages: 1, next: null });
      expect(page.items.map(idOf)).toEqual(swapsOf(alice).map((m) => m.id));
    }
    const [first] = expectStatus(await swaps(bob, {}), 200).items;
    expect(first).toEqual(expectStatus(await server.api.GET('/ramp/swap/{id}', { params: { path: { id: first!.id } } }), 200));
  });

  it('pages with a next link on the base URL, and keeps swaps created after fromDate and at or before toDate', async () => {
    const alices = swapsOf(alice);
    const first = expectStatus(await swaps(alice, { pageSize: 2 }), 200);
    expect(first).toMatchObject({ totalItems: alices.length, totalPages: Math.ceil(alices.length / 2), next: `${baseUrl}${path(alice)}?pageNumber=1&pageSize=2` });
    const { path: linked, query } = link(first.next!);
    expect(linked).toBe(path(alice));
    const second = expectStatus(await swaps(alice, { pageSize: 2 }, query), 200);
    expect([...first.items, ...second.items].map(idOf)).toEqual(alices.slice(0, 4).map((m) => m.id));
    const filtered = expectStatus(await swaps(alice, { filters: { fromDate: alices[0]!.createdAt, toDate: alices[2]!.createdAt } }), 200);
    expect(filtered.items.map(idOf)).toEqual(alices.slice(1, 3).map((m) => m.id));
    expect(filtered.totalItems).toBe(2);
  });

  it('refuses pageSize out of range with v1.yaml\'s message, and malformed JSON', async () => {
    expect(expectPlainError(await swaps(alice, { pageSize: 101 }), 400)).toEqual({ error: 'You can only request 100 items at a time' });
    expectPlainError(await server.sendRaw('POST', path(alice), { raw: '{"pageSize":', headers: { 'Content-Type': 'application/json' } }), 400);
  });

  it('answers 404 in the v1 shape for a customer who is not a direct child of the key\'s organization', async () => {
    const other = await otherPartner(server);
    for (const [customer, api] of [[crypto.randomUUID(), server.api], [alice, server.as(other.key)], [server.partnerId, server.api]] as const) {
      expect(expectPlainError(await swaps(customer, {}, {}, api), 404, customer)).toEqual({ error: 'Customer not found' });
    }
  });
});

describe('list queries', () => {
  it('read a range of positions, and find date bounds on the creation-time indexes (SQLite plan)', async () => {
    if (server.services.storage.engine !== 'sqlite') return;
    const { sql } = await import('kysely');
    for (const table of ['v1_orders', 'v1_wallets', 'v1_bank_accounts', 'v1_swaps']) {
      const page = await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT * FROM ${sql.table(table)} WHERE partner_id = ${server.partnerId} AND partner_position >= 31 AND partner_position <= 60 ORDER BY partner_position`.execute(server.services.storage.db);
      expect(page.rows.map((r) => r.detail).join(' ')).toContain(`USING INDEX ${table}_partner_position (partner_id=? AND partner_position>? AND partner_position<?)`);
      const bound = await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT partner_position FROM ${sql.table(table)} WHERE partner_id = ${server.partnerId} AND created_at > '2026' AND partner_position IS NOT NULL ORDER BY created_at, partner_position LIMIT 1`.execute(server.services.storage.db);
      expect(bound.rows.map((r) => r.detail).join(' ')).toContain(`${table}_partner_position_created`);
    }
  });
});

