/**
 * The bench's node:http peer (bench/peers/bare-http.ts), run as the bench runs it: it answers
 * the captured bytes, and with a cost it computes for that long on each request before
 * answering. The open loop's (f) stands for a server as costly as ours; a peer that waited
 * instead of computing would leave the CPU free and reach latencies no such server could.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cpuMs, type Child } from '../../bench/lib.ts';
import { startPeer } from '../../bench/targets.ts';
import { testBudget } from '../support/wait.ts';

const work = mkdtempSync(join(tmpdir(), 'bench-peers-'));
const fixture = { method: 'GET' as const, path: '/organization/{organizationId}/order/{orderId}', status: 200, contentType: 'application/json; charset=utf-8', body: '{"id":"o-1","status":"created"}' };
const started: Child[] = [];

afterAll(async () => {
  for (const child of started) await child.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('the bench node:http peer', () => {
  it('answers the captured bytes on the scenario\'s path, and 404 elsewhere', { timeout: testBudget }, async () => {
    const peer = await startPeer('http', [fixture], work);
    started.push(peer);
    const answer = await fetch(`${peer.url}/organization/a/order/b?x=1`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(fixture.contentType);
    expect(await answer.text()).toBe(fixture.body);
    expect((await fetch(`${peer.url}/organization/a/orders`)).status).toBe(404);
  });

  it('computes for the given µs of CPU on each request before answering', { timeout: testBudget }, async () => {
    const workUs = 20_000;
    const peer = await startPeer('http', [fixture], work, workUs);
    started.push(peer);
    const cpuBefore = cpuMs(peer.process.pid)!;
    const requests = 10;
    for (let i = 0; i < requests; i++) {
      const sent = performance.now();
      const answer = await fetch(`${peer.url}/organization/a/order/b`);
      expect(await answer.text()).toBe(fixture.body);
      // The peer counts its process's CPU time, which its other threads (the collector, the
      // compiler) add to while it computes: at most one core's worth each of wall time.
      expect(performance.now() - sent).toBeGreaterThanOrEqual(workUs / 1000 / cpus().length);
    }
    // 200 ms of CPU, however busy the machine: the peer counts its own CPU time, not the
    // clock's. A peer that waited would use next to none. (/proc counts in 10 ms ticks.)
    expect(cpuMs(peer.process.pid)! - cpuBefore).toBeGreaterThanOrEqual((requests * workUs) / 1000 - 20);
  });
});
