/**
 * Webhook delivery, measured at a loopback receiver that checks every X-Signature:
 *  - latency: events written to the outbox one at a time (as a state change writes them,
 *    from a second process on the same database), time from the commit to the first
 *    attempt's arrival;
 *  - throughput: a backlog of events written while the server is stopped, then drained
 *    by the server's delivery job after it starts: signed deliveries per second.
 * The webhooks section of the bench (`webhooks`) measures both on SQLite.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { openStorage, type Storage } from '../server/storage/database.ts';
import { recordV2Event } from '../server/features/webhooks/outbox.ts';
import { cpuMs, percentile, sleep } from './lib.ts';
import { onrampQuote, type World } from './scenarios.ts';
import { log, makeTemplateOrder, newIdentity, type Session } from './session.ts';

export async function webhooks(session: Session) {
  const { results, work } = session;
  const dataDir = join(work, 'webhooks');
  const identity = newIdentity();
  const world: World = { ...identity, orders: [] };
  const receiver = await startReceiver();
  let server = await session.ours({ engine: 'sqlite', dataDir }, identity);
  try {
    const subscribed = await fetch(`${server.url}/webhook_subscription`, {
      method: 'POST',
      headers: { authorization: identity.key, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, eventType: 'orderUpdated' }),
    });
    const subscription = (await subscribed.json()) as { secret?: string };
    if (subscribed.status !== 201 || !subscription.secret) {
      results.notes.push(`webhooks not measured: POST /webhook_subscription answered ${subscribed.status}`);
      return;
    }
    receiver.secret = subscription.secret;
    const made = await makeTemplateOrder(server.url, world);
    const order = made.order ?? exampleOrder(identity.partnerId);
    const writer = await outboxWriter({ dataDir }, identity.partnerId, order);
    try {
      log('webhooks: change → first attempt, 200 events 20 ms apart');
      const latency = await measureLatency(writer, receiver, { count: 200, spacingMs: 20, waitMs: 15_000 });
      await session.stop(server);
      const backlog = 3000;
      log(`webhooks: a backlog of ${backlog} events drained by a fresh server`);
      await writer.recordMany(backlog);
      const before = receiver.arrivals.size;
      server = await session.ours({ engine: 'sqlite', dataDir }, identity);
      const drain = await measureDrain(receiver, before, backlog, 60_000, server.process.pid);
      results.webhooks = { latency, drain, attempts: receiver.attempts, badSignatures: receiver.badSignatures };
    } finally {
      await writer.close();
    }
  } finally {
    await session.stop(server);
    await receiver.close();
  }
}

function exampleOrder(organizationId: string) {
  return { ...onrampQuote, id: randomUUID(), status: 'funded', organizationId, quoteId: randomUUID() };
}

export interface Receiver {
  url: string;
  /** First arrival time (performance.now()) per eventId. */
  arrivals: Map<string, number>;
  attempts: number;
  badSignatures: number;
  secret?: string;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    arrivals: new Map(),
    attempts: 0,
    badSignatures: 0,
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      receiver.attempts++;
      const body = Buffer.concat(chunks);
      // The body is sent canonical (RFC 8785), so its bytes are what was signed.
      const expected = receiver.secret ? `sha256=${createHmac('sha256', Buffer.from(receiver.secret.replace(/=+$/, ''), 'base64url')).update(body).digest('hex')}` : '';
      const got = String(req.headers['x-signature'] ?? '');
      if (got.length !== expected.length || !timingSafeEqual(Buffer.from(got), Buffer.from(expected))) receiver.badSignatures++;
      try {
        const eventId = (JSON.parse(body.toString()) as { eventId?: string }).eventId;
        if (eventId && !receiver.arrivals.has(eventId)) receiver.arrivals.set(eventId, at);
      } catch {
        receiver.badSignatures++;
      }
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return receiver;
}

export interface OutboxWriter {
  /** Writes one orderUpdated event as a state change does (its own transaction); its eventId. */
  record(): Promise<string>;
  /** Writes `count` events in one transaction. */
  recordMany(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A second process's view of the server's database, writing to the outbox with the server's own code. */
export async function outboxWriter(database: { dataDir: string } | { databaseUrl: string }, partnerId: string, order: Record<string, unknown>): Promise<OutboxWriter> {
  const storage: Storage = await openStorage('databaseUrl' in database ? { databaseUrl: database.databaseUrl } : { dataDir: database.dataDir });
  const event = () => ({
    type: 'orderUpdated' as const,
    organization: { id: partnerId, parent_id: null },
    occurredAt: new Date(),
    object: { order: order as never },
  });
  return {
    record: () => storage.db.transaction().execute((tx) => recordV2Event(tx, event())),
    async recordMany(count) {
      await storage.db.transaction().execute(async (tx) => {
        for (let i = 0; i < count; i++) await recordV2Event(tx, event());
      });
    },
    close: () => storage.close(),
  };
}

export interface LatencyResult {
  events: number;
  delivered: number;
  p50: number;
  p99: number;
  max: number;
}

/** `count` events `spacingMs` apart; ms from each commit to its first attempt's arrival. */
export async function measureLatency(writer: OutboxWriter, receiver: Receiver, options: { count: number; spacingMs: number; waitMs: number }): Promise<LatencyResult> {
  const committed = new Map<string, number>();
  for (let i = 0; i < options.count; i++) {
    const id = await writer.record();
    committed.set(id, performance.now());
    await sleep(options.spacingMs);
  }
  const deadline = performance.now() + options.waitMs;
  while (performance.now() < deadline && [...committed.keys()].some((id) => !receiver.arrivals.has(id))) await sleep(20);
  const latencies = [...committed].filter(([id]) => receiver.arrivals.has(id)).map(([id, at]) => receiver.arrivals.get(id)! - at);
  return {
    events: options.count,
    delivered: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
  };
}

export interface ThroughputResult {
  backlog: number;
  delivered: number;
  seconds: number;
  perSecond: number;
  /** The server's CPU time per delivery in µs while draining (given its pid): barely moved by other load, unlike deliveries/s. */
  cpuUsPerDelivery?: number | undefined;
}

/** Waits for `backlog` new first arrivals (at most `waitMs`); deliveries per second from the first to the last. */
export async function measureDrain(receiver: Receiver, before: number, backlog: number, waitMs: number, serverPid?: number): Promise<ThroughputResult> {
  const started = performance.now();
  const cpuBefore = cpuMs(serverPid);
  while (receiver.arrivals.size - before < backlog && performance.now() - started < waitMs) await sleep(20);
  const cpuAfter = cpuMs(serverPid);
  const times = [...receiver.arrivals.values()].slice(before).sort((a, b) => a - b);
  const seconds = times.length > 1 ? (times.at(-1)! - times[0]!) / 1000 : NaN;
  const cpuUsPerDelivery = cpuBefore === undefined || cpuAfter === undefined || times.length === 0 ? undefined : ((cpuAfter - cpuBefore) * 1000) / times.length;
  return { backlog, delivered: times.length, seconds, perSecond: times.length > 1 ? (times.length - 1) / seconds : 0, cpuUsPerDelivery };
}
