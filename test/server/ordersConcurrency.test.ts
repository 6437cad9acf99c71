/**
 * One order per quote however many requests race for it, enforced by the database (a unique
 * constraint on the quote id), so it holds across server processes: here two app instances
 * with their own connections to one database (an SQLite file, or PostgreSQL with
 * DATABASE_URL). Racing moves of one order apply once, with one event.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { orderEvents, solanaAddress } from '../support/fixtures.ts';

describe('concurrent order creation for one quote', () => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    const sqliteDir = mkdtempSync(join(tmpdir(), 'ramp-orders-'));
    first = await startTestServer({ env: { RAMP_DATA_DIR: sqliteDir } });
    // The second instance shares the first one's database: its PostgreSQL database, or its SQLite file.
    const shared = first.services.config.databaseUrl;
    second = await startTestServer(shared ? { databaseUrl: shared } : { env: { RAMP_DATA_DIR: sqliteDir } });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const quote = async () => {
    const response = await first.call('POST', `/organization/${first.partnerId}/quote`, {
      body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100', rail: 'spei', walletAddress: solanaAddress() },
    });
    expect(response.status, response.text_).toBe(201);
    return response.json_.quoteId as string;
  };

  it('makes exactly one order from 20 simultaneous requests to two servers; the others get it back or 409 conflict', async () => {
    const quoteId = await quote();
    const path = `/organization/${first.partnerId}/order`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? first : second).call('POST', path, { body: { quoteId }, key: first.key })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const s of statuses) expect([200, 201, 409]).toContain(s);
    const ids = new Set(responses.filter((r) => r.status !== 409).map((r) => r.json_.id));
    expect(ids.size).toBe(1);
    for (const r of responses.filter((x) => x.status === 409)) expect(r.json_.type).toBe('https://docs.ramp.example/errors/conflict');
    const rows = await first.services.storage.db.selectFrom('orders').select('id').where('quote_id', '=', quoteId).execute();
    expect(rows.map((r) => r.id)).toEqual([...ids]);
    // Creation sends no event, however many requests made it.
    expect(await orderEvents(first, [...ids][0]!)).toEqual([]);
  });

  it('applies one of a cancel and a deposit racing for the same order, with one event', async () => {
    const quoteId = await quote();
    const order = (await first.call('POST', `/organization/${first.partnerId}/order`, { body: { quoteId } })).json_;
    const cancel = `/organization/${first.partnerId}/order/${order.id}/cancel`;
    const deposit = `/sandbox/organization/${first.partnerId}/order/${order.id}/deposit`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        // Two instances on PostgreSQL; on SQLite, one (it is the embedded single-process store,
        // whose writers one process serializes).
        const server = i % 4 < 2 || !first.services.config.databaseUrl ? first : second;
        return i % 2 === 0
          ? server.call('POST', cancel, { key: first.key }).then((r) => ({ kind: 'cancel', r }))
          : server.call('POST', deposit, { body: { autoComplete: false }, key: first.key }).then((r) => ({ kind: 'deposit', r }));
      }),
    );
    const final = (await first.call('GET', `/organization/${first.partnerId}/order/${order.id}`)).json_;
    expect(['canceled', 'funded']).toContain(final.status);
    // A cancel of a canceled order answers 200 again; a deposit funds a created order only once.
    const cancels = responses.filter(({ kind }) => kind === 'cancel').map(({ r }) => r);
    const deposits = responses.filter(({ kind }) => kind === 'deposit').map(({ r }) => r);
    if (final.status === 'canceled') {
      for (const r of cancels) expect(r.status, r.text_).toBe(200);
      for (const r of deposits) expect(r.json_.type, r.text_).toMatch(/conflict$/);
    } else {
      for (const r of cancels) expect(r.json_.type, r.text_).toMatch(/order-not-cancelable$/);
      expect(deposits.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of deposits.filter((r) => r.status !== 200)) expect(r.json_.type, r.text_).toMatch(/conflict$/);
    }
    const sent = await orderEvents(first, order.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.order).toEqual(final);
  });
});
