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
import { expectStatus, type Api } from '../../support/api.ts';
import { expectProblem } from '../../support/errors.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { orderEvents, quote as firmQuote, solanaAddress } from '../../support/fixtures.ts';

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

  const quote = async () =>
    (await firmQuote(first, first.partnerId, { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100', rail: 'spei', walletAddress: solanaAddress() })).quoteId;
  /** The first server's partner, on either instance. */
  const partner = (server: TestServer): Api => server.as(first.key);
  const path = (id: string) => ({ params: { path: { organizationId: first.partnerId, id } } });

  it('makes exactly one order from 20 simultaneous requests to two servers; the others get it back or 409 conflict', async () => {
    const quoteId = await quote();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => partner(i % 2 === 0 ? first : second).POST('/organization/{organizationId}/order', { params: { path: { organizationId: first.partnerId } }, body: { quoteId } })),
    );
    const statuses = responses.map((r) => r.response.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const s of statuses) expect([200, 201, 409]).toContain(s);
    const ids = new Set(responses.filter((r) => r.response.status !== 409).map((r) => r.data?.id));
    expect(ids.size).toBe(1);
    for (const r of responses.filter((x) => x.response.status === 409)) expectProblem(r, 409, 'conflict');
    const rows = await first.services.storage.db.selectFrom('orders').select('id').where('quote_id', '=', quoteId).execute();
    expect(rows.map((r) => r.id)).toEqual([...ids]);
    // Creation sends no event, however many requests made it.
    expect(await orderEvents(first, [...ids][0]!)).toEqual([]);
  });

  it('applies one of a cancel and a deposit racing for the same order, with one event', async () => {
    const quoteId = await quote();
    const order = expectStatus(await first.api.POST('/organization/{organizationId}/order', { params: { path: { organizationId: first.partnerId } }, body: { quoteId } }), 201);
    const cancelAnswers = [];
    const depositAnswers = [];
    for (let i = 0; i < 20; i++) {
      // Two instances on PostgreSQL; on SQLite, one (it is the embedded single-process store,
      // whose writers one process serializes).
      const api = partner(i % 4 < 2 || !first.services.config.databaseUrl ? first : second);
      if (i % 2 === 0) cancelAnswers.push(api.POST('/organization/{organizationId}/order/{id}/cancel', path(order.id)));
      else depositAnswers.push(api.POST('/sandbox/organization/{organizationId}/order/{id}/deposit', { ...path(order.id), body: { autoComplete: false } }));
    }
    const [canceled, deposited] = await Promise.all([Promise.all(cancelAnswers), Promise.all(depositAnswers)]);
    const final = expectStatus(await first.api.GET('/organization/{organizationId}/order/{id}', path(order.id)), 200);
    expect(['canceled', 'funded']).toContain(final.status);
    // A cancel of a canceled order answers 200 again; a deposit funds a created order only once.
    if (final.status === 'canceled') {
      for (const r of canceled) expectStatus(r, 200);
      for (const r of deposited) expectProblem(r, 409, 'conflict');
    } else {
      for (const r of canceled) expectProblem(r, 409, 'order-not-cancelable');
      expect(deposited.filter((r) => r.response.status === 200)).toHaveLength(1);
      for (const r of deposited.filter((r) => r.response.status !== 200)) expectProblem(r, 409, 'conflict');
    }
    const sent = await orderEvents(first, order.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.order).toEqual(final);
  });
});
