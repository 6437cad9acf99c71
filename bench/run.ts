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
 *   BENCH_ONLY=footprint,throughput,scaling,webhooks,isolation,flows,designer,generate   a subset of the sections
 *                         (isolation: one partner advances its clock over 1,000 deadlines while
 *                         another reads, bench/isolation.ts; BENCH_ONLY=isolation runs only it;
 *                         flows: the partner flow suite for one partner and for 8 isolated
 *                         partners at once, bench/flows.ts; BENCH_ONLY=flows runs only it;
 *                         designer: a description saved under `npm run docs` until the served
 *                         page shows it, bench/designerLoop.ts; BENCH_ONLY=designer runs only it).
 *                         A subset's figures replace those sections' in the last results.json,
 *                         the others kept as they were measured (report.ts mergeResults)
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
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { designerLoop } from './designerLoop.ts';
import { flowsBench } from './flows.ts';
import { footprint, generateTime } from './footprint.ts';
import { advanceWhileReadingId, isolation } from './isolation.ts';
import { root } from './lib.ts';
import { mergeResults } from './partialRun.ts';
import { renderMarkdown, verdicts, withBenchSummary, type Results } from './report.ts';
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
  if (sections.has('flows')) await flowsBench(session);
  if (sections.has('designer')) await designerLoop(session);
  if (sections.has('generate')) generateTime(session);
  results.finishedAt = new Date().toISOString();
  results.machine.loadAfter = loadavg()[0]!;
  const file = join(root, 'bench', 'results.json');
  // A subset of sections is measured into the last results (partialRun.ts); a subset of
  // throughput scenarios would replace every scenario's rows, so it stands alone.
  const merging = env.BENCH_ONLY !== undefined && !env.BENCH_SCENARIOS && existsSync(file);
  const final = merging ? mergeResults(JSON.parse(readFileSync(file, 'utf8')) as Results, results, sections) : results;
  final.targets = verdicts(final);
  const markdown = renderMarkdown(final);
  mkdirSync(join(root, 'bench'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(final, null, 2)}\n`);
  writeFileSync(join(root, 'bench', 'results.md'), markdown);
  // docs/performance.md shows the latest full run with what later subsets measured again; a
  // subset of scenarios alone would show "not measured" rows.
  if (!env.BENCH_SCENARIOS) {
    const readme = join(root, 'docs', 'performance.md');
    writeFileSync(readme, withBenchSummary(readFileSync(readme, 'utf8'), final));
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
