/**
 * The partner flow suite's figures (bench/flows.ts) in the report: their shape in
 * results.json, the two targets of issue 35 judged on them, and their section of results.md.
 * Apart from report.ts, which includes them, so neither grows past the size limit.
 */

/** The partner flow suite's wall time, one partner alone and 8 isolated partners at once. */
export interface FlowsResult {
  engine: 'sqlite' | 'postgres';
  /** Each flow's wall time in the one-partner run of median time. */
  flows: { name: string; ms: number }[];
  /** The unmeasured first run after the start. */
  warmupMs: number;
  /** One partner's suite: the median round (with the server's CPU time during it), and every round. */
  onePartner: { ms: number; rounds: number[]; serverCpuMs?: number | undefined; clientCpuMs?: number };
  /** `partners` suites at once, each for its own partner: first start to last end, the median round and every round. */
  parallel: { partners: number; ms: number; rounds: number[]; slowestSuiteMs: number; serverCpuMs?: number | undefined; clientCpuMs?: number };
  /** Signed deliveries received and verified over every measured suite. */
  webhooksVerified: number;
}

const seconds = (ms: number) => (ms / 1000).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const times = (n: number) => `${n.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}×`;

/** Issue 35: a partner's whole suite in seconds, and parallel CI jobs on one sandbox not much slower than one. */
export function flowTargets(flows: FlowsResult | undefined): { target: string; measured: string; holds: boolean | null }[] {
  const ratio = flows ? flows.parallel.ms / flows.onePartner.ms : undefined;
  return [
    {
      target: 'partner flow suite, one partner ≤ 5 s',
      measured: flows ? `${seconds(flows.onePartner.ms)} s` : 'not measured',
      holds: flows ? flows.onePartner.ms <= 5000 : null,
    },
    {
      target: `partner flow suite, ${flows?.parallel.partners ?? 8} isolated partners in parallel ≤ 2× one partner`,
      measured: flows && ratio !== undefined ? `${seconds(flows.parallel.ms)} s, ${times(ratio)}` : 'not measured',
      holds: ratio === undefined ? null : ratio <= 2,
    },
  ];
}

const cpu = (ms: number | undefined) => (ms === undefined ? '–' : `${seconds(ms)} s`);

export function flowsSection(f: FlowsResult | undefined): string[] {
  if (!f) return [];
  const rounds = (values: number[]) => values.map(seconds).join(', ');
  return [
    `## The partner flow suite (${f.engine}, every flow through the typed client on a frozen sandbox clock)`,
    '',
    `| measure | value |`,
    `|-|-:|`,
    `| one partner: wall time (each round) | ${seconds(f.onePartner.ms)} s (${rounds(f.onePartner.rounds)}) |`,
    `| ${f.parallel.partners} isolated partners at once: wall time (each round) | ${seconds(f.parallel.ms)} s (${rounds(f.parallel.rounds)}) |`,
    `| ${f.parallel.partners} at once ÷ one | ${times(f.parallel.ms / f.onePartner.ms)} |`,
    `| the server's CPU time: one partner, ${f.parallel.partners} at once | ${cpu(f.onePartner.serverCpuMs)}, ${cpu(f.parallel.serverCpuMs)} |`,
    `| the server's CPU time for ${f.parallel.partners} ÷ one partner's wall time: about the least the ratio can be with one server process | ${f.parallel.serverCpuMs === undefined ? '–' : times(f.parallel.serverCpuMs / f.onePartner.ms)} |`,
    `| the partners' side's CPU time (clients, receivers, signature checks; one process): one partner, ${f.parallel.partners} at once | ${cpu(f.onePartner.clientCpuMs)}, ${cpu(f.parallel.clientCpuMs)} |`,
    `| slowest single suite among the parallel ones | ${seconds(f.parallel.slowestSuiteMs)} s |`,
    `| first run after the start (unmeasured warm-up) | ${seconds(f.warmupMs)} s |`,
    `| signed webhooks received and verified | ${f.webhooksVerified} |`,
    '',
    `| flow (one partner, median round) | ms |`,
    `|-|-:|`,
    ...f.flows.map((x) => `| ${x.name} | ${Math.round(x.ms)} |`),
    '',
    'Each suite runs for a partner made for it with `createSandboxPartner` before its timer starts and deleted after it stops (bench/flows.ts, test/support/flowSuite.ts).',
    '',
  ];
}
