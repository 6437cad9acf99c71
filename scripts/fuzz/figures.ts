/** The figures of a Schemathesis run, from its NDJSON event report. */

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
  seconds?: number;
  serverErrorLogs?: number;
}

type Json = Record<string, any>;

/** Which contract operation a sent request was, by method and path template. */
function matcher(operations: { method: string; path: string }[]) {
  const patterns = operations.map((o) => ({
    label: `${o.method.toUpperCase()} ${o.path}`,
    method: o.method.toUpperCase(),
    regex: new RegExp(`^${o.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]*')}$`),
  }));
  // Fixed paths win over templated ones (/ramp/order/fiat_received is not /ramp/order/{id}).
  patterns.sort((a, b) => (a.label.includes('{') ? 1 : 0) - (b.label.includes('{') ? 1 : 0));
  return (method: string, path: string) => patterns.find((p) => p.method === method && p.regex.test(path))?.label;
}

export function summarize(ndjson: string, contract: { method: string; path: string }[]): Figures {
  const operations = contract.length;
  const operationOf = matcher(contract);
  const figures: Figures = {
    version: '?', seed: '?', operations, operationsTested: 0, cases: 0, negative: 0, positive: 0,
    byPhase: {}, byStatusClass: {}, perOperation: { min: 0, median: 0, max: 0 }, failures: 0,
  };
  const perLabel = new Map<string, number>();
  const bump = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);
  for (const line of ndjson.split('\n')) {
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
      const label = operationOf(value.method, value.path.split('?')[0]);
      if (label) perLabel.set(label, (perLabel.get(label) ?? 0) + 1);
    }
    for (const interaction of Object.values<Json>(recorder.interactions ?? {})) {
      const status = interaction.response?.status_code;
      bump(figures.byStatusClass, typeof status === 'number' ? `${Math.floor(status / 100)}xx` : 'no response');
    }
    for (const checks of Object.values<Json[]>(recorder.checks ?? {})) {
      figures.failures += checks.filter((c) => c.status === 'failure').length;
    }
  }
  const counts = [...perLabel.values()].sort((a, b) => a - b);
  figures.operationsTested = counts.length;
  if (counts.length) figures.perOperation = { min: counts[0]!, median: counts[Math.floor(counts.length / 2)]!, max: counts.at(-1)! };
  return figures;
}
