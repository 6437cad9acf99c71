/**
 * Dense list positions (server/storage/positions.ts) on the real engine: SQLite, or
 * PostgreSQL with DATABASE_URL. Constant cost is asserted by query plans, not by timing:
 * every page query must be a range of a (scope, position) index.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/storage/database.ts';
import { migrations } from '../../server/storage/migrations/index.ts';
import { orderViewColumns, ordersRepository, type NewOrderRow } from '../../server/features/orders/repository.ts';
import { orderBody, orderBodyTag, presentOrder } from '../../server/features/orders/presenters.ts';
import { loadContract } from '../../server/shared/contract.ts';
import { organizationsRepository, type NewOrganization } from '../../server/features/organizations/repository.ts';
import { paymentAccountsRepository } from '../../server/features/paymentAccounts/repository.ts';
import { countOf, pageRange } from '../../server/storage/positions.ts';
import { quotesRepository } from '../../server/features/quotes/repository.ts';
import { v1BankAccountsRepository, v1OrdersRepository, v1SwapsRepository, v1WalletsRepository } from '../../server/features/v1/repository.ts';
import { walletsRepository } from '../../server/features/wallets/repository.ts';
import { deliveriesRepository } from '../../server/features/webhooks/deliveriesRepository.ts';
import { subscriptionsRepository } from '../../server/features/webhooks/subscriptionsRepository.ts';
import { explain, recordingDb } from '../support/plans.ts';
import { openedTestStorage, testDatabase } from '../support/storage.ts';

const { document } = loadContract();
const at = (minute: number, ms = 0) => new Date(Date.UTC(2026, 0, 1, 0, minute) + ms).toISOString();
const org = (o: Partial<NewOrganization> & { now: string }): NewOrganization => ({
  id: randomUUID(), parentId: null, type: 'business', displayName: 'Org', keySalt: 'salt', ...o,
});
let clabes = 0;

function quoteRow(organizationId: string, now: string) {
  return {
    id: randomUUID(), organization_id: organizationId, type: 'onramp' as const, source_asset: 'MXN', target_asset: 'USDC', source_amount: '100', target_amount: '5',
    rate: '0.05', fee: '0', rail: 'spei' as const, payment_account_id: null, wallet_address: null, created_at: now, expires_at: now,
  };
}
function orderRow(organizationId: string, quoteId: string, now: string): NewOrderRow {
  return {
    id: randomUUID(), organization_id: organizationId, quote_id: quoteId, type: 'onramp', status: 'created', source_asset: 'MXN', target_asset: 'USDC',
    source_amount: '100', target_amount: '5', payment_account_id: null, wallet_address: null, blockchain: 'solana', funding_instructions: null,
    funding_deadline: null, authorization_id: null, authorization_message: null, authorization_expires_at: null, failure_code: null, failure_message: null,
    claim: null, settle_at: null, created_at: now, updated_at: now,
  };
}
async function addOrder(db: Db, organizationId: string, now: string) {
  const quote = quoteRow(organizationId, now);
  await db.insertInto('quotes').values(quote).execute();
  const owner = await db.selectFrom('organizations').select(['id', 'parent_id']).where('id', '=', organizationId).executeTakeFirstOrThrow();
  return (await ordersRepository(db).insert(orderRow(organizationId, quote.id, now), owner, (row) => orderBody(document, row)))!;
}
function paymentAccountRow(organizationId: string, now: string) {
  return {
    id: randomUUID(), organization_id: organizationId, kind: 'bankAccount' as const, clabe: `0021800000000${String(++clabes).padStart(5, '0')}`, memo: null,
    account_holder_name: 'Holder', tax_id: 'XAXX010101000', status: 'pending' as const, rails: '{}', verify_at: null, created_at: now, updated_at: now,
  };
}
const walletRow = (organizationId: string, now: string) => ({
  id: randomUUID(), organization_id: organizationId, address: randomUUID(), blockchain: 'solana' as const, custody: 'external' as const, signer_public_key: null, created_at: now,
});
const v1WalletRow = (partnerId: string, customerId: string, now: string) => ({
  id: randomUUID(), partner_id: partnerId, customer_id: customerId, address: randomUUID(), blockchain: 'solana' as const, custody: 'external' as const,
  signer_public_key: null, created_at: now, updated_at: now,
});
const v1BankAccountRow = (partnerId: string, customerId: string, now: string) => ({
  id: randomUUID(), partner_id: partnerId, customer_id: customerId, clabe: `0021800000000${String(++clabes).padStart(5, '0')}`, account_label: 'Bank',
  currency: 'MXN' as const, role: 'owner', status: 'bank_account_pending' as const, compliant: 0, created_at: now, updated_at: now,
});
const v1OrderRow = (partnerId: string, customerId: string, now: string) => ({
  id: randomUUID(), partner_id: partnerId, customer_id: customerId, type: 'onramp' as const, status: 'created' as const, source_amount: '100', target_amount: '5',
  token: 'USDC', blockchain: 'solana' as const, wallet_id: null, wallet_address: 'w', bank_account_id: null, deposit_clabe: null, confirmed_tx_signature: null,
  burn_transaction: null, transaction_expired: 0, approval_message_id: null, approval_message: null, approval_summary: null, due_at: null,
  created_at: now, updated_at: now,
});
const v1SwapRow = (partnerId: string, customerId: string, walletId: string, now: string) => ({
  id: randomUUID(), partner_id: partnerId, customer_id: customerId, wallet_id: walletId, blockchain: 'solana' as const, status: 'created' as const,
  source_token: 'USDC', target_token: 'CETES', source_amount: '10', send_transaction: 't', transaction_expired: 0, send_transaction_hash: null,
  receive_transaction_hash: null, created_at: now, updated_at: now,
});
const subscriptionRow = (organizationId: string, surface: 'v1' | 'v2', now: string) => ({
  id: randomUUID(), surface, organization_id: organizationId, event_type: 'orderUpdated' as const, url: `https://example.com/${randomUUID()}`, secret: 's',
  created_at: now, updated_at: now,
});

describe('pageRange', () => {
  it.each([
    // bounds, size, number, order → lo..hi
    [{ first: 1, last: 10 }, 3, 0, 'asc', { lo: 1, hi: 3 }],
    [{ first: 1, last: 10 }, 3, 3, 'asc', { lo: 10, hi: 10 }],
    [{ first: 1, last: 10 }, 3, 4, 'asc', { lo: 1, hi: 0 }],
    [{ first: 1, last: 10 }, 3, 0, 'desc', { lo: 8, hi: 10 }],
    [{ first: 1, last: 10 }, 3, 3, 'desc', { lo: 1, hi: 1 }],
    [{ first: 1, last: 10 }, 3, 4, 'desc', { lo: 1, hi: 0 }],
    [{ first: 4, last: 8 }, 2, 1, 'asc', { lo: 6, hi: 7 }],
    [{ first: 4, last: 8 }, 2, 2, 'asc', { lo: 8, hi: 8 }],
    [{ first: 4, last: 8 }, 2, 2, 'desc', { lo: 4, hi: 4 }],
    [{ first: 1, last: 0 }, 30, 0, 'asc', { lo: 1, hi: 0 }],
    [{ first: 6, last: 5 }, 30, 0, 'desc', { lo: 1, hi: 0 }],
    [{ first: 1, last: 1_000_000 }, 100, 9_999, 'desc', { lo: 1, hi: 100 }],
    [{ first: 1, last: 10 }, 100, Number.MAX_SAFE_INTEGER, 'asc', { lo: 1, hi: 0 }],
  ] as const)('%o size %i page %i %s → %o', (bounds, size, number, order, expected) => {
    expect(pageRange(bounds, size, number, order)).toEqual(expected);
  });
});

describe('list positions', () => {
  const opened = openedTestStorage();

  it('gives concurrent inserts in one scope the positions 1..n, with no gap or duplicate', async () => {
    // Two storages are two pools on PostgreSQL: up to 20 connections inserting at once.
    // On SQLite one process has one connection (a second would wait on the first's lock
    // while blocking the thread that must release it); processes are PostgreSQL's case.
    const other = opened.storage.engine === 'postgres' ? await opened.database.open() : opened.storage;
    try {
      const partner = (await organizationsRepository(opened.storage.db).insert(org({ now: at(0) }))).id;
      const taken = [randomUUID(), randomUUID(), randomUUID()];
      const inserts = Array.from({ length: 40 }, (_, i) => {
        const repo = organizationsRepository((i % 2 ? other : opened.storage).db);
        // Every fourth races for an id already asked for: the losers must give their position back.
        if (i % 4 === 3) return repo.insertIfAbsent(org({ id: taken[i % 3], parentId: partner, now: at(1) }));
        return repo.insert(org({ parentId: partner, now: at(1, i) }));
      });
      await Promise.all(inserts);
      const rows = await opened.storage.db.selectFrom('organizations').select(['id', 'child_position', 'created_at']).where('parent_id', '=', partner).orderBy('child_position').execute();
      expect(rows.map((r) => r.child_position)).toEqual(rows.map((_, i) => i + 1));
      expect(rows).toHaveLength(30 + 3);
      expect(await countOf(opened.storage.db, 'organizations.children', partner)).toBe(rows.length);
      // Creation times follow positions, whichever insert committed first.
      expect(rows.map((r) => r.created_at)).toEqual(rows.map((r) => r.created_at).sort());
      const page = await organizationsRepository(opened.storage.db).childrenPage(partner, { size: 7, number: 1 }, undefined, 'asc');
      expect(page.items.map((o) => o.id)).toEqual(rows.slice(7, 14).map((r) => r.id));
    } finally {
      if (other !== opened.storage) await other.close();
    }
  });

  it('gives concurrent orders dense positions in the partner list, the child list and the organization list', async () => {
    // On SQLite one process has one connection (a second would wait on the first's lock
    // while blocking the thread that must release it); processes are PostgreSQL's case.
    const other = opened.storage.engine === 'postgres' ? await opened.database.open() : opened.storage;
    try {
      const partner = (await organizationsRepository(opened.storage.db).insert(org({ now: at(0) }))).id;
      const child = (await organizationsRepository(opened.storage.db).insert(org({ parentId: partner, now: at(0) }))).id;
      const grandchild = (await organizationsRepository(opened.storage.db).insert(org({ parentId: child, now: at(0) }))).id;
      const owners = [partner, child, grandchild];
      await Promise.all(Array.from({ length: 30 }, (_, i) => addOrder((i % 2 ? other : opened.storage).db, owners[i % 3]!, at(2, i))));
      const orders = await opened.storage.db.selectFrom('orders').selectAll().where('organization_id', 'in', owners).execute();
      const dense = (positions: (number | null)[]) => expect([...positions].sort((a, b) => a! - b!)).toEqual(positions.map((_, i) => i + 1));
      // GET /orders of the partner: its own and its child's; of the child: its own and the grandchild's.
      dense(orders.filter((o) => o.partner_id === partner).map((o) => o.partner_position));
      dense([...orders.filter((o) => o.partner_id === child).map((o) => o.partner_position), ...orders.filter((o) => o.organization_id === child).map((o) => o.cover_position)]);
      for (const owner of owners) dense(orders.filter((o) => o.organization_id === owner).map((o) => o.organization_position));
      expect(await countOf(opened.storage.db, 'orders.covers', partner)).toBe(20);
      expect(await countOf(opened.storage.db, 'orders.covers', child)).toBe(20);
      const childList = await ordersRepository(opened.storage.db).page({ partnerId: child, parentId: partner }, { size: 100, number: 0 });
      const newestFirst = orders.filter((o) => o.organization_id !== partner).sort((a, b) => b.created_at.localeCompare(a.created_at) || (b.id < a.id ? -1 : 1));
      expect(childList.items.map((o) => JSON.parse(o.body!).createdAt)).toEqual(newestFirst.map((o) => o.created_at));
      expect(new Set(childList.items.map((o) => o.id))).toEqual(new Set(newestFirst.map((o) => o.id)));
    } finally {
      if (other !== opened.storage) await other.close();
    }
  });

  it("GET /orders and getOrder read each order's stored body, and the columns the contract's Order shows only to make it again", async () => {
    const partner = (await organizationsRepository(opened.storage.db).insert(org({ now: at(0) }))).id;
    const stored = await addOrder(opened.storage.db, partner, at(3));
    const expected = Object.fromEntries(orderViewColumns.map((column) => [column, stored[column]]));
    // The body is the order as presented from the row as stored, made by this contract and presenter.
    const listed = { id: stored.id, body: JSON.stringify(presentOrder(stored)), body_tag: orderBodyTag(document) };
    const orders = ordersRepository(opened.storage.db);
    for (const page of [await orders.page({ partnerId: partner, parentId: null }, { size: 30, number: 0 }), await orders.page({ organizationId: partner }, { size: 30, number: 0 })]) {
      expect(page.items).toEqual([listed]);
    }
    expect(await orders.findBody(partner, stored.id)).toEqual(listed);
    expect(await orders.find(partner, stored.id)).toEqual(expected);
    expect(await orders.views([stored.id])).toEqual([expected]);
  });

  it('leaves the counters exactly as they were when a unique index refuses the row', async () => {
    const partner = (await organizationsRepository(opened.storage.db).insert(org({ now: at(0) }))).id;
    const wallet = walletRow(partner, at(1));
    expect(await walletsRepository(opened.storage.db).insert(wallet)).toEqual({ ...wallet, position: 1 });
    const counters = () => opened.storage.db.selectFrom('list_counters').selectAll().where('scope', '=', partner).execute();
    const before = await counters();
    // The same address later: refused, and neither the count nor last_at moves.
    expect(await walletsRepository(opened.storage.db).insert({ ...walletRow(partner, at(9)), address: wallet.address })).toBeUndefined();
    expect(await counters()).toEqual(before);
    expect(before).toEqual([{ list: 'wallets', scope: partner, count: 1, last_at: at(1) }]);
  });

  it("in the caller's transaction, undoes only the refused row's counting, and the rest of the transaction commits", async () => {
    const partner = (await organizationsRepository(opened.storage.db).insert(org({ now: at(0) }))).id;
    const wallet = walletRow(partner, at(1));
    await walletsRepository(opened.storage.db).insert(wallet);
    const counters = () => opened.storage.db.selectFrom('list_counters').selectAll().where('scope', '=', partner).orderBy('list').execute();
    const other = walletRow(partner, at(3));
    await opened.storage.db.transaction().execute(async (tx) => {
      expect(await walletsRepository(tx).insert({ ...walletRow(partner, at(9)), address: wallet.address })).toBeUndefined();
      expect(await walletsRepository(tx).insert(other)).toEqual({ ...other, position: 2 });
    });
    expect(await counters()).toEqual([{ list: 'wallets', scope: partner, count: 2, last_at: at(3) }]);
  });

  it('refuses an order whose given owner is not its organization, before counting or storing it', async () => {
    // The owner decides which partner's and parent's lists count the order: another
    // organization's row would number it in the wrong lists.
    const repo = organizationsRepository(opened.storage.db);
    const partner = (await repo.insert(org({ now: at(0) }))).id;
    const child = await repo.insert(org({ parentId: partner, now: at(1) }));
    const quote = quoteRow(partner, at(2));
    await opened.storage.db.insertInto('quotes').values(quote).execute();
    const row = orderRow(partner, quote.id, at(2));
    await expect(ordersRepository(opened.storage.db).insert(row, { id: child.id, parent_id: child.parent_id }, (r) => orderBody(document, r))).rejects.toThrow(`order ${row.id} belongs to ${partner}, not ${child.id}`);
    expect(await opened.storage.db.selectFrom('orders').select('id').where('id', '=', row.id).execute()).toEqual([]);
    expect(await opened.storage.db.selectFrom('list_counters').select('list').where('list', 'like', 'orders.%').where('scope', 'in', [partner, child.id]).execute()).toEqual([]);
  });

  it('never stamps a row earlier than the latest of its scope', async () => {
    const repo = organizationsRepository(opened.storage.db);
    const partner = (await repo.insert(org({ now: at(0) }))).id;
    const first = await repo.insert(org({ parentId: partner, now: at(10) }));
    // A clock behind (another process's) still lands after: created_at order stays position order.
    const second = await repo.insert(org({ parentId: partner, now: at(5) }));
    expect(first).toMatchObject({ child_position: 1, created_at: at(10) });
    expect(second).toMatchObject({ child_position: 2, created_at: at(10), updated_at: at(10) });
  });

  it('renumbers the later subscriptions when one is deleted', async () => {
    const organization = randomUUID();
    const subscriptions = subscriptionsRepository(opened.storage.db);
    const v2 = Array.from({ length: 5 }, (_, i) => subscriptionRow(organization, 'v2', at(1, i)));
    const v1 = Array.from({ length: 2 }, (_, i) => subscriptionRow(organization, 'v1', at(1, i)));
    for (const row of [...v2, ...v1]) expect(await subscriptions.insertSubscription(row)).toMatchObject({ id: row.id, position: expect.any(Number) });
    await deliveriesRepository(opened.storage.db).insertDeliveries(randomUUID(), [v2[1]!.id], at(2));
    const list = async (surface: 'v1' | 'v2') => {
      const { items, total } = await subscriptions.listSubscriptions(organization, surface, { size: 100, number: 0 });
      return { ids: items.map((s) => s.id), positions: items.map((s) => s.position), total };
    };
    expect(await opened.storage.db.transaction().execute((tx) => subscriptionsRepository(tx).deleteSubscription(organization, 'v2', v2[1]!.id))).toBe(true);
    expect(await list('v2')).toEqual({ ids: [v2[0], v2[2], v2[3], v2[4]].map((s) => s!.id), positions: [1, 2, 3, 4], total: 4 });
    expect(await countOf(opened.storage.db, 'webhook_deliveries', v2[1]!.id)).toBe(0);
    await subscriptions.deleteSubscription(organization, 'v2', v2[4]!.id);
    await subscriptions.deleteSubscription(organization, 'v2', v2[0]!.id);
    expect(await list('v2')).toEqual({ ids: [v2[2]!.id, v2[3]!.id], positions: [1, 2], total: 2 });
    expect(await list('v1')).toEqual({ ids: v1.map((s) => s.id), positions: [1, 2], total: 2 });
    // A new one continues the numbering.
    const next = subscriptionRow(organization, 'v2', at(3));
    await subscriptions.insertSubscription(next);
    expect((await list('v2')).ids).toEqual([v2[2]!.id, v2[3]!.id, next.id]);
    expect(await subscriptions.deleteSubscription(organization, 'v2', randomUUID())).toBe(false);
  });

  it('keeps subscriptions dense when several are created and deleted at once', async () => {
    const other = opened.storage.engine === 'postgres' ? await opened.database.open() : opened.storage;
    try {
      const organization = randomUUID();
      const rows = Array.from({ length: 12 }, (_, i) => subscriptionRow(organization, 'v2', at(1, i)));
      for (const row of rows) await subscriptionsRepository(opened.storage.db).insertSubscription(row);
      const gone = new Set([0, 3, 4, 7, 11].map((i) => rows[i]!.id));
      const added = Array.from({ length: 4 }, (_, i) => subscriptionRow(organization, 'v2', at(2, i)));
      await Promise.all([
        ...[...gone].map((id, i) => subscriptionsRepository((i % 2 ? other : opened.storage).db).deleteSubscription(organization, 'v2', id)),
        ...added.map((row, i) => subscriptionsRepository((i % 2 ? opened.storage : other).db).insertSubscription(row)),
      ]);
      const { items, total } = await subscriptionsRepository(opened.storage.db).listSubscriptions(organization, 'v2', { size: 100, number: 0 });
      expect(total).toBe(12 - 5 + 4);
      expect(items.map((s) => s.position)).toEqual(items.map((_, i) => i + 1));
      const kept: string[] = rows.filter((r) => !gone.has(r.id)).map((r) => r.id);
      expect(items.map((s) => s.id).filter((id) => kept.includes(id))).toEqual(kept);
      expect(new Set(items.map((s) => s.id))).toEqual(new Set([...kept, ...added.map((r) => r.id)]));
    } finally {
      if (other !== opened.storage) await other.close();
    }
  });

  it('finds the positions of a date range: after fromDate, up to and including toDate', async () => {
    const repo = organizationsRepository(opened.storage.db);
    const partner = (await repo.insert(org({ now: at(0) }))).id;
    const minutes = [1, 2, 2, 3, 5, 5, 5, 8];
    const children: { id: string; created_at: string }[] = [];
    for (const m of minutes) children.push(await repo.insert(org({ parentId: partner, now: at(m) })));
    const ranges: { from?: string; to?: string }[] = [
      { from: at(0) }, { from: at(2) }, { from: at(1), to: at(5) }, { from: at(2), to: at(2) }, { to: at(2) }, { to: at(0) },
      { from: at(8) }, { from: at(4), to: at(4) }, { from: at(3), to: at(7) }, { from: at(9), to: at(1) },
    ];
    for (const range of ranges) {
      const expected = children.filter((c) => (!range.from || c.created_at > range.from) && (!range.to || c.created_at <= range.to)).map((c) => c.id);
      const all = await repo.childrenPage(partner, { size: 100, number: 0 }, range, 'asc');
      expect({ range, ids: all.items.map((o) => o.id), total: all.total }).toEqual({ range, ids: expected, total: expected.length });
      const second = await repo.childrenPage(partner, { size: 2, number: 1 }, range, 'asc');
      expect(second.items.map((o) => o.id)).toEqual(expected.slice(2, 4));
      const newest = await repo.childrenPage(partner, { size: 2, number: 1 }, range, 'desc');
      expect(newest.items.map((o) => o.id)).toEqual([...expected].reverse().slice(2, 4));
    }
  });

  it('answers every page query from a range of a position index', async () => {
    const { db, captured } = recordingDb(opened);
    try {
      const partner = (await organizationsRepository(db).insert(org({ now: at(0) }))).id;
      const child = (await organizationsRepository(db).insert(org({ parentId: partner, now: at(1) }))).id;
      await paymentAccountsRepository(db).insert(paymentAccountRow(child, at(1)));
      await walletsRepository(db).insert(walletRow(child, at(1)));
      await addOrder(db, partner, at(1));
      await addOrder(db, child, at(1));
      const v1Wallet = await v1WalletsRepository(db).insert(v1WalletRow(partner, child, at(1)));
      await v1BankAccountsRepository(db).insert(v1BankAccountRow(partner, child, at(1)));
      await v1OrdersRepository(db).insert(v1OrderRow(partner, child, at(1)));
      await v1SwapsRepository(db).insert(v1SwapRow(partner, child, v1Wallet.id, at(1)));
      await quotesRepository(db).insert(quoteRow(child, at(1)));
      const subscription = subscriptionRow(partner, 'v2', at(1));
      await subscriptionsRepository(db).insertSubscription(subscription);
      await deliveriesRepository(db).insertDeliveries(randomUUID(), [subscription.id], at(1));

      captured.length = 0;
      const page = { size: 30, number: 0 };
      const dated = { size: 30, number: 0, from: at(0), to: at(5) };
      const lists: [string, () => Promise<{ items: unknown[] }>][] = [
        ['GET /organizations', () => organizationsRepository(db).childrenPage(partner, page, undefined, 'desc')],
        ['GET|POST /ramp/customers (filtered)', () => organizationsRepository(db).childrenPage(partner, page, dated, 'asc')],
        ['payment accounts', () => paymentAccountsRepository(db).page(child, page)],
        ['wallets', () => walletsRepository(db).page(child, page)],
        ['quotes', () => quotesRepository(db).page(child, page)],
        ['GET /orders (partner)', () => ordersRepository(db).page({ partnerId: partner, parentId: null }, page)],
        ['GET /orders (child)', () => ordersRepository(db).page({ partnerId: child, parentId: partner }, page)],
        ['GET /orders?organizationId', () => ordersRepository(db).page({ organizationId: child }, page)],
        ...(['partnerId', 'customerId'] as const).flatMap((key) => {
          const scope = key === 'partnerId' ? { partnerId: partner } : { customerId: child };
          return [
            [`v1 orders ${key}`, () => v1OrdersRepository(db).page(scope, dated)],
            [`v1 wallets ${key}`, () => v1WalletsRepository(db).page(scope, page)],
            [`v1 bank accounts ${key}`, () => v1BankAccountsRepository(db).page(scope, dated)],
            [`v1 swaps ${key}`, () => v1SwapsRepository(db).page(scope, dated)],
          ] as [string, () => Promise<{ items: unknown[] }>][];
        }),
        ['webhook subscriptions', () => subscriptionsRepository(db).listSubscriptions(partner, 'v2', page)],
        ['webhook deliveries', () => deliveriesRepository(db).listDeliveries(subscription.id, page)],
      ];
      for (const [name, list] of lists) {
        captured.length = 0;
        const { items } = await list();
        expect(items.length, name).toBeGreaterThan(0);
        expect(captured.length, name).toBeGreaterThanOrEqual(2);
        for (const query of captured) {
          const plan = await explain(opened.storage, { compile: () => query });
          const what = `${name}: ${query.sql}\n${plan}`;
          if (opened.storage.engine === 'sqlite') {
            expect(plan, what).toMatch(/SEARCH \w+ USING (COVERING |PRIMARY KEY|INDEX)/);
            expect(plan, what).not.toMatch(/(^|\n)\s*SCAN (?!CONSTANT)/);
            if (/position" >= /.test(query.sql)) {
              // The range is in the index constraint: only the page's rows are read.
              expect(plan, what).toMatch(/USING (COVERING )?INDEX \w*position\w* \([^)]*position>\?[^)]*position<\?\)/);
              expect(plan, what).not.toMatch(/USE TEMP B-TREE/);
            }
            if (/created_at > |created_at <= /.test(query.sql)) expect(plan, what).toMatch(/USING (COVERING )?INDEX \w+_position_created/);
          } else {
            expect(plan, what).not.toMatch(/Seq Scan/);
            if (/position" >= /.test(query.sql)) expect(plan, what).toMatch(/Index Cond: .*position"? >= /);
            else expect(plan, what).toMatch(/Index (Only )?Scan/);
          }
        }
      }
    } finally {
      await db.destroy();
    }
  });

  it("finds due orders through the timer indexes, and the settle index holds only orders with a settlement due (migration 170)", async () => {
    const { db, captured } = recordingDb(opened);
    try {
      const partner = (await organizationsRepository(db).insert(org({ now: at(0) }))).id;
      const waiting = await addOrder(db, partner, at(1));
      const funded = await addOrder(db, partner, at(1));
      await db.updateTable('orders').set({ funding_deadline: at(30) }).where('id', '=', waiting.id).execute();
      await db.updateTable('orders').set({ status: 'funded', settle_at: at(20) }).where('id', '=', funded.id).execute();
      const orders = ordersRepository(db);
      const cases = [
        { status: 'funded', column: 'settle_at', index: 'orders_status_settle', id: funded.id, due: at(20) },
        { status: 'created', column: 'funding_deadline', index: 'orders_status_deadline', id: waiting.id, due: at(30) },
      ] as const;
      for (const timer of cases) {
        expect(await orders.due(timer.status, timer.column, at(59))).toEqual([{ id: timer.id, organization_id: partner, due_at: timer.due }]);
        expect(await orders.due(timer.status, timer.column, at(10))).toEqual([]);
      }
      const dueQueries = captured.filter((query) => /"(settle_at|funding_deadline)" <= /.test(query.sql));
      expect(dueQueries).toHaveLength(4);
      for (const [i, query] of dueQueries.entries()) {
        const { index } = cases[Math.floor(i / 2)]!;
        const plan = await explain(opened.storage, { compile: () => query });
        expect(plan, `${query.sql}\n${plan}`).toContain(index);
        expect(plan, `${query.sql}\n${plan}`).not.toMatch(/USE TEMP B-TREE|(^|\s)Sort\b|Seq Scan on orders|(^|\n)\s*SCAN orders/);
      }
      // An order is written to the settle index only once a settlement is due, and to the
      // cover index only when its organization has a parent: createOrder writes neither.
      const definitions = opened.storage.engine === 'sqlite'
        ? await sql<{ name: string; definition: string }>`SELECT name, sql AS definition FROM sqlite_master WHERE type = 'index' AND tbl_name = 'orders'`.execute(db)
        : await sql<{ name: string; definition: string }>`SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'orders'`.execute(db);
      const where = Object.fromEntries(definitions.rows.map((row) => [row.name, /\bwhere\b(.*)$/i.exec(row.definition ?? '')?.[1]?.trim() ?? null]));
      expect(where.orders_status_settle).toMatch(/^\(?"?settle_at"? is not null\)?$/i);
      expect(where.orders_cover_position).toMatch(/^\(?"?cover_position"? is not null\)?$/i);
    } finally {
      await db.destroy();
    }
  });
});

describe('createOrder reads', () => {
  const opened = openedTestStorage();

  it("finds the quote's wallet by organization and address in index order, the oldest first (migration 170)", async () => {
    const partner = (await organizationsRepository(opened.storage.db).insert(org({ now: at(0) }))).id;
    const { db, captured } = recordingDb(opened);
    try {
      const wallets = walletsRepository(db);
      // One EVM address on two chains: the one registered first is the order's.
      const older = { ...walletRow(partner, at(2)), address: '0x52908400098527886E0F7030069857D2E4169EE7', blockchain: 'base' as const };
      await wallets.insert(older);
      await wallets.insert({ ...walletRow(partner, at(3)), address: older.address, blockchain: 'ethereum' as const });
      captured.length = 0;
      expect(await wallets.findByAddress(partner, older.address)).toMatchObject({ id: older.id, blockchain: 'base' });
      expect(captured).toHaveLength(1);
      const plan = await explain(opened.storage, { compile: () => captured[0]! });
      expect(plan).toContain('wallets_organization_address');
      expect(plan).not.toMatch(/USE TEMP B-TREE|(^|\s)Sort\b|Seq Scan/);
    } finally {
      await db.destroy();
    }
  });
});

describe('migration 100-list-positions', () => {
  it('numbers the rows stored before it, so every list answers as before', async () => {
    const database = await testDatabase();
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '100-list-positions'));
      const old = await database.migrateOnly(before);
      const organization = (id: string, parentId: string | null, now: string) => ({
        id, parent_id: parentId, type: 'business', display_name: 'Old', key_salt: 'salt', kyb_status: 'approved', kyb_approved_at: null, kyc_status: 'notStarted', created_at: now, updated_at: now,
      });
      const partner = randomUUID();
      // Ties in created_at are ordered by id, as the lists were.
      const children = [randomUUID(), randomUUID(), randomUUID()];
      const grandchild = randomUUID();
      await old.insertInto('organizations').values(organization(partner, null, at(0))).execute();
      for (const [i, id] of children.entries()) await old.insertInto('organizations').values(organization(id, partner, at(i === 2 ? 1 : 2))).execute();
      await old.insertInto('organizations').values(organization(grandchild, children[0]!, at(3))).execute();
      const orders: { id: string; organization_id: string; created_at: string }[] = [];
      const owners = [partner, ...children, grandchild];
      for (let i = 0; i < 25; i++) {
        const owner = owners[i % owners.length]!;
        const now = at(4 + (i % 7));
        const quote = quoteRow(owner, now);
        await old.insertInto('quotes').values(quote).execute();
        const row = orderRow(owner, quote.id, now);
        await old.insertInto('orders').values(row).execute();
        orders.push(row);
      }
      const v1 = Array.from({ length: 9 }, (_, i) => v1WalletRow(partner, children[i % 2]!, at(5 + (i % 4))));
      for (const row of v1) await old.insertInto('v1_wallets').values(row).execute();
      const subscriptions = Array.from({ length: 4 }, (_, i) => subscriptionRow(partner, i === 3 ? 'v1' : 'v2', at(6, i % 2)));
      for (const row of subscriptions) await old.insertInto('webhook_subscriptions').values(row).execute();
      await old.destroy();

      const storage = await database.open();
      try {
        const byTime = <T extends { id: string; created_at: string }>(rows: T[]) => [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : 1)).map((r) => r.id);
        const all = { size: 100, number: 0 };
        const customers = await organizationsRepository(storage.db).childrenPage(partner, all, undefined, 'asc');
        const childRows = await storage.db.selectFrom('organizations').selectAll().where('parent_id', '=', partner).execute();
        expect(customers.items.map((o) => o.id)).toEqual(byTime(childRows));
        expect(customers.total).toBe(3);
        const filtered = await organizationsRepository(storage.db).childrenPage(partner, all, { from: at(1) }, 'asc');
        expect(filtered.items.map((o) => o.id)).toEqual(byTime(childRows.filter((o) => o.created_at > at(1))));

        const partnerOrders = await ordersRepository(storage.db).page({ partnerId: partner, parentId: null }, all);
        expect(partnerOrders.items.map((o) => o.id)).toEqual(byTime(orders.filter((o) => o.organization_id !== grandchild)).reverse());
        expect(partnerOrders.total).toBe(20);
        const childOrders = await ordersRepository(storage.db).page({ partnerId: children[0]!, parentId: partner }, all);
        expect(childOrders.items.map((o) => o.id)).toEqual(byTime(orders.filter((o) => o.organization_id === children[0] || o.organization_id === grandchild)).reverse());
        for (const owner of owners) {
          const one = await ordersRepository(storage.db).page({ organizationId: owner }, { size: 2, number: 1 });
          expect(one.items.map((o) => o.id)).toEqual(byTime(orders.filter((o) => o.organization_id === owner)).reverse().slice(2, 4));
        }
        // Page by page, the partner's orders come out as one list.
        const pages = [];
        for (let n = 0; n < 7; n++) pages.push(...(await ordersRepository(storage.db).page({ partnerId: partner, parentId: null }, { size: 3, number: n })).items.map((o) => o.id));
        expect(pages).toEqual(partnerOrders.items.map((o) => o.id));

        const wallets = await v1WalletsRepository(storage.db).page({ partnerId: partner }, { size: 100, number: 0, from: at(5) });
        expect(wallets.items.map((w) => w.id)).toEqual(byTime(v1.filter((w) => w.created_at > at(5))));
        const customerWallets = await v1WalletsRepository(storage.db).page({ customerId: children[1]! }, { size: 100, number: 0 });
        expect(customerWallets.items.map((w) => w.id)).toEqual(byTime(v1.filter((w) => w.customer_id === children[1])));
        const v2 = await subscriptionsRepository(storage.db).listSubscriptions(partner, 'v2', all);
        expect(v2.items.map((s) => s.id)).toEqual(byTime(subscriptions.slice(0, 3)));
        expect((await subscriptionsRepository(storage.db).listSubscriptions(partner, 'v1', all)).total).toBe(1);

        // New rows continue after the numbered ones.
        const added = await addOrder(storage.db, children[1]!, at(30));
        expect((await ordersRepository(storage.db).page({ partnerId: partner, parentId: null }, { size: 1, number: 0 })).items[0]?.id).toBe(added.id);
        expect(added).toMatchObject({ partner_id: partner, partner_position: 21 });
      } finally {
        await storage.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe('migration 150-quote-and-swap-lists', () => {
  it('numbers the quotes and v1 swaps stored before it, and new ones continue after them', async () => {
    const database = await testDatabase();
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '150-quote-and-swap-lists'));
      const old = await database.migrateOnly(before);
      const organization = (id: string, parentId: string | null, now: string) => ({
        id, parent_id: parentId, top_id: parentId ?? id, type: 'business', display_name: 'Old', key_salt: 'salt', kyb_status: 'approved', kyb_approved_at: null, kyc_status: 'notStarted', created_at: now, updated_at: now,
      });
      const partner = randomUUID();
      const customers = [randomUUID(), randomUUID()];
      await old.insertInto('organizations').values(organization(partner, null, at(0))).execute();
      for (const id of customers) await old.insertInto('organizations').values(organization(id, partner, at(1))).execute();
      // Ties in created_at are ordered by id.
      const quotes = Array.from({ length: 7 }, (_, i) => quoteRow(customers[i % 2]!, at(2 + (i % 3))));
      for (const row of quotes) await old.insertInto('quotes').values(row).execute();
      const wallets = customers.map((customer) => v1WalletRow(partner, customer, at(1)));
      for (const row of wallets) await old.insertInto('v1_wallets').values(row).execute();
      const swaps = Array.from({ length: 7 }, (_, i) => v1SwapRow(partner, customers[i % 2]!, wallets[i % 2]!.id, at(2 + (i % 3))));
      for (const row of swaps) await old.insertInto('v1_swaps').values(row).execute();
      await old.destroy();

      const storage = await database.open();
      try {
        const byTime = <T extends { id: string; created_at: string }>(rows: T[]) => [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : 1)).map((r) => r.id);
        const all = { size: 100, number: 0 };
        for (const customer of customers) {
          const listed = await quotesRepository(storage.db).page(customer, all);
          expect(listed.items.map((q) => q.id)).toEqual(byTime(quotes.filter((q) => q.organization_id === customer)).reverse());
          const customerSwaps = await v1SwapsRepository(storage.db).page({ customerId: customer }, { ...all, from: at(2) });
          expect(customerSwaps.items.map((s) => s.id)).toEqual(byTime(swaps.filter((s) => s.customer_id === customer && s.created_at > at(2))));
        }
        expect((await v1SwapsRepository(storage.db).page({ partnerId: partner }, all)).items.map((s) => s.id)).toEqual(byTime(swaps));

        const quote = await quotesRepository(storage.db).insert(quoteRow(customers[0]!, at(30)));
        expect(quote.position).toBe(5);
        expect((await quotesRepository(storage.db).page(customers[0]!, { size: 1, number: 0 })).items[0]?.id).toBe(quote.id);
        const swap = await v1SwapsRepository(storage.db).insert(v1SwapRow(partner, customers[1]!, wallets[1]!.id, at(30)));
        expect(swap).toMatchObject({ partner_position: 8, customer_position: 4 });
      } finally {
        await storage.close();
      }
    } finally {
      await database.drop();
    }
  });
});
