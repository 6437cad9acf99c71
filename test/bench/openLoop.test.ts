/**
 * The bench's open loop (bench/lib.ts `openLoop`): the offered rate is kept whatever the
 * server's pace, and each latency counts from the instant its request was due. Both are
 * checked against a real loopback server that holds every answer until the last request of the
 * run has arrived: a sender that sent its requests in one burst (as autocannon's `overallRate`
 * does at each second's start) would see that barrier open at once, and short latencies.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLoopRun, pooledOpenLoop, type OpenLoopRun } from '../../bench/lib.ts';

/** A receiver on loopback, and its base URL. */
async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closed(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

const rate = 100;
const durationS = 0.1;
const requests = rate * durationS;

describe('the bench open loop', () => {
  const held: ServerResponse[] = [];
  const paths: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    paths.push(req.url ?? '');
    held.push(res);
    // The barrier: nothing is answered before the run's last request has arrived.
    if (held.length === requests) for (const r of held.splice(0)) r.end('{}');
  });
  let url = '';
  beforeAll(async () => {
    url = await listening(server);
  });
  afterAll(() => closed(server));

  it('sends rate × duration requests, one every 1/rate s, and counts each latency from the instant it was due', async () => {
    const result = pooledOpenLoop([await openLoopRun(url, [{ path: '/a' }, { path: '/b' }], { rate, connections: 20, durationS })]);
    expect(result).toMatchObject({ requests, errors: 0, non2xx: 0 });
    // The requests of a scenario take turns.
    expect(paths).toEqual(Array.from({ length: requests }, (_, i) => (i % 2 === 0 ? '/a' : '/b')));
    // The first request was due at the start and answered only once the last one (due 9 intervals
    // later) had been sent: its latency is at least those 90 ms, however busy the machine.
    expect(result.max).toBeGreaterThanOrEqual(((requests - 1) * 1000) / rate);
    // The last one was answered as it arrived: the latencies spread over the run, not all equal.
    expect(result.p50).toBeLessThan(result.max);
  });

  it("pools rounds: the p99 is that of every round's requests, and CPU and time add up", () => {
    const round = (latencies: number[], cpuMs: number, extra: Partial<OpenLoopRun> = {}): OpenLoopRun => ({
      latencies, counts: { errors: 0, non2xx: 0 }, seconds: latencies.length / 100, cpuMsUsed: cpuMs, ...extra,
    });
    // One round stalled: 3 of its 100 requests took 40 ms. Alone its p99 is the stall's;
    // among 300 requests, 3 slow ones are the slowest 1 %, and the p99 is the next.
    const steady = Array.from({ length: 100 }, (_, i) => 1 + i / 100);
    const stalled = round([...steady.slice(3), 40, 40, 40], 30);
    expect(pooledOpenLoop([stalled]).p99).toBe(40);
    const pooled = pooledOpenLoop([round(steady, 20), stalled, round(steady, 25, { counts: { errors: 1, non2xx: 2 } })]);
    expect(pooled).toMatchObject({ requests: 300, errors: 1, non2xx: 2, max: 40, durationS: 3, requestsPerSecond: 100 });
    expect(pooled.p99).toBe(1.99);
    expect(pooled.cpuUsPerRequest).toBeCloseTo((75 * 1000) / 300);
    // A round whose CPU was not read leaves the pool's unknown.
    expect(pooledOpenLoop([round(steady, 20), { ...stalled, cpuMsUsed: undefined }]).cpuUsPerRequest).toBeUndefined();
  });
});

describe('the bench open loop until another request is answered', () => {
  let arrived = 0;
  let fifth: () => void = () => {};
  const fifthArrived = new Promise<void>((resolve) => {
    fifth = resolve;
  });
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    if (++arrived === 5) fifth();
    res.end('{}');
  });
  let url = '';
  beforeAll(async () => {
    url = await listening(server);
  });
  afterAll(() => closed(server));

  it('stops sending once `until` settles, long before its duration', async () => {
    // 100 s at 100/s would be 10,000 requests: the run ends after the fifth has arrived.
    const result = pooledOpenLoop([await openLoopRun(url, [{ path: '/' }], { rate: 100, connections: 2, durationS: 100, until: fifthArrived })]);
    expect(result.requests).toBeGreaterThanOrEqual(5);
    // What was due while the fifth was on its way is sent too: a few, however busy the machine.
    expect(result.requests).toBeLessThan(1000);
    expect(result).toMatchObject({ errors: 0, non2xx: 0 });
  });
});
