/**
 * The ceiling on this machine: node:http answering the captured bytes, nothing else.
 *
 * With BENCH_WORK_US it first computes for that many µs of CPU on each request: a server
 * exactly as costly as ours, with none of its variance (the open loop's (f), bench/throughput.ts).
 * What it reaches at a fixed offered rate is what any server of that cost reaches here.
 */
import { createServer } from 'node:http';
import { port, readFixtures } from './fixtures.ts';

const fixtures = readFixtures();
const workUs = Number(process.env.BENCH_WORK_US ?? 0);
/** Spends `workUs` of this process's CPU time (what ours' cost is counted in), not of wall time: descheduled, it computes on. */
function compute() {
  if (workUs <= 0) return;
  const start = process.cpuUsage();
  for (let used = 0; used < workUs; ) {
    const spent = process.cpuUsage(start);
    used = spent.user + spent.system;
  }
}

createServer((req, res) => {
  const path = req.url!.split('?', 1)[0]!;
  const fixture = fixtures.find((f) => f.method === req.method && f.pattern.test(path));
  // Read the request body to its end, as any server must, before answering.
  req.resume();
  req.once('end', () => {
    if (!fixture) {
      res.writeHead(404).end();
      return;
    }
    compute();
    res.writeHead(fixture.status, { 'content-type': fixture.contentType, 'content-length': fixture.bytes.length });
    res.end(fixture.bytes);
  });
}).listen(port(), '127.0.0.1');
