/**
 * The embedded database (SQLite, the default) full or read-only while the server runs: every
 * write answers its surface's documented 503 with `Retry-After` (v1 `{"error"}`, v2
 * `service-unavailable`), never a 500; reads go on; nothing is half made (a customer's
 * approval is there with its event and its delivery, or none of them is); the outage is
 * logged once; and once the space or the write access is back, writes work again without a
 * restart, a retried create with the same `quoteId` giving one order.
 *
 * The faults are SQLite's own: `PRAGMA max_page_count` at the file's size (SQLITE_FULL, as a
 * full disk) and `PRAGMA query_only` (SQLITE_READONLY, as a read-only file), set on the
 * running server's connection. PostgreSQL's outages are test/robustness/databaseOutage.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../server/storage/database.ts';
import { expectStatus, type Answer } from '../support/api.ts';
import { expectPlainError, expectProblem } from '../support/errors.ts';
import { solanaAddress } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { waitBudget } from '../support/wait.ts';
import { startReceiver, type Receiver } from '../support/webhooks.ts';

const pragma = async (db: Db, statement: string) => (await sql.raw<Record<string, number>>(`PRAGMA ${statement}`).execute(db)).rows[0];

const faults = [
  {
    name: 'the disk full (SQLITE_FULL)',
    /** The file may not grow: a write that needs a new page fails, one that fits in a page with room does not. */
    async apply(db: Db) {
      const { max_page_count: max } = (await pragma(db, 'max_page_count'))!;
      const { page_count: pages } = (await pragma(db, 'page_count'))!;
      await pragma(db, `max_page_count = ${pages}`);
      return () => pragma(db, `max_page_count = ${max}`);
    },
  },
  {
    name: 'the file read-only (SQLITE_READONLY)',
    async apply(db: Db) {
      await pragma(db, 'query_only = 1');
      return () => pragma(db, 'query_only = 0');
    },
  },
];

/** The answer's status once it is 2xx or 503; a 503 in the surface's format, with `Retry-After`. */
function written(answer: Answer, surface: 'v1' | 'v2'): number {
  const { status } = answer.response;
  if (status < 300) return status;
  if (surface === 'v1') expectPlainError(answer, 503);
  else expectProblem(answer, 503, 'service-unavailable');
  expect(answer.response.headers.get('retry-after')).toBe('1');
  return status;
}

const unavailableLines = (server: TestServer) => server.logs.filter((line) => line.includes('the database is unavailable'));
const availableLines = (server: TestServer) => server.logs.filter((line) => line.includes('the database is available again'));

describe.skipIf(process.env.DATABASE_URL)('the embedded database full or read-only', () => {
  let server: TestServer | undefined;
  let receiver: Receiver | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    await server?.close();
    await receiver?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  for (const fault of faults) {
    it(`${fault.name}: writes answer 503 with Retry-After, nothing is half made, and writes work again once it is undone`, async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'ramp-faults-'));
      // The database in a file, as `npm start` keeps it.
      const running = (server = await startTestServer({ env: { RAMP_DATA_DIR: dataDir } }));
      receiver = await startReceiver(() => 200);
      const { api, partnerId } = running;
      const db = running.services.storage.db;
      const organizationId = partnerId;
      expectStatus(await api.POST('/webhook_subscription', { body: { url: `${receiver.url}/hooks`, eventType: 'kycUpdated' } }), 201);
      const walletAddress = solanaAddress();
      expectStatus(await api.POST('/organization/{organizationId}/wallet', { params: { path: { organizationId } }, body: { custody: 'external', address: walletAddress, blockchain: 'solana' } }), 201);
      const quote = expectStatus(
        await api.POST('/organization/{organizationId}/quote', {
          params: { path: { organizationId } },
          body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100.00', rail: 'spei', walletAddress },
        }),
        201,
      );
      const before = expectStatus(await api.POST('/ramp/organization', { body: { displayName: 'Before the fault', type: 'personal' } }), 201);

      const undo = await fault.apply(db);
      // Writes until three have met the fault (a full file still takes a row that fits in a page with room).
      const created: string[] = [before.organizationId];
      let refused = 0;
      for (let i = 0; refused < 3 && i < 500; i++) {
        const answer = await api.POST('/ramp/organization', { body: { displayName: `Customer ${i}`, type: 'personal' } });
        if (written(answer, 'v1') === 503) refused++;
        else created.push(answer.data!.organizationId);
        // A customer's approval writes its status, its event and the event's delivery: all or none.
        const approval = await api.POST('/sandbox/organization/{organizationId}/kyc', { params: { path: { organizationId: created.at(-1)! } }, body: { status: 'approved' } });
        written(approval, 'v2');
      }
      expect(refused).toBe(3);
      const order = await api.POST('/organization/{organizationId}/order', { params: { path: { organizationId } }, body: { quoteId: quote.quoteId } });
      const during = written(order, 'v2');
      if (fault.name.includes('READONLY')) expect(during).toBe(503);
      // Reads go on.
      expectStatus(await api.GET('/organization/{organizationId}', { params: { path: { organizationId: before.organizationId } } }), 200);
      expect(unavailableLines(running)).toHaveLength(1);
      expect(running.logs.filter((line) => line.includes('internal error'))).toEqual([]);

      await undo();
      // No restart: the same quote gives one order, however often it is sent.
      const first = await api.POST('/organization/{organizationId}/order', { params: { path: { organizationId } }, body: { quoteId: quote.quoteId } });
      const again = expectStatus(await api.POST('/organization/{organizationId}/order', { params: { path: { organizationId } }, body: { quoteId: quote.quoteId } }), 200);
      expect(expectStatus(first, first.response.status === 201 ? 201 : 200).id).toBe(again.id);
      const after = expectStatus(await api.POST('/ramp/organization', { body: { displayName: 'After the fault', type: 'personal' } }), 201);
      expectStatus(await api.POST('/sandbox/organization/{organizationId}/kyc', { params: { path: { organizationId: after.organizationId } }, body: { status: 'approved' } }), 200);
      created.push(after.organizationId);
      // The end is told once the database has kept working a moment.
      await vi.waitFor(() => expect(availableLines(running)).toHaveLength(1), { timeout: waitBudget, interval: 50 });
      expect(unavailableLines(running)).toHaveLength(1);

      // Every acknowledged customer is there, and nothing else; each approved one has its event and delivery, the others neither.
      const customers = await db.selectFrom('organizations').select(['id', 'kyc_status']).where('parent_id', '=', partnerId).execute();
      expect(customers.map((c) => c.id).sort()).toEqual([...created].sort());
      const events = await db.selectFrom('events').select(['id', 'subject_id']).where('type', '=', 'kycUpdated').execute();
      const deliveries = await db.selectFrom('webhook_deliveries').select('event_id').execute();
      const approved = customers.filter((c) => c.kyc_status === 'approved').map((c) => c.id);
      expect(approved).toContain(after.organizationId);
      expect(events.map((e) => e.subject_id).sort()).toEqual([...approved].sort());
      expect(deliveries.map((d) => d.event_id).sort()).toEqual(events.map((e) => e.id).sort());
      expect(await db.selectFrom('orders').select('id').where('quote_id', '=', quote.quoteId).execute()).toEqual([{ id: again.id }]);
    });
  }
});
