/**
 * The delivery worker's throughput machinery: a burst drained in one run with a bounded
 * number of attempts in flight, each event delivered exactly once; the in-process / NOTIFY
 * wake-up that sends a committed event without waiting for a poll and never one whose
 * transaction rolled back; and the settings that tune it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../../server/config.ts';
import type { Tx } from '../../../server/storage/database.ts';
import { recordV2Event } from '../../../server/features/webhooks/outbox.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { deliveriesOf, emitV2, eventually, subscribe, v2Object } from '../../support/webhooks.ts';
import { waitBudget } from '../../support/wait.ts';

/**
 * A receiver that holds its answers until `batch` requests wait together and nothing new came
 * for 50 ms, and counts how many ever waited together. It waits for the requests it expects,
 * not for a timer: on a busy machine the worker's next attempts may come more than 50 ms apart,
 * and answering before the batch is full would make the bound look unreached.
 */
async function holdingReceiver(batch = 1) {
  const eventIds: string[] = [];
  let waiting: http.ServerResponse[] = [];
  let mostAtOnce = 0;
  let quiet: NodeJS.Timeout | undefined;
  const release = () => {
    clearTimeout(quiet);
    for (const res of waiting) res.writeHead(204).end();
    waiting = [];
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      eventIds.push(JSON.parse(Buffer.concat(chunks).toString('utf8')).eventId);
      waiting.push(res);
      mostAtOnce = Math.max(mostAtOnce, waiting.length);
      clearTimeout(quiet);
      if (waiting.length >= batch) quiet = setTimeout(release, 50);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    eventIds,
    mostAtOnce: () => mostAtOnce,
    async close() {
      release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a burst of events', () => {
  const concurrency = 4;
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof holdingReceiver>>;
  beforeAll(async () => {
    receiver = await holdingReceiver(concurrency);
    // Jobs run only when the test ticks them.
    server = await startTestServer({ env: { RAMP_JOB_INTERVAL_MS: '3600000', RAMP_WEBHOOK_CONCURRENCY: String(concurrency) } });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('is drained by one run, every event delivered exactly once, never more attempts in flight than the bound', async () => {
    const subscription = await subscribe(server, `${receiver.url}/burst`, 'orderUpdated');
    const events: string[] = [];
    // More than one claim's worth at this bound, and more than the old fixed batch of 25.
    for (let i = 0; i < 60; i++) events.push(await emitV2(server, 'orderUpdated'));
    await server.jobs.tick();
    expect(receiver.eventIds).toHaveLength(events.length);
    expect(new Set(receiver.eventIds)).toEqual(new Set(events));
    expect(receiver.mostAtOnce()).toBe(concurrency);
    const deliveries = await deliveriesOf(server, subscription.id);
    expect(deliveries).toHaveLength(events.length);
    for (const delivery of deliveries) expect(delivery).toMatchObject({ status: 'delivered', nextAttemptAt: null, attempts: [{ number: 1, statusCode: 204, error: null }] });
    // Nothing is left to send.
    await server.jobs.tick();
    expect(receiver.eventIds).toHaveLength(events.length);
  });
});

describe('the wake-up after a commit', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof holdingReceiver>>;
  beforeAll(async () => {
    receiver = await holdingReceiver();
    // No poll to speak of: only the wake-up can send before the test ticks.
    server = await startTestServer({ env: { RAMP_JOB_INTERVAL_MS: '3600000', RAMP_WEBHOOK_POLL_MS: '3600000' } });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  const record = (tx: Tx) =>
    recordV2Event(tx, { type: 'kycUpdated', organization: { id: server.partnerId, parent_id: null }, occurredAt: new Date(), object: v2Object('kycUpdated') });

  it('sends a committed event without waiting for a poll, and only once its transaction has committed', async () => {
    const subscription = await subscribe(server, `${receiver.url}/wake`, 'kycUpdated');
    let eventId = '';
    await server.services.storage.db.transaction().execute(async (tx) => {
      eventId = await record(tx);
      // The worker is woken now, but must not read the delivery before the commit.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.eventIds).toEqual([]);
    });
    await eventually(() => receiver.eventIds.includes(eventId), waitBudget, 'the woken delivery');
    expect(receiver.eventIds).toEqual([eventId]);
    await eventually(async () => (await deliveriesOf(server, subscription.id))[0]?.status === 'delivered', waitBudget, 'the delivery to be recorded');
  });

  it('never sends an event whose transaction rolled back', async () => {
    const subscription = await subscribe(server, `${receiver.url}/rollback`, 'kybUpdated');
    let rolledBack = '';
    await expect(
      server.services.storage.db.transaction().execute(async (tx) => {
        rolledBack = await recordV2Event(tx, { type: 'kybUpdated', organization: { id: server.partnerId, parent_id: null }, occurredAt: new Date(), object: v2Object('kybUpdated') });
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    // A later committed event wakes the worker again; only it is sent.
    const committed = await emitV2(server, 'kybUpdated');
    await eventually(() => receiver.eventIds.includes(committed), waitBudget, 'the committed delivery');
    await server.jobs.tick();
    expect(receiver.eventIds).not.toContain(rolledBack);
    expect((await deliveriesOf(server, subscription.id)).map((d) => d.eventId)).toEqual([committed]);
  });
});

describe('settings', () => {
  it('poll every 25 ms by default, follow RAMP_JOB_INTERVAL_MS when only that is set, and bound the attempts in flight', () => {
    expect(readConfig({})).toMatchObject({ webhookPollMs: 25, webhookConcurrency: 64 });
    expect(readConfig({ RAMP_JOB_INTERVAL_MS: '50' }).webhookPollMs).toBeUndefined();
    expect(readConfig({ RAMP_JOB_INTERVAL_MS: '50', RAMP_WEBHOOK_POLL_MS: '10', RAMP_WEBHOOK_CONCURRENCY: '8' })).toMatchObject({ webhookPollMs: 10, webhookConcurrency: 8 });
    for (const bad of ['0', '-1', '1.5', 'many', '10000000']) {
      expect(() => readConfig({ RAMP_WEBHOOK_CONCURRENCY: bad })).toThrow(ConfigError);
    }
    expect(() => readConfig({ RAMP_WEBHOOK_POLL_MS: 'soon' })).toThrow(/^RAMP_WEBHOOK_POLL_MS must be a number >= 0, not soon$/);
  });
});
