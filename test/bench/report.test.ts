/** The bench's verdicts: a target holds only on a clean measurement, and every target is printed. */
import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../../bench/lib.ts';
import { readmeMarkers, renderMarkdown, verdicts, withBenchSummary, type Results } from '../../bench/report.ts';
import { timeOrderedId } from '../../bench/seed.ts';

const run = (requestsPerSecond: number, extra: Partial<LoadResult> = {}): LoadResult => ({
  requestsPerSecond,
  mean: 1000 / requestsPerSecond,
  p50: 2,
  p90: 4,
  p99: 8,
  max: 12,
  requests: requestsPerSecond * 5,
  cpuUsPerRequest: 1e6 / requestsPerSecond,
  errors: 0,
  non2xx: 0,
  durationS: 5,
  ...extra,
});

function results(overrides: Partial<Results> = {}): Results {
  const label = 'GET /lookup/tokens/cost';
  return {
    machine: { cpu: 'test', cores: 2, memoryGb: 4, os: 'linux', node: 'v20', loadBefore: 0 },
    startedAt: '2026-01-01T00:00:00.000Z',
    options: { durationS: 5, warmupS: 1, connections: 20, smallOrders: 1000, largeOrders: 1_000_000 },
    throughput: [
      { scenario: 'lookup', label, read: true, target: 'validated', result: run(6000) },
      { scenario: 'lookup', label, read: true, target: 'prism', result: run(1000) },
      { scenario: 'lookup', label, read: true, target: 'express', result: run(7000) },
    ],
    scaling: [
      { engine: 'sqlite', scenario: 'listFirst', label: 'GET /orders, first page', informational: false, small: run(1000, { p50: 1 }), large: run(900, { p50: 1.2 }) },
      { engine: 'sqlite', scenario: 'listLast', label: 'GET /orders, last page', informational: true, small: run(1000, { p50: 1 }), large: run(9, { p50: 100 }) },
    ],
    notes: [],
    ...overrides,
  };
}

const verdictOf = (r: Results, start: string) => verdicts(r).find((v) => v.target.startsWith(start));

describe('bench verdicts', () => {
  it('hold or miss by the measured ratio, and say "not measured" for what is absent', () => {
    const r = results();
    expect(verdictOf(r, 'GET /lookup/tokens/cost: validated ≥ 5× Prism')?.holds).toBe(true);
    expect(verdictOf(r, 'GET /lookup/tokens/cost: validated ≥ 0.75× bare Express')?.holds).toBe(true);
    expect(verdictOf(r, 'GET /lookup/tokens/cost: p99 ≤ 10 ms')?.holds).toBe(true);
    expect(verdictOf(r, 'GET /orders, first page (sqlite)')?.holds).toBe(true);
    expect(verdictOf(r, '≥ 2,000 signed webhook deliveries/s')?.holds).toBeNull();
    expect(verdictOf(r, 'cold start')?.holds).toBeNull();
    const slower = results({ throughput: results().throughput.map((row) => (row.target === 'prism' ? { ...row, result: run(2000) } : row)) });
    expect(verdictOf(slower, 'GET /lookup/tokens/cost: validated ≥ 5× Prism')?.holds).toBe(false);
  });

  it('never let a run with errors, non-2xx answers or no completed request hold', () => {
    for (const flaw of [{ errors: 3 }, { non2xx: 1 }, { requests: 0 }]) {
      const r = results({ throughput: results().throughput.map((row) => (row.target === 'validated' ? { ...row, result: run(6000, flaw) } : row)) });
      expect(verdictOf(r, 'GET /lookup/tokens/cost: validated ≥ 5× Prism')?.holds, JSON.stringify(flaw)).toBe(false);
      expect(verdictOf(r, 'GET /lookup/tokens/cost: p99 ≤ 10 ms')?.holds, JSON.stringify(flaw)).toBe(false);
    }
  });

  it('judge scaling on the median growth, leaving informational rows out', () => {
    const r = results();
    r.scaling[0]!.large = run(900, { p50: 1.6 });
    expect(verdictOf(r, 'GET /orders, first page (sqlite)')?.holds).toBe(false);
    expect(verdicts(r).some((v) => v.target.includes('last page'))).toBe(false);
  });

  it('say what bare Express reached on each throughput and latency target, the floor of an Express server', () => {
    const r = results();
    // Bare Express at 7× Prism would hold the 5× target; at 4× it would miss it.
    expect(verdictOf(r, 'GET /lookup/tokens/cost: validated ≥ 5× Prism')?.bareExpress).toBe('7.00× (by CPU 7.00×): holds');
    const slowFloor = results({ throughput: r.throughput.map((row) => (row.target === 'express' ? { ...row, result: run(4000, { p99: 15 }) } : row)) });
    expect(verdictOf(slowFloor, 'GET /lookup/tokens/cost: validated ≥ 5× Prism')?.bareExpress).toBe('4.00× (by CPU 4.00×): misses');
    expect(verdictOf(slowFloor, 'GET /lookup/tokens/cost: p99 ≤ 10 ms')?.bareExpress).toBe('15 ms: misses');
    expect(verdictOf(r, 'GET /orders, first page (sqlite)')?.bareExpress).toBeUndefined();
    expect(renderMarkdown({ ...slowFloor, targets: verdicts(slowFloor) })).toContain('| 15 ms: misses |');
  });

  it('put the machine and every verdict in the README between its markers, and leave the rest as it was', () => {
    const r = { ...results(), targets: verdicts(results()) };
    const readme = `# Title\n\nBefore.\n\n${readmeMarkers.start}\nan older table\n${readmeMarkers.end}\n\nAfter.\n`;
    const updated = withBenchSummary(readme, r);
    expect(updated.startsWith('# Title\n\nBefore.\n\n')).toBe(true);
    expect(updated.endsWith(`${readmeMarkers.end}\n\nAfter.\n`)).toBe(true);
    expect(updated).not.toContain('an older table');
    expect(updated).toContain('Run 2026-01-01 00:00 UTC on test (2 cores, 4 GB), linux, Node v20');
    for (const v of r.targets) expect(updated).toContain(`| ${v.target} | ${v.measured} |`);
    // A second run replaces the first.
    expect(withBenchSummary(updated, r)).toBe(updated);
    expect(withBenchSummary('# No markers\n', r)).toBe('# No markers\n');
  });

  it('print every verdict in the Markdown table', () => {
    const r = results();
    r.targets = verdicts(r);
    const markdown = renderMarkdown(r);
    for (const v of r.targets) expect(markdown).toContain(`| ${v.target} |`);
    expect(markdown).toContain('✅ holds');
    expect(markdown).toContain('not measured');
  });
});

describe('seeded ids', () => {
  it('are UUIDs that sort by creation time', () => {
    const a = timeOrderedId(Date.parse('2026-01-01T00:00:00.000Z'), 'b', 7);
    const b = timeOrderedId(Date.parse('2026-01-01T00:00:00.010Z'), 'b', 6);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a < b).toBe(true);
    expect(timeOrderedId(0, 'a', 7)).not.toBe(timeOrderedId(0, 'b', 7));
  });
});
