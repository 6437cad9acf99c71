/**
 * The bench's open loop (bench/lib.ts `openLoop`): the offered rate is kept whatever the
 * server's pace, and each latency counts from the instant its request was due. Both are
 * checked against a real loopback server that holds every answer until the last request of the
 * run has arrived: a sender that sent its requests in one burst (as autocannon's `overallRate`
 * does at each second's start) would see that barrier open at once, and short latencies.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLoop } from '../../bench/lib.ts';

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
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends rate × duration requests, one every 1/rate s, and counts each latency from the instant it was due', async () => {
    const result = await openLoop(url, [{ path: '/a' }, { path: '/b' }], { rate, connections: 20, durationS });
    expect(result).toMatchObject({ requests, errors: 0, non2xx: 0 });
    // The requests of a scenario take turns.
    expect(paths).toEqual(Array.from({ length: requests }, (_, i) => (i % 2 === 0 ? '/a' : '/b')));
    // The first request was due at the start and answered only once the last one (due 9 intervals
    // later) had been sent: its latency is at least those 90 ms, however busy the machine.
    expect(result.max).toBeGreaterThanOrEqual(((requests - 1) * 1000) / rate);
    // The last one was answered as it arrived: the latencies spread over the run, not all equal.
    expect(result.p50).toBeLessThan(result.max);
  });
});
