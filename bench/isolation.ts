/**
 * No partner can hurt another (issue 31, item 7): one partner advances its sandbox clock over
 * a thousand funding deadlines while another partner reads, and the reader's latencies during
 * the advance are what a partner sharing the sandbox meets. Before the advance applied its
 * changes in batches with turns of the event loop between them, the embedded database's
 * synchronous driver held every other request until the whole advance was done.
 *
 * The advancer's orders are copies of one real order (bench/seed.ts), their funding deadlines
 * a year away; the advancer freezes its clock and advances it `by` P366D, so every deadline
 * falls due in that one call. The reader sends its reads at the open loop's offered rate
 * (lib.ts `openLoopRun`) from the instant the advance is sent until it is answered; its reads
 * alone, just before, are measured the same way for comparison.
 *
 * Both are measured warm: the reads after a warm-up, the advance after one of `PT0S`. A
 * process's first call of an operation compiles that operation's response validator (the
 * patched express-openapi-validator compiles where used), which holds every request for as
 * long once per process, whatever the advance's size: a cost of the first call, not of the
 * thousand deadlines measured here.
 */
import { join } from 'node:path';
import { openLoopRun, pooledOpenLoop, type Child, type LoadRequest } from './lib.ts';
import type { IsolationResult } from './report.ts';
import { seedOrders } from './seed.ts';
import { log, makeTemplateOrder, newIdentity, type Identity, type Session } from './session.ts';

export const advanceWhileReadingId = 'advanceWhileReading';

/** The isolation section: the advancer's orders seeded on SQLite, then `advanceWhileReading` on a server of their own. */
export async function isolation(session: Session) {
  const { options, results, work } = session;
  const dataDir = join(work, 'isolation');
  const advancer = newIdentity();
  const reader = newIdentity();
  let server = await session.ours({ engine: 'sqlite', dataDir }, advancer);
  const made = await makeTemplateOrder(server.url, { ...advancer, orders: [] });
  await session.stop(server);
  if (!made.orderId) {
    results.notes.push(`isolation not measured: ${made.problem}`);
    return;
  }
  // The real order's deadline (an hour away) and its copies' (a year away) all fall due within the advance.
  await seedOrders({ engine: 'sqlite', dataDir }, { partnerId: advancer.partnerId, templateOrderId: made.orderId, customers: options.customers, total: options.advanceDeadlines });
  // The reader is the key this start makes sure exists; the advancer's stays stored.
  server = await session.ours({ engine: 'sqlite', dataDir }, reader);
  try {
    log(`isolation: one partner advances over ${options.advanceDeadlines.toLocaleString('en')} deadlines while another reads at ${options.openRate}/s`);
    const parties = { advancer, reader, deadlines: options.advanceDeadlines };
    results.isolation = await advanceWhileReading(server, 'sqlite', parties, { rate: options.openRate, connections: options.connections, durationS: options.durationS, warmupS: options.warmupS });
  } finally {
    await session.stop(server);
  }
}

async function call(url: string, key: string, method: 'PUT' | 'POST', path: string, body: unknown) {
  const started = performance.now();
  const response = await fetch(url + path, { method, headers: { authorization: key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, ms: performance.now() - started, text };
}

/** On a server whose stored data gives `advancer` `deadlines` orders due within a year: the reader's latencies alone, then during the advance. */
export async function advanceWhileReading(
  server: Child,
  engine: IsolationResult['engine'],
  parties: { advancer: Identity; reader: Identity; deadlines: number },
  options: { rate: number; connections: number; durationS: number; warmupS: number },
): Promise<IsolationResult> {
  const reads: LoadRequest[] = [{ path: '/orders?pageSize=30', headers: { authorization: parties.reader.key } }];
  const frozen = await call(server.url, parties.advancer.key, 'PUT', '/sandbox/clock', { frozen: true });
  if (frozen.status !== 200) throw new Error(`PUT /sandbox/clock answered ${frozen.status}: ${frozen.text.slice(0, 300)}`);
  const warm = await call(server.url, parties.advancer.key, 'POST', '/sandbox/clock/advance', { by: 'PT0S' });
  if (warm.status !== 200) throw new Error(`POST /sandbox/clock/advance PT0S answered ${warm.status}: ${warm.text.slice(0, 300)}`);
  const loop = { rate: options.rate, connections: options.connections, pid: server.process.pid };
  const alone = pooledOpenLoop([await openLoopRun(server.url, reads, { ...loop, durationS: options.durationS, warmupS: options.warmupS })]);
  const advancing = call(server.url, parties.advancer.key, 'POST', '/sandbox/clock/advance', { by: 'P366D' });
  // A generous cap: the run ends when the advance is answered.
  const during = pooledOpenLoop([await openLoopRun(server.url, reads, { ...loop, durationS: 600, until: advancing })]);
  const answer = await advancing;
  let applied: number | undefined;
  if (answer.status === 200) applied = (JSON.parse(answer.text) as { counts: { orderFundingExpired: number } }).counts.orderFundingExpired;
  return {
    engine,
    read: `GET /orders?pageSize=30 (another partner)`,
    deadlines: parties.deadlines,
    advance: { status: answer.status, ms: answer.ms, bytes: Buffer.byteLength(answer.text), applied },
    alone,
    during,
  };
}
