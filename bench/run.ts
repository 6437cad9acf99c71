/**
 * npm run bench: every measurement of issue 9 in one run, on loopback, written to
 * bench/results.json and bench/results.md with the verdict of every target. Each section is a
 * module of its own (footprint.ts, throughput.ts, scaling.ts, webhooks.ts, isolation.ts) and
 * what they share is session.ts; report.ts judges the targets and renders the report.
 *
 *   BENCH_DURATION=5      seconds measured per scenario and server (after BENCH_WARMUP=1)
 *   BENCH_CONNECTIONS=20  concurrent keep-alive connections
 *   BENCH_ORDERS=1000000  the large scale of the scaling runs (the small one is 1,000)
 *   BENCH_SCALING_MS=3000 time per scaling scenario (one request at a time)
 *   BENCH_ONLY=footprint,throughput,scaling,webhooks,isolation,generate   a subset of the sections
 *                         (isolation: one partner advances its clock over 1,000 deadlines while
 *                         another reads, bench/isolation.ts; BENCH_ONLY=isolation runs only it)
 *   BENCH_SCENARIOS=quoteOrder,…  a subset of the throughput scenarios, by id (bench/scenarios.ts),
 *                         to measure one lever on one scenario without the others' minutes;
 *                         the isolation section runs then only if `advanceWhileReading` is listed
 *   BENCH_PROFILE=<dir>   our servers write V8 CPU profiles there (open in Chrome DevTools): after
 *                         each throughput scenario's rounds, a profiled validated server runs it
 *                         once more, its profile in <dir>/<scenario>, summarized in
 *                         bench/results.md (bench/profile.ts); the rounds measure it unprofiled
 *   BENCH_OPEN_RATE=500   the open-loop runs' offered rate, requests/s evenly spaced (lib.ts openLoopRun)
 *   BENCH_ROUNDS=3        rounds: each scenario runs on every server in turn this many times; in the
 *                         closed loop each server's round of median CPU per request is the one
 *                         shown, in the open loop every round's requests are pooled
 *   DATABASE_URL=…        the PostgreSQL server for the PostgreSQL scaling run (a database
 *                         is created in it and dropped); without it the bench uses the one
 *                         on BENCH_PG_PORT=55509 if it answers, else starts one there with
 *                         scripts/postgres.sh (and stops it), else skips that run
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { footprint, generateTime } from './footprint.ts';
import { advanceWhileReadingId, isolation } from './isolation.ts';
import { root } from './lib.ts';
import { renderMarkdown, verdicts, withBenchSummary } from './report.ts';
import { scaling } from './scaling.ts';
import { benchOptions, log, startSession } from './session.ts';
import { throughput } from './throughput.ts';
import { webhooks } from './webhooks.ts';

const { env } = process;
const session = startSession(benchOptions(env));

async function main() {
  const { options, results, work } = session;
  const sections = options.sections;
  log(`work directory ${work}; load average ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores`);
  if (sections.has('footprint')) await footprint(session);
  if (sections.has('throughput')) await throughput(session);
  if (sections.has('scaling')) await scaling(session);
  if (sections.has('webhooks')) await webhooks(session);
  if (sections.has('isolation') && (!options.scenarios || options.scenarios.has(advanceWhileReadingId))) await isolation(session);
  if (sections.has('generate')) generateTime(session);
  results.finishedAt = new Date().toISOString();
  results.machine.loadAfter = loadavg()[0]!;
  results.targets = verdicts(results);
  const markdown = renderMarkdown(results);
  mkdirSync(join(root, 'bench'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(root, 'bench', 'results.md'), markdown);
  // docs/performance.md shows the latest full run only: a subset would show "not measured" rows.
  if (!env.BENCH_ONLY && !env.BENCH_SCENARIOS) {
    const readme = join(root, 'docs', 'performance.md');
    writeFileSync(readme, withBenchSummary(readFileSync(readme, 'utf8'), results));
  }
  process.stdout.write(`\n${markdown}\n`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void session.cleanup().then(() => process.exit(130)));
}

try {
  await main();
} finally {
  await session.cleanup();
}
