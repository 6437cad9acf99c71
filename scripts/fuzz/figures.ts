/**
 * The figures of a Schemathesis run, from its NDJSON event report: requests by phase and by
 * answer, and per operation how many answers were 2xx, 4xx and 5xx, so the summary can say
 * which operations that document a 2xx never reached one. A 2xx is told apart by phase: the
 * examples phase sends the contract's examples and the world's requests (hooks.py), which
 * make each operation's 2xx certain; the coverage, fuzzing and stateful phases send what
 * Schemathesis generates, and their 2xx show how far generated requests get on their own.
 */
import type { ContractOperation as Operation } from '../../server/shared/contract.ts';

export interface OperationFigures {
  operationId: string;
  /** `METHOD /path/{template}`. */
  label: string;
  /** The contract documents a 2xx answer for it. */
  documents2xx: boolean;
  requests: number;
  '2xx': number;
  /** 2xx answers to requests of the generating phases (coverage, fuzzing, stateful). */
  generated2xx: number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  /** Requests that got no answer (a timeout, a refused connection). */
  none: number;
}

export interface Figures {
  version: string;
  seed: number | string;
  operations: number;
  operationsTested: number;
  /** Every generated request (each one sent). */
  cases: number;
  /** Requests generated to violate the documents (bad inputs). */
  negative: number;
  positive: number;
  byPhase: Record<string, number>;
  byStatusClass: Record<string, number>;
  perOperation: { min: number; median: number; max: number };
  /** Check failures (each failing check of each case). */
  failures: number;
  /** Requests that carried a NUL (U+0000) anywhere, and how many of them were answered 400. */
  nul: { requests: number; answered400: number };
  /** Per operation, in the contract's order. */
  byOperation: OperationFigures[];
  seconds?: number;
  serverErrorLogs?: number;
}

type Json = Record<string, any>;

type ContractOperation = Pick<Operation, 'operationId' | 'method' | 'path' | 'statuses'>;

/** Which contract operation a sent request was, by method and path template. */
function matcher(operations: ContractOperation[]) {
  const patterns = operations.map((o) => ({
    operation: o,
    method: o.method.toUpperCase(),
    regex: new RegExp(`^${o.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]*')}$`),
  }));
  // Fixed paths win over templated ones (/ramp/order/fiat_received is not /ramp/order/{id}).
  patterns.sort((a, b) => (a.operation.path.includes('{') ? 1 : 0) - (b.operation.path.includes('{') ? 1 : 0));
  return (method: string, path: string) => patterns.find((p) => p.method === method.toUpperCase() && p.regex.test(path))?.operation;
}

/** The path of a request URI, without origin and query. */
function pathOf(uri: string): string {
  try {
    return new URL(uri).pathname;
  } catch {
    return uri.split('?')[0]!;
  }
}

/** Whether a NUL (U+0000) is in any string of a value, property names included. */
function carriesNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(carriesNul);
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\u0000') || carriesNul(v));
  return false;
}

/** A request as the report records it: what was sent, the body base64-encoded. */
interface SentRequest {
  uri: string;
  headers?: Record<string, string[]>;
  body?: { $base64: string } | string | null;
}

/**
 * Whether a request as sent carried a NUL (U+0000): in its path or query once percent-decoded,
 * a header, or its body as its media type reads it, names and values. The request, not the
 * case it was made from: a form body cannot carry an object member, and Schemathesis leaves
 * such a member out, NUL and all. hooks.py's `request_carries_nul` judges the same way.
 */
function sentCarriesNul(request: SentRequest): boolean {
  let url: URL;
  try {
    url = new URL(request.uri);
  } catch {
    return request.uri.includes('\u0000') || /%00/i.test(request.uri);
  }
  // In a path a NUL can only be the escape `%00` (`%2500` is the text `%00`); URLSearchParams
  // decodes the query as the server does, leaving a malformed escape as it is.
  if (/%00/i.test(url.pathname) || carriesNul([...url.searchParams])) return true;
  if (carriesNul(request.headers ?? {})) return true;
  const body = request.body;
  if (body === undefined || body === null) return false;
  // Decoding keeps a NUL byte a NUL and never makes one.
  const text = typeof body === 'string' ? body : Buffer.from(body.$base64, 'base64').toString('utf8');
  const type = (Object.entries(request.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1]?.[0] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return carriesNul(JSON.parse(text));
    } catch {
      // Not JSON at all (the negative phase's bodies): its text as sent.
    }
  }
  // The server's form parser (body-parser) drops a pair without a name, value and all.
  if (type === 'application/x-www-form-urlencoded') return carriesNul([...new URLSearchParams(text)].filter(([name]) => name !== ''));
  return text.includes('\u0000');
}

/**
 * The figures of the report's lines, read as they come: a long run's report is larger than one
 * string can hold.
 */
export async function summarize(ndjson: Iterable<string> | AsyncIterable<string>, contract: ContractOperation[]): Promise<Figures> {
  const operationOf = matcher(contract);
  const byOperation = new Map<ContractOperation, OperationFigures>(
    contract.map((o) => [
      o,
      {
        operationId: o.operationId,
        label: `${o.method.toUpperCase()} ${o.path}`,
        documents2xx: o.statuses.some((s) => /^2(\d\d|XX)$/i.test(s)),
        requests: 0, '2xx': 0, generated2xx: 0, '3xx': 0, '4xx': 0, '5xx': 0, none: 0,
      },
    ]),
  );
  const figures: Figures = {
    version: '?', seed: '?', operations: contract.length, operationsTested: 0, cases: 0, negative: 0, positive: 0,
    byPhase: {}, byStatusClass: {}, perOperation: { min: 0, median: 0, max: 0 }, failures: 0, nul: { requests: 0, answered400: 0 }, byOperation: [],
  };
  const bump = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);
  for await (const line of ndjson) {
    if (!line.trim()) continue;
    const event = JSON.parse(line) as Json;
    if (event.Initialize) {
      figures.version = event.Initialize.schemathesis_version;
      // The seed is a 128-bit integer: keep its digits, not a rounded number.
      figures.seed = /"seed":\s*(\d+)/.exec(line)?.[1] ?? event.Initialize.seed;
    }
    const recorder = event.ScenarioFinished?.recorder as Json | undefined;
    if (!recorder) continue;
    for (const { value } of Object.values<Json>(recorder.cases ?? {})) {
      figures.cases += 1;
      const mode = value.meta?.generation?.mode;
      if (mode === 'negative') figures.negative += 1;
      else figures.positive += 1;
      bump(figures.byPhase, value.meta?.phase?.name ?? 'unknown');
    }
    // Each interaction is one request sent and its answer, whichever operation it was
    // generated for (a stateful scenario sends to several); it shares its case's id.
    for (const [id, interaction] of Object.entries<Json>(recorder.interactions ?? {})) {
      const status = interaction.response?.status_code;
      const statusClass = typeof status === 'number' ? `${Math.floor(status / 100)}xx` : 'none';
      bump(figures.byStatusClass, statusClass === 'none' ? 'no response' : statusClass);
      const sent = recorder.cases?.[id]?.value as Json | undefined;
      if (interaction.request && sentCarriesNul(interaction.request as SentRequest)) {
        figures.nul.requests += 1;
        if (status === 400) figures.nul.answered400 += 1;
      }
      const operation = operationOf(interaction.request.method, pathOf(interaction.request.uri));
      const counts = operation && byOperation.get(operation);
      if (!counts) continue;
      counts.requests += 1;
      if (statusClass in counts) counts[statusClass as '2xx' | '3xx' | '4xx' | '5xx' | 'none'] += 1;
      if (statusClass === '2xx' && sent?.meta?.phase?.name !== 'examples') counts.generated2xx += 1;
    }
    for (const checks of Object.values<Json[]>(recorder.checks ?? {})) {
      figures.failures += checks.filter((c) => c.status === 'failure').length;
    }
  }
  figures.byOperation = [...byOperation.values()];
  const counts = figures.byOperation.map((o) => o.requests).filter((n) => n > 0).sort((a, b) => a - b);
  figures.operationsTested = counts.length;
  if (counts.length) figures.perOperation = { min: counts[0]!, median: counts[Math.floor(counts.length / 2)]!, max: counts.at(-1)! };
  return figures;
}

/**
 * The operations a run may leave without a 2xx, each with its reason: the table under the
 * heading "Operations without a 2xx" of scripts/fuzz/README.md, `| operationId | reason |`.
 */
export function exceptionsOf(readme: string): Map<string, string> {
  const section = /^## Operations without a 2xx\s*$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1];
  if (section === undefined) throw new Error('scripts/fuzz/README.md has no "## Operations without a 2xx" section');
  const exceptions = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = /^\|\s*`?([A-Za-z0-9]+)`?\s*\|(.*)\|\s*$/.exec(line.trim());
    if (!cells || cells[1] === 'operationId') continue;
    exceptions.set(cells[1]!, cells[2]!.trim());
  }
  return exceptions;
}

/** The per-operation table of operations.txt: one row per operation, those without a 2xx marked. */
export function operationsTable(rows: OperationFigures[]): string {
  const width = Math.max(...rows.map((r) => r.operationId.length), 'operation'.length);
  const cell = (n: number) => String(n).padStart(6);
  // `gen`: the 2xx of the generating phases (coverage, fuzzing, stateful), among `2xx`.
  const header = `${'operation'.padEnd(width)}  ${['sent', '2xx', 'gen', '3xx', '4xx', '5xx', 'none'].map((h) => h.padStart(6)).join('')}  path`;
  const lines = rows.map((r) => {
    const mark = r.documents2xx && r['2xx'] === 0 ? '  (no 2xx)' : '';
    return `${r.operationId.padEnd(width)}  ${[r.requests, r['2xx'], r.generated2xx, r['3xx'], r['4xx'], r['5xx'], r.none].map(cell).join('')}  ${r.label}${mark}`;
  });
  return [header, ...lines].join('\n') + '\n';
}

export interface Verdict {
  /** Operations that document a 2xx, among those the run selected. */
  considered: OperationFigures[];
  /** Those of them that got no 2xx. */
  without2xx: OperationFigures[];
  /** Those of them the README does not name either: they fail the run. */
  unexcused: OperationFigures[];
}

/** Which operations that document a 2xx never got one, and which of those the README names. */
export function verdict(figures: Figures, exceptions: Map<string, string>, selected?: Set<string>): Verdict {
  const considered = figures.byOperation.filter((o) => o.documents2xx && (!selected || selected.has(o.operationId)));
  const without2xx = considered.filter((o) => o['2xx'] === 0);
  return { considered, without2xx, unexcused: without2xx.filter((o) => !exceptions.has(o.operationId)) };
}

/**
 * The lines the run prints (session.ts prefixes each with `fuzz: `). None may read as another
 * test runner's line to CI: no `ok`/`FAIL`/`PASS`/`===`/`---`/`#` at the start, no
 * `N passed, N failed` anywhere (CI's tally reads those).
 */
export function summaryLines(
  figures: Figures,
  result: Verdict,
  exceptions: Map<string, string>,
  extra: { warnings: string[]; serverErrors: string[]; dropped?: number },
): string[] {
  const count = (o: OperationFigures) =>
    `${o.operationId} (${o.label}): ${o.requests} sent, ${o['2xx']} 2xx (${o.generated2xx} to generated requests), ${o['4xx']} 4xx, ${o['5xx']} 5xx`;
  const generated = result.considered.filter((o) => o.generated2xx > 0).length;
  const named = (o: OperationFigures) =>
    exceptions.has(o.operationId) ? ` [named in scripts/fuzz/README.md: ${exceptions.get(o.operationId)}]` : ' [NOT named in scripts/fuzz/README.md]';
  return [
    `Schemathesis ${figures.version}: ${figures.operationsTested} of ${figures.operations} operations, ${figures.cases} requests ` +
      `(${figures.negative} with bad inputs, ${figures.positive} valid), ${figures.seconds ?? '?'} s, seed ${figures.seed}`,
    `by phase: ${Object.entries(figures.byPhase).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `responses: ${Object.entries(figures.byStatusClass).sort().map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `requests per operation: min ${figures.perOperation.min}, median ${figures.perOperation.median}, max ${figures.perOperation.max}`,
    ...figures.byOperation.map((o) => `per operation: ${count(o)}`),
    `2xx reached on ${result.considered.length - result.without2xx.length} of ${result.considered.length} operations that document a 2xx`,
    `of them by generated requests (coverage, fuzzing, stateful) on ${generated}, by the examples phase alone (the contract's examples and the world's requests) on ${result.considered.length - result.without2xx.length - generated}`,
    ...result.without2xx.map((o) => `no 2xx: ${count(o)}${named(o)}`),
    `requests carrying a NUL (U+0000): ${figures.nul.requests}, of them answered 400: ${figures.nul.answered400}; ` +
      `positive_data_acceptance failures dropped for such a case refused with 400 (hooks.py): ${extra.dropped ?? 0}`,
    `check failures: ${figures.failures}; server errors logged: ${extra.serverErrors.length}`,
    ...extra.serverErrors.slice(0, 5).map((line) => `server error: ${line.slice(0, 400)}`),
    `Schemathesis warnings: ${extra.warnings.length === 0 ? 'none' : extra.warnings.join('; ')}`,
  ];
}

/** How many failures hooks.py's `filter_failure` dropped, from the SUMMARY of Schemathesis's console log. */
export function droppedOf(log: string): number {
  return Number(/^Filtered: (\d+) \(dropped by `filter_failure`\)$/m.exec(log)?.[1] ?? 0);
}

/** Schemathesis's warnings, from the SUMMARY of its console log (`⚠️ Authentication failed: …`). */
export function warningsOf(log: string): string[] {
  const at = log.lastIndexOf('\nWarnings:\n');
  if (at === -1) return [];
  const lines: string[] = [];
  for (const line of log.slice(at + '\nWarnings:\n'.length).split('\n')) {
    if (!line.trim()) break;
    lines.push(line.replace(/^\s*⚠️\s*/u, '').trim());
  }
  return lines;
}
