/**
 * The bench's seeded orders (bench/seed.ts) are what the scaling and throughput scenarios
 * read: each copy must carry the body the server itself would store for its columns, or the
 * 1M/1k ratios would compare GET /orders presenting every copy from its columns (a stale or
 * missing body) with the 1k set reading stored ones. On SQLite, and on PostgreSQL with
 * DATABASE_URL (the test server's own database, made by startTestServer).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onrampQuote } from '../../bench/scenarios.ts';
import { seedOrders, type Database } from '../../bench/seed.ts';
import { orderBodyTag, presentOrder } from '../../server/features/orders/presenters.ts';
import { orderViewColumns } from '../../server/features/orders/repository.ts';
import { expectStatus } from '../support/api.ts';
import { order } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { testBudget } from '../support/wait.ts';

describe('the bench seed', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-seed-'));
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("gives every copy of the template order the body and tag the server stores for the copy's columns", { timeout: testBudget }, async () => {
    const template = await order(server, server.partnerId, onrampQuote as never);
    const { databaseUrl } = server.services.config;
    const database: Database = databaseUrl ? { engine: 'postgres', url: databaseUrl } : { engine: 'sqlite', dataDir };
    const seeded = await seedOrders(database, { partnerId: server.partnerId, templateOrderId: template.id, customers: 2, total: 40 });
    expect(seeded.inserted).toBe(39);
    const rows = await server.services.storage.db.selectFrom('orders').select([...orderViewColumns, 'body', 'body_tag']).execute();
    expect(rows).toHaveLength(40);
    const tag = orderBodyTag(server.services.contract.document);
    for (const { body, body_tag, ...view } of rows) {
      expect(body_tag).toBe(tag);
      expect(body).toBe(JSON.stringify(presentOrder(view)));
    }
    // And the list sends them: the newest page is the template, then copies of the partner and its customers.
    const page = expectStatus(await server.api.GET('/orders', { params: { query: { pageSize: 30 } } }), 200);
    expect(page.totalItems).toBe(40);
    expect(page.items[0]).toEqual(template);
    expect(new Set(page.items.map((o) => o.organizationId)).size).toBe(3);
  });
});
