/** The results of a run, the targets of issues 9 and 17 judged against them, and the Markdown report. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, type LoadResult } from './lib.ts';
import { designerLoopSection, designerLoopTargets, type DesignerLoopResult } from './designerLoopReport.ts';
import { flowsSection, flowTargets, type FlowsResult } from './flowsReport.ts';
import type { ProfileSummary } from './profile.ts';
import { targetLabels, type TargetId } from './targets.ts';

export interface ThroughputRow {
  scenario: string;
  label: string;
  read: boolean;
  target: TargetId;
  /** Absent when the server did not answer the scenario with a 2xx. */
  result: LoadResult | undefined;
  /** (f) only: the µs it computed on each request, ours' closed-loop CPU per request over bare node:http's. */
  workUs?: number;
  /**
   * Every round measured. Closed loop: `result` is the one of median CPU per request. Open
   * loop: `result` pools every round's requests (bench/lib.ts `pooledOpenLoop`), and each
   * round's p99 is kept.
   */
  rounds?: { requestsPerSecond: number; cpuUsPerRequest: number | undefined; p99?: number }[];
}

export interface ScalingRow {
  engine: 'sqlite' | 'postgres';
  scenario: string;
  label: string;
  /** Shown, not judged. */
  informational: boolean;
  small: LoadResult | undefined;
  large: LoadResult | undefined;
}

export interface ScenarioProfile {
  scenario: string;
  label: string;
  requests: number;
  summary: ProfileSummary;
}

export interface Verdict {
  target: string;
  measured: string;
  /** null when it could not be measured in this run. */
  holds: boolean | null;
  /**
   * The same target measured on (d), a bare Express 5 route answering our bytes with no
   * validation and no handler: the floor of any Express server on this machine. When it
   * misses too, no work on our handlers or validation can make the target hold here.
   */
  bareExpress?: string;
}

/** One partner advancing its clock while another reads (bench/isolation.ts `advanceWhileReading`). */
export interface IsolationResult {
  engine: 'sqlite' | 'postgres';
  /** The reader's request. */
  read: string;
  /** The advancer's orders whose funding deadline falls due within the advance. */
  deadlines: number;
  /** The advance's status, duration and answer size, and the deadlines its answer counts as applied. */
  advance: { status: number; ms: number; bytes: number; applied: number | undefined };
  /** The reader's reads before the advance, then while it ran. */
  alone: LoadResult;
  during: LoadResult;
}

export interface Results {
  machine: { cpu: string; cores: number; memoryGb: number; os: string; node: string; loadBefore: number; loadAfter?: number };
  startedAt: string;
  finishedAt?: string;
  options: { durationS: number; warmupS: number; connections: number; smallOrders: number; largeOrders: number; openRate?: number; rounds?: number };
  throughput: ThroughputRow[];
  /** The read scenarios at a fixed offered rate (`openRate` requests/s over all connections). */
  openLoop?: ThroughputRow[];
  /** BENCH_PROFILE: the validated server's CPU profile of each scenario's measured run. */
  profiles?: ScenarioProfile[];
  scaling: ScalingRow[];
  seeding?: Record<string, { inserted: number; seconds: number }>;
  webhooks?: {
    latency: { events: number; delivered: number; p50: number; p99: number; max: number };
    drain: { backlog: number; delivered: number; seconds: number; perSecond: number };
    attempts: number;
    badSignatures: number;
  };
  /** One partner advancing its clock over a thousand deadlines while another reads (bench/isolation.ts). */
  isolation?: IsolationResult;
  /** The partner flow suite, one partner and 8 in parallel (bench/flows.ts). */
  flows?: FlowsResult;
  /** `npm run docs`: a saved description until the served page shows it (bench/designerLoop.ts). */
  designerLoop?: DesignerLoopResult;
  footprint?: { coldStartMs?: number; coldStartsMs?: number[]; coldStartCpuMs?: number; idleRssMb?: number | undefined; loadRssMb?: number; generateSeconds?: number; generateUpToDate?: boolean };
  targets?: Verdict[];
  notes: string[];
  /** Runs of some sections (BENCH_ONLY) merged in after this run: their sections' figures are theirs (partialRun.ts). */
  later?: { sections: string[]; startedAt: string; loadBefore: number; loadAfter?: number }[];
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? '–' : n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? undefined : a / b);
/** A run that got errors or non-2xx answers measured something else than the scenario. */
const clean = (r: LoadResult | undefined) => r !== undefined && r.requests > 0 && r.errors === 0 && r.non2xx === 0;
const flaw = (r: LoadResult | undefined) => (r && !clean(r) ? (r.requests === 0 ? ' (no request completed)' : ` (${r.errors} errors, ${r.non2xx} non-2xx)`) : '');

function find(results: Results, scenario: string, target: TargetId, rows = results.throughput) {
  return rows.find((row) => row.scenario === scenario && row.target === target)?.result;
}

/** Latency growth from the small to the large data set: median of requests made one at a time. */
export const growth = (row: ScalingRow) => ratio(row.large?.p50, row.small?.p50);

export function verdicts(results: Results): Verdict[] {
  const out: Verdict[] = [];
  const judged = (target: string, value: number | undefined, holds: (v: number) => boolean, show: (v: number) => string, ...runs: (LoadResult | undefined)[]) => {
    const bad = runs.find((r) => r && !clean(r));
    out.push({
      target,
      measured: value === undefined ? 'not measured' : show(value) + (bad ? flaw(bad) : ''),
      holds: value === undefined ? null : holds(value) && !bad,
    });
  };
  /** Adds to the last verdict what bare Express reached on the same target; as for ours, it holds only on clean runs. */
  const floor = (value: number | undefined, holds: (v: number) => boolean, show: (v: number) => string, ...runs: (LoadResult | undefined)[]) => {
    if (value !== undefined) out.at(-1)!.bareExpress = `${show(value)}: ${holds(value) && runs.every(clean) ? 'holds' : 'misses'}`;
  };
  const scenarios = [...new Map(results.throughput.map((r) => [r.scenario, r])).values()];
  // The req/s ratio decides; the CPU ratio beside it says what it would be on a quiet machine.
  const times = (a: LoadResult | undefined, x: LoadResult | undefined) => (v: number) => `${fmt(v, 2)}× (by CPU ${fmt(ratio(x?.cpuUsPerRequest, a?.cpuUsPerRequest), 2)}×)`;
  // The floor of issue 32: never slower than the stateless mock partners would otherwise run. Its other
  // comparisons (bare Express's speed, latency at a fixed rate) are figures in the tables, not floors.
  for (const s of scenarios) {
    const a = find(results, s.scenario, 'validated');
    const c = find(results, s.scenario, 'prism');
    judged(`${s.label}: validated ≥ 2× Prism mock`, ratio(a?.requestsPerSecond, c?.requestsPerSecond), (v) => v >= 2, times(a, c), a, c);
    const d = find(results, s.scenario, 'express');
    floor(ratio(d?.requestsPerSecond, c?.requestsPerSecond), (v) => v >= 2, times(d, c), d, c);
  }
  for (const row of results.scaling.filter((r) => !r.informational)) {
    judged(`${row.label} (${row.engine}): latency ${scaleName(results.options.largeOrders)}/${scaleName(results.options.smallOrders)} ≤ 1.5`, growth(row), (v) => v <= 1.5, (v) => `${fmt(v, 2)}`, row.small, row.large);
  }
  const w = results.webhooks;
  out.push({
    target: '≥ 2,000 signed webhook deliveries/s',
    measured: w ? `${fmt(w.drain.perSecond)}/s (${w.drain.delivered} of ${w.drain.backlog} in ${fmt(w.drain.seconds, 1)} s; ${w.badSignatures} bad signatures)` : 'not measured',
    holds: w ? w.drain.perSecond >= 2000 && w.drain.delivered === w.drain.backlog && w.badSignatures === 0 : null,
  });
  out.push({
    target: 'webhook p99 change → first attempt ≤ 100 ms',
    measured: w ? `p50 ${fmt(w.latency.p50)} ms, p99 ${fmt(w.latency.p99)} ms (${w.latency.delivered} of ${w.latency.events})` : 'not measured',
    holds: w ? w.latency.p99 <= 100 && w.latency.delivered === w.latency.events : null,
  });
  // Issue 31: one partner's advance leaves another partner's reads answered at once.
  const iso = results.isolation;
  const advanced = iso !== undefined && iso.advance.status === 200 && iso.advance.applied === iso.deadlines;
  judged(
    `another partner's reads during a ${fmt(iso?.deadlines ?? 1000)}-deadline clock advance: p99 ≤ 50 ms (${iso?.engine ?? 'sqlite'})`,
    iso?.during.p99,
    (v) => v <= 50 && advanced,
    (v) => `${fmt(v, 1)} ms over ${fmt(iso!.during.requests)} reads${advanced ? '' : ` (the advance answered ${iso!.advance.status}, ${iso!.advance.applied ?? 'no'} deadlines applied)`}`,
    iso?.during,
  );
  out.push(...flowTargets(results.flows));
  out.push(...designerLoopTargets(results.designerLoop));
  const f = results.footprint;
  out.push({ target: 'cold start ≤ 1.5 s', measured: f?.coldStartMs === undefined ? 'not measured' : `${fmt(f.coldStartMs)} ms`, holds: f?.coldStartMs === undefined ? null : f.coldStartMs <= 1500 });
  out.push({ target: 'idle RSS ≤ 150 MB', measured: f?.idleRssMb === undefined ? 'not measured' : `${fmt(f.idleRssMb)} MB`, holds: f?.idleRssMb === undefined ? null : f.idleRssMb <= 150 });
  return out;
}

const scaleName = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));

/** When, on what machine and how a run was made. */
function runLine(results: Results): string {
  const { machine: m, options: o } = results;
  return (
    `Run ${results.startedAt.slice(0, 16).replace('T', ' ')} UTC on ${m.cpu} (${m.cores} cores, ${m.memoryGb} GB), ${m.os}, Node ${m.node}; ` +
    `load average ${fmt(m.loadBefore, 2)} before and ${fmt(m.loadAfter, 2)} after. ` +
    `${o.connections} connections, ${o.warmupS} s warm-up then ${o.durationS} s per run, ` +
    `${(o.rounds ?? 1) > 1 ? `${o.rounds} rounds with every server in turn (closed loop: each server shown by its round of median CPU per request; open loop: every round's requests pooled), ` : ''}` +
    `loopback, autocannon in the bench process and each server in its own.` +
    (results.later ?? []).map((l) => ` Measured again ${l.startedAt.slice(0, 16).replace('T', ' ')} UTC (load ${fmt(l.loadBefore, 2)} before, ${fmt(l.loadAfter, 2)} after): ${l.sections.join(', ')}.`).join('')
  );
}

/** Every target's verdict, with what bare Express reached on it. */
function targetsTable(results: Results): string[] {
  return [
    '"Bare Express 5" is the same target measured on (d), an Express 5 route that answers our bytes with no validation and no handler: ' +
      'the floor of any Express server on this machine. Where it misses too, the target is out of reach of the Express server this repository is built on.',
    '',
    `| target | measured | verdict | bare Express 5 |`,
    `|-|-|-|-|`,
    ...(results.targets ?? []).map((v) => `| ${v.target} | ${v.measured} | ${v.holds === null ? 'not measured' : v.holds ? '✅ holds' : '❌ misses'} | ${v.bareExpress ?? ''} |`),
  ];
}

/** Where docs/performance.md shows the latest full run (`npm run bench` rewrites what is between them). */
export const readmeMarkers = { start: '<!-- bench results: written by npm run bench -->', end: '<!-- end of bench results -->' };

/** The page (docs/performance.md) with the run's machine and verdicts between its markers (unchanged without them); its links are relative to docs/. */
export function withBenchSummary(readme: string, results: Results): string {
  const start = readme.indexOf(readmeMarkers.start);
  const end = readme.indexOf(readmeMarkers.end);
  if (start < 0 || end < start) return readme;
  const summary = [readmeMarkers.start, '', `${runLine(results)} Every figure: [bench/results.md](../bench/results.md).`, '', ...targetsTable(results), '', ''].join('\n');
  return readme.slice(0, start) + summary + readme.slice(end);
}

/** Per scenario: the profile's µs per request by origin, then its top self-time frames. */
function profileSections(profiles: ScenarioProfile[]): string[] {
  const lines: string[] = [];
  for (const p of profiles) {
    const { summary: s } = p;
    lines.push(`### ${p.label}`, '');
    lines.push(
      `${fmt(s.usPerRequest)} µs of sampled CPU per request (${p.requests.toLocaleString('en')} requests). By origin: ` +
        s.byOrigin.filter((o) => o.share >= 0.01).map((o) => `${o.origin} ${fmt(o.usPerRequest)} µs (${fmt(o.share * 100)} %)`).join(', ') + '.',
      '',
    );
    lines.push(`| self time, µs/req | share | origin | frame |`, `|-:|-:|-|-|`);
    for (const f of s.top) lines.push(`| ${fmt(f.usPerRequest, 1)} | ${fmt(f.share * 100, 1)} % | ${f.origin} | \`${f.frame.replace(/\|/g, '\\|')}\` |`);
    lines.push('');
  }
  return lines;
}

export function renderMarkdown(results: Results): string {
  const lines: string[] = [];
  lines.push(`# Benchmark results`, '');
  lines.push(runLine(results), '');
  lines.push(...throughputSection(results), ...openLoopSection(results), ...profilesSection(results));
  lines.push(...scalingSection(results), ...webhooksSection(results), ...isolationSection(results), ...flowsSection(results.flows), ...designerLoopSection(results.designerLoop, results.footprint?.generateSeconds), ...footprintSection(results));
  lines.push(`## Targets`, '', ...targetsTable(results));
  if (results.notes.length) lines.push('', '## Notes', '', ...results.notes.map((n) => `- ${n.replace(/\s+/g, ' ')}`));
  return `${lines.join('\n')}\n`;
}

function throughputSection(results: Results): string[] {
  if (results.throughput.length === 0) return [];
  const lines: string[] = [];
  lines.push(`## Throughput and latency`, '');
  lines.push(`| scenario | server | req/s | p50 ms | p99 ms | CPU µs/req | each round, CPU µs/req | (a) ÷ this, req/s | (a) ÷ this, by CPU |`, `|-|-|-:|-:|-:|-:|-:|-:|-:|`);
  for (const row of results.throughput) {
    const a = find(results, row.scenario, 'validated');
    const r = row.result;
    const x = row.target === 'validated' ? '' : `${fmt(ratio(a?.requestsPerSecond, r?.requestsPerSecond), 2)}×`;
    const byCpu = row.target === 'validated' ? '' : `${fmt(ratio(r?.cpuUsPerRequest, a?.cpuUsPerRequest), 2)}×`;
    const rounds = (row.rounds ?? []).map((round) => fmt(round.cpuUsPerRequest)).join(' / ');
    lines.push(`| ${row.label} | ${targetLabels[row.target]} | ${fmt(r?.requestsPerSecond)}${flaw(r)} | ${fmt(r?.p50)} | ${fmt(r?.p99)} | ${fmt(r?.cpuUsPerRequest)} | ${rounds} | ${x} | ${byCpu} |`);
  }
  lines.push(
    '',
    'The quote + order scenario counts each of its two requests; peers answer the bytes our server answered. ' +
      'Each server ran every scenario once per round, all servers in turn; its row is its round of median CPU per request, and every round\'s CPU per request is beside it. ' +
      'CPU µs/req is the server process\'s own CPU time per request: on a busy machine it still compares the servers when req/s no longer does ' +
      '("by CPU" is the other server\'s CPU per request over ours, what the req/s ratio would be if both were CPU-bound alone).',
    '',
  );
  return lines;
}

function openLoopSection(results: Results): string[] {
  if ((results.openLoop ?? []).length === 0) return [];
  const lines: string[] = [];
  lines.push(`## Open loop: ${fmt(results.options.openRate)} requests/s offered (evenly spaced, at most ${results.options.connections} connections)`, '');
  lines.push(`| scenario | server | req/s answered | p50 ms | p90 ms | p99 ms | max ms | CPU µs/req | each round, p99 ms |`, `|-|-|-:|-:|-:|-:|-:|-:|-:|`);
  for (const row of results.openLoop!) {
    const r = row.result;
    const server = row.workUs === undefined ? targetLabels[row.target] : `${targetLabels[row.target]} (computes ${fmt(row.workUs)} µs a request)`;
    const rounds = (row.rounds ?? []).map((round) => fmt(round.p99, 1)).join(' / ');
    lines.push(`| ${row.label} | ${server} | ${fmt(r?.requestsPerSecond)}${flaw(r)} | ${fmt(r?.p50, 1)} | ${fmt(r?.p90, 1)} | ${fmt(r?.p99, 1)} | ${fmt(r?.max, 1)} | ${fmt(r?.cpuUsPerRequest)} | ${rounds} |`);
  }
  lines.push(
    '',
    'The latency a partner\'s CI sees at a modest rate, shown for information (issue 32 keeps no latency floor on it). ' +
      'One request every 1/rate s whatever the answers\' pace (bench/lib.ts `openLoopRun`); each latency counts from the instant its request was due, ' +
      'so waiting for a connection or for the server counts too. (autocannon\'s `overallRate` sends each connection\'s quota back to back at the start of each second: a burst, not this.) ' +
      '(f) is (e) computing on each request for as long as ours cost more than (e) in the closed loop above: as costly as ours, with none of its variance, so what ours\' p99 has above (f)\'s is variance, not cost. ' +
      'Each server ran each scenario once per round, all servers in turn; its row pools the requests of every round, so its p99 is that of all of them, and a stall of the machine counts for the requests it held up, not for a whole round.',
    '',
  );
  return lines;
}

/** This run's profiles, then those from before issue 17 (bench/profiles-before.json) when kept. */
function profilesSection(results: Results): string[] {
  const lines: string[] = [];
  if ((results.profiles ?? []).length > 0) {
    lines.push(`## CPU profiles (validated server, a closed-loop run of each scenario of its own, after the measured rounds)`, '');
    lines.push(...profileSections(results.profiles!));
  }
  const before = join(root, 'bench', 'profiles-before.json');
  if (existsSync(before)) {
    const baseline = JSON.parse(readFileSync(before, 'utf8')) as { note: string; profiles: ScenarioProfile[] };
    lines.push(`## CPU profiles before issue 17`, '', baseline.note, '', ...profileSections(baseline.profiles));
  }
  return lines;
}

function scalingSection(results: Results): string[] {
  if (results.scaling.length === 0) return [];
  const lines: string[] = [];
  const s = scaleName(results.options.smallOrders);
  const l = scaleName(results.options.largeOrders);
  lines.push(`## Scaling: ${s} and ${l} stored orders (validated server, one request at a time)`, '');
  lines.push(`| engine | scenario | ${s} p50 / p99 ms | ${s} CPU µs/req | ${l} p50 / p99 ms | ${l} CPU µs/req | ${l}/${s} p50 |`, `|-|-|-:|-:|-:|-:|-:|`);
  for (const row of results.scaling) {
    lines.push(
      `| ${row.engine} | ${row.label} | ${fmt(row.small?.p50, 2)} / ${fmt(row.small?.p99, 2)}${flaw(row.small)} | ${fmt(row.small?.cpuUsPerRequest)} | ` +
        `${fmt(row.large?.p50, 2)} / ${fmt(row.large?.p99, 2)}${flaw(row.large)} | ${fmt(row.large?.cpuUsPerRequest)} | ${fmt(growth(row), 2)} |`,
    );
  }
  const seeding = Object.entries(results.seeding ?? {}).map(([k, v]) => `${k}: ${v.inserted.toLocaleString('en')} orders in ${fmt(v.seconds, 1)} s`);
  if (seeding.length) lines.push('', `Seeding (orders and their quotes, one transaction): ${seeding.join('; ')}.`);
  lines.push('');
  return lines;
}

function webhooksSection(results: Results): string[] {
  const w = results.webhooks;
  if (!w) return [];
  return [
    `## Webhooks (SQLite, loopback receiver checking every signature)`,
    '',
    `| measure | value |`,
    `|-|-:|`,
    `| signed deliveries/s (backlog of ${w.drain.backlog}) | ${fmt(w.drain.perSecond)} |`,
    `| change → first attempt p50 | ${fmt(w.latency.p50, 1)} ms |`,
    `| change → first attempt p99 | ${fmt(w.latency.p99, 1)} ms |`,
    `| bad signatures | ${w.badSignatures} |`,
    '',
  ];
}

function isolationSection(results: Results): string[] {
  const iso = results.isolation;
  if (!iso) return [];
  const lines: string[] = [];
  lines.push(`## One partner's clock advance, another partner's reads (${iso.engine})`, '');
  lines.push(`| measure | value |`, `|-|-:|`);
  lines.push(`| deadlines due within the advance (P366D) | ${fmt(iso.deadlines)} |`);
  lines.push(`| the advance: status, wall time, answer size | ${iso.advance.status}, ${fmt(iso.advance.ms)} ms, ${fmt(iso.advance.bytes / 1024, 1)} KB |`);
  lines.push(`| deadlines the answer counts as applied | ${fmt(iso.advance.applied)} |`);
  for (const [when, r] of [['alone', iso.alone], ['during the advance', iso.during]] as const) {
    lines.push(`| ${iso.read}, ${when}: reads, p50 / p99 / max ms | ${fmt(r.requests)}${flaw(r)}, ${fmt(r.p50, 1)} / ${fmt(r.p99, 1)} / ${fmt(r.max, 1)} |`);
  }
  lines.push(
    '',
    `The reads are an open loop of ${fmt(results.options.openRate)} requests/s over at most ${results.options.connections} connections, each latency from the instant its read was due; ` +
      'during the advance they are sent from the instant the advance is sent until it is answered, the operation warmed by an advance of `PT0S` first (bench/isolation.ts).',
    '',
  );
  return lines;
}

function footprintSection(results: Results): string[] {
  const f = results.footprint;
  if (!f) return [];
  const lines: string[] = [];
  lines.push(`## Footprint`, '');
  lines.push(`| measure | value |`, `|-|-:|`);
  if (f.coldStartMs !== undefined) lines.push(`| cold start to first answered request (median of 3, empty database) | ${fmt(f.coldStartMs)} ms |`);
  if (f.coldStartCpuMs !== undefined) lines.push(`| CPU time the server used until then | ${fmt(f.coldStartCpuMs)} ms |`);
  if (f.idleRssMb !== undefined) lines.push(`| idle RSS | ${fmt(f.idleRssMb)} MB |`);
  if (f.loadRssMb !== undefined) lines.push(`| peak RSS under load (validated server) | ${fmt(f.loadRssMb)} MB |`);
  if (f.generateSeconds !== undefined) lines.push(`| \`npm run generate\` wall time | ${fmt(f.generateSeconds, 1)} s |`);
  lines.push('');
  return lines;
}
