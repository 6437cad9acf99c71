/**
 * PostgreSQL connections that break while idle (a database restart, an administrator ending
 * sessions) are reported as an outage, once, and replaced: the process keeps running, the
 * next query works, and its new connection ends the outage.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../../server/storage/database.ts';
import type { AvailabilityChange } from '../../server/storage/health.ts';
import { testDatabase, type TestDatabase } from '../support/storage.ts';
import { waitBudget } from '../support/wait.ts';

describe.skipIf(!process.env.DATABASE_URL)('broken PostgreSQL connections', () => {
  let database: TestDatabase;
  let storage: Storage;
  const changes: AvailabilityChange[] = [];

  beforeAll(async () => {
    database = await testDatabase();
    storage = await openStorage({ databaseUrl: database.env.DATABASE_URL, onAvailabilityChange: (change) => changes.push(change) });
  });
  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });

  it('are reported once, and the next query opens a new one', async () => {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const name = new URL(database.env.DATABASE_URL!).pathname.slice(1);
    try {
      // End the pool's idle connections from the server side, as a restart would (again if
      // none was open yet), until the pool reports one broken.
      await expect
        .poll(async () => {
          await Promise.all([1, 2, 3].map(() => storage.db.selectFrom('organizations').select('id').execute()));
          await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
          await new Promise((resolve) => setTimeout(resolve, 50));
          return changes.length;
        }, { timeout: waitBudget })
        .toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    expect(changes[0]).toMatchObject({ available: false, error: { message: expect.stringMatching(/terminat/) } });
    expect(await storage.db.selectFrom('organizations').select('id').execute()).toEqual([]);
    // The new connection ends the outage, told once it has kept working a moment.
    await expect.poll(() => changes.slice(1), { timeout: waitBudget }).toEqual([{ available: true, unavailableMs: expect.any(Number) }]);
  });
});
