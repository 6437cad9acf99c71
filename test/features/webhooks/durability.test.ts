/**
 * Deliveries live in the database: a retry resumes after a restart, and two server processes
 * on one PostgreSQL share the work without sending an attempt twice.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { deliveriesOf, emitV2, eventIdOf, eventually, startReceiver, subscribe } from '../../support/webhooks.ts';
import { waitBudget } from '../../support/wait.ts';

const postgres = Boolean(process.env.DATABASE_URL);

/**
 * Servers that share one database: a temporary RAMP_DATA_DIR on SQLite; on PostgreSQL a
 * fresh database held by a server whose own jobs never run (it drops the database last).
 */
async function sharedDatabase() {
  const holder = postgres ? await startTestServer({ env: { RAMP_JOB_INTERVAL_MS: '3600000' } }) : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'ramp-webhooks-'));
  return {
    start: (env: Record<string, string>) =>
      startTestServer(holder ? { databaseUrl: holder.services.config.databaseUrl!, env } : { env: { ...env, RAMP_DATA_DIR: dataDir } }),
    close: async () => holder?.close(),
  };
}

describe('a restart in the middle of a retry', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('resumes the pending delivery: the next attempt comes from the new server, same eventId', async () => {
    const delayMs = 1500;
    const receiver = await startReceiver((_path, count) => (count === 1 ? 503 : 200));
    cleanup.push(() => receiver.close());
    const database = await sharedDatabase();
    cleanup.push(() => database.close());
    const env = { RAMP_WEBHOOK_RETRY_DELAY_MS: String(delayMs) };

    const first = await database.start(env);
    const subscription = await subscribe(first, `${receiver.url}/restart`, 'orderUpdated');
    const eventId = await emitV2(first, 'orderUpdated');
    const [pending] = await eventually(async () => {
      const deliveries = await deliveriesOf(first, subscription.id);
      return deliveries[0]?.attempts[0]?.finishedAt ? deliveries : undefined;
    });
    expect(pending).toMatchObject({ status: 'pending', attempts: [{ number: 1, statusCode: 503 }] });
    expect(pending!.nextAttemptAt).not.toBeNull();
    await first.close();
    const closedAt = Date.now();
    expect(receiver.received).toHaveLength(1);

    const second: TestServer = await database.start(env);
    cleanup.push(() => second.close());
    await eventually(() => receiver.received.length === 2, waitBudget, 'the resumed attempt');
    const [before, after] = receiver.received;
    expect(after!.at).toBeGreaterThan(closedAt);
    expect(eventIdOf(after!)).toBe(eventId);
    expect(after!.raw.equals(before!.raw)).toBe(true);
    // The first server's key is in the database: the second one answers it.
    const [delivery] = await eventually(async () => {
      const deliveries = await deliveriesOf(second, subscription.id, first.key);
      return deliveries[0]?.status === 'delivered' && deliveries;
    });
    expect(delivery!.attempts.map((a) => a.statusCode)).toEqual([503, 200]);
    expect(new Date(delivery!.attempts[1]!.startedAt).getTime() - new Date(delivery!.attempts[0]!.finishedAt!).getTime()).toBeGreaterThanOrEqual(delayMs);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(2);
  }, 180_000);
});

describe.skipIf(!postgres)('two server processes on one PostgreSQL database', () => {
  it('deliver each attempt of each event once, and both take a share', async () => {
    // 503 to the first request of each event at each path, 200 to the next.
    const receiver = await startReceiver((path, _count, request) =>
      receiver.received.filter((r) => r.path === path && eventIdOf(r) === eventIdOf(request)).length === 1 ? 503 : 200,
    );
    const database = await sharedDatabase();
    // The test drives the jobs, so both servers run them at the same moments.
    const env = { RAMP_JOB_INTERVAL_MS: '3600000', RAMP_WEBHOOK_RETRY_DELAY_MS: '200', RAMP_WEBHOOK_CONCURRENCY: '8' };
    const a = await database.start(env);
    const b = await database.start(env);
    try {
      const subscriptions = await Promise.all([0, 1, 2, 3, 4].map((i) => subscribe(a, `${receiver.url}/pg/${i}`, 'orderUpdated')));
      const events: string[] = [];
      for (let i = 0; i < 12; i++) events.push(await emitV2(a, 'orderUpdated'));
      // 60 deliveries, more than one server has in flight at once (8): both servers must take some.
      const attemptsLogged = (server: TestServer) => server.logs.filter((line) => line.includes('"webhook attempt"')).length;
      await eventually(async () => {
        await Promise.all([a.jobs.tick(), b.jobs.tick(), a.jobs.tick(), b.jobs.tick()]);
        const all = (await Promise.all(subscriptions.map((s) => deliveriesOf(a, s.id)))).flat();
        return all.length === 60 && all.every((d) => d.status === 'delivered');
      }, waitBudget, 'every delivery');
      for (const [i, subscription] of subscriptions.entries()) {
        const requests = receiver.to(`/pg/${i}`);
        for (const id of events) expect(requests.filter((r) => eventIdOf(r) === id), `${i} ${id}`).toHaveLength(2);
        for (const delivery of await deliveriesOf(a, subscription.id)) expect(delivery.attempts.map((x) => x.statusCode)).toEqual([503, 200]);
      }
      expect(receiver.received).toHaveLength(120);
      expect(attemptsLogged(a)).toBeGreaterThan(0);
      expect(attemptsLogged(b)).toBeGreaterThan(0);
      expect(attemptsLogged(a) + attemptsLogged(b)).toBe(120);
    } finally {
      await b.close();
      await a.close();
      await database.close();
      await receiver.close();
    }
  }, 180_000);
});
