/** The bench's verdicts: a target holds only on a clean measurement, and every target is printed. */
import { describe, expect, it } from 'vitest';
import { medianRun, roundOf, type LoadResult } from '../../bench/lib.ts';
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
    options: { durationS: 5, warmupS: 1, connections: 20, smallOrders: 1000, largeOrders: 1_000_000, openRate: 500 },
    throughput: [
      { scenario: 'lookup', label, read: true, target: 'validated', result: run(6000) },
      { scenario: 'lookup', label, read: true, target: 'prism', result: run(1000) },
      { scenario: 'lookup', label, read: true, target: 'express', result: run(7000) },
    ],
    openLoop: [
      { scenario: 'lookup', label, read: true, target: 'validated', result: run(500, { p99: 4 }) },
      { scenario: 'lookup', label, read: true, target: 'express', result: run(500, { p99: 2 }) },
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
    expect(verdictOf(r, 'GET /lookup/tokens/cost: validated ≥ 2× Prism')?.holds).toBe(true);
    expect(verdictOf(r, 'GET /orders, first page (sqlite)')?.holds).toBe(true);
    expect(verdictOf(r, '≥ 2,000 signed webhook deliveries/s')?.holds).toBeNull();
    expect(verdictOf(r, 'cold start')?.holds).toBeNull();
    const slower = results({ throughput: results().throughput.map((row) => (row.target === 'prism' ? { ...row, result: run(4000) } : row)) });
    expect(verdictOf(slower, 'GET /lookup/tokens/cost: validated ≥ 2× Prism')?.holds).toBe(false);
  });

  it("judge only issue 32's floors: bare Express's speed and the open loop's latency are figures, not targets", () => {
    const r = results();
    const targets = verdicts(r).map((v) => v.target);
    expect(targets.filter((t) => t.startsWith('GET /lookup/tokens/cost'))).toEqual(['GET /lookup/tokens/cost: validated ≥ 2× Prism mock']);
    expect(targets.some((t) => t.includes('bare Express') || t.includes('open loop'))).toBe(false);
    // Whatever they measure: ours at a tenth of bare Express, or late at a fixed rate.
    const slow = results({
      throughput: r.throughput.map((row) => (row.target === 'express' ? { ...row, result: run(60000) } : row)),
      openLoop: r.openLoop!.map((row) => (row.target === 'validated' ? { ...row, result: run(500, { p99: 40 }) } : row)),
    });
    expect(verdicts(slow).map((v) => v.target)).toEqual(targets);
    expect(verdicts(slow).every((v) => v.holds !== false)).toBe(true);
    // Both still shown: bare Express in the throughput table, the latency in the open loop's.
    const markdown = renderMarkdown({ ...slow, targets: verdicts(slow) });
    expect(markdown).toContain('| GET /lookup/tokens/cost | (d) bare Express 5 | 60,000 |');
    expect(markdown).toMatch(/\| GET \/lookup\/tokens\/cost \| \(a\) ours, validated \| 500 \| 2\.0 \| 4\.0 \| 40\.0 \|/);
  });

  it('never let a run with errors, non-2xx answers or no completed request hold', () => {
    for (const flaw of [{ errors: 3 }, { non2xx: 1 }, { requests: 0 }]) {
      const r = results({ throughput: results().throughput.map((row) => (row.target === 'validated' ? { ...row, result: run(6000, flaw) } : row)) });
      expect(verdictOf(r, 'GET /lookup/tokens/cost: validated ≥ 2× Prism')?.holds, JSON.stringify(flaw)).toBe(false);
    }
  });

  it('judge scaling on the median growth, leaving informational rows out', () => {
    const r = results();
    r.scaling[0]!.large = run(900, { p50: 1.6 });
    expect(verdictOf(r, 'GET /orders, first page (sqlite)')?.holds).toBe(false);
    expect(verdicts(r).some((v) => v.target.includes('last page'))).toBe(false);
  });

  it('say what bare Express reached on each throughput target, the floor of an Express server', () => {
    const r = results();
    // Bare Express at 7× Prism holds the 2× target; at 1.5× it would miss it.
    expect(verdictOf(r, 'GET /lookup/tokens/cost: validated ≥ 2× Prism')?.bareExpress).toBe('7.00× (by CPU 7.00×): holds');
    const slowFloor = results({ throughput: r.throughput.map((row) => (row.target === 'express' ? { ...row, result: run(1500) } : row)) });
    expect(verdictOf(slowFloor, 'GET /lookup/tokens/cost: validated ≥ 2× Prism')?.bareExpress).toBe('1.50× (by CPU 1.50×): misses');
    expect(verdictOf(r, 'GET /orders, first page (sqlite)')?.bareExpress).toBeUndefined();
    const markdown = renderMarkdown({ ...slowFloor, targets: verdicts(slowFloor) });
    expect(markdown).toContain('| target | measured | verdict | bare Express 5 |\n');
    expect(markdown).toContain('| GET /lookup/tokens/cost: validated ≥ 2× Prism mock | 6.00× (by CPU 6.00×) | ✅ holds | 1.50× (by CPU 1.50×): misses |');
    // As for ours, a floor holds only on clean runs.
    const flawedFloor = results({ throughput: r.throughput.map((row) => (row.target === 'express' ? { ...row, result: run(7000, { non2xx: 4 }) } : row)) });
    expect(verdictOf(flawedFloor, 'GET /lookup/tokens/cost: validated ≥ 2× Prism')?.bareExpress).toBe('7.00× (by CPU 7.00×): misses');
  });

  it("show the open loop's latency for every server, (f) with what it computed, and a run that fell behind or failed", () => {
    const label = 'GET /lookup/tokens/cost';
    const r = results({
      openLoop: [
        ...results().openLoop!.map((row) => (row.target === 'validated' ? { ...row, result: run(300, { p99: 26.8, errors: 2 }) } : row)),
        { scenario: 'lookup', label, read: true, target: 'costed', workUs: 633.4, result: run(500, { p99: 3 }) },
      ],
    });
    const markdown = renderMarkdown({ ...r, targets: verdicts(r) });
    expect(markdown).toContain('| GET /lookup/tokens/cost | (a) ours, validated | 300 (2 errors, 0 non-2xx) | 2.0 | 4.0 | 26.8 | 12.0 |');
    expect(markdown).toContain("| GET /lookup/tokens/cost | (f) node:http at ours' cost (computes 633 µs a request) | 500 | 2.0 | 4.0 | 3.0 | 12.0 |");
    expect(markdown).toContain('| GET /lookup/tokens/cost | (d) bare Express 5 | 500 | 2.0 | 4.0 | 2.0 | 12.0 |');
  });

  it('show each scenario\'s CPU profile by origin and top frames', () => {
    const r = results({
      profiles: [
        {
          scenario: 'lookup',
          label: 'GET /lookup/tokens/cost',
          requests: 100,
          summary: {
            usPerRequest: 400,
            top: [{ frame: 'writev', origin: 'native', usPerRequest: 100, share: 0.25 }],
            byOrigin: [
              { origin: 'native', usPerRequest: 300, share: 0.75 },
              { origin: 'server', usPerRequest: 100, share: 0.25 },
            ],
          },
        },
      ],
    });
    const markdown = renderMarkdown({ ...r, targets: verdicts(r) });
    expect(markdown).toContain('## CPU profiles (validated server, a closed-loop run of each scenario of its own, after the measured rounds)');
    expect(markdown).toContain('400 µs of sampled CPU per request (100 requests). By origin: native 300 µs (75 %), server 100 µs (25 %).');
    expect(markdown).toContain('| 100.0 | 25.0 % | native | `writev` |');
    expect(markdown).toContain('## Open loop: 500 requests/s offered');
  });

  it("show each server by its round of median CPU per request, with every round's beside it", () => {
    const rounds = [run(5000, { cpuUsPerRequest: 210 }), run(7000, { cpuUsPerRequest: 140 }), run(6000, { cpuUsPerRequest: 160 })];
    expect(medianRun(rounds)).toBe(rounds[2]);
    // An even count takes the lower middle; without CPU figures, the median req/s.
    expect(medianRun(rounds.slice(0, 2))).toBe(rounds[1]);
    const blind = rounds.map((r) => ({ ...r, cpuUsPerRequest: undefined }));
    expect(medianRun(blind)).toBe(blind[2]);
    expect(medianRun([])).toBeUndefined();
    const r = results({ options: { ...results().options, rounds: 3 } });
    r.throughput[0] = { ...r.throughput[0]!, result: medianRun(rounds), rounds: rounds.map(roundOf) };
    const markdown = renderMarkdown({ ...r, targets: verdicts(r) });
    expect(markdown).toContain('| GET /lookup/tokens/cost | (a) ours, validated | 6,000 | 2 | 8 | 160 | 210 / 140 / 160 |  |  |');
    expect(markdown).toContain("3 rounds with every server in turn (closed loop: each server shown by its round of median CPU per request; open loop: every round's requests pooled)");
    // The verdict compares the rounds shown: 6,000 req/s over Prism's 1,000.
    expect(verdictOf(r, 'GET /lookup/tokens/cost: validated ≥ 2× Prism')?.measured).toBe('6.00× (by CPU 6.25×)');
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

  it("judge another partner's reads during a large clock advance: p99 ≤ 50 ms, and only when the advance applied every deadline", () => {
    const target = "another partner's reads during a 1,000-deadline clock advance: p99 ≤ 50 ms (sqlite)";
    const isolation = (p99: number, advance: Partial<NonNullable<Results['isolation']>['advance']> = {}): Results['isolation'] => ({
      engine: 'sqlite',
      read: 'GET /orders?pageSize=30 (another partner)',
      deadlines: 1000,
      advance: { status: 200, ms: 1400, bytes: 16_900, applied: 1000, ...advance },
      alone: run(500, { p99: 3 }),
      during: run(500, { p99 }),
    });
    expect(verdictOf(results(), target)?.holds).toBeNull();
    expect(verdictOf(results({ isolation: isolation(12) }), target)).toMatchObject({ holds: true, measured: '12.0 ms over 2,500 reads' });
    expect(verdictOf(results({ isolation: isolation(51) }), target)?.holds).toBe(false);
    const short = verdictOf(results({ isolation: isolation(12, { applied: 400 }) }), target);
    expect(short).toMatchObject({ holds: false, measured: '12.0 ms over 2,500 reads (the advance answered 200, 400 deadlines applied)' });
    const r = results({ isolation: isolation(12) });
    expect(renderMarkdown({ ...r, targets: verdicts(r) })).toContain('| GET /orders?pageSize=30 (another partner), during the advance: reads, p50 / p99 / max ms | 2,500, 2.0 / 12.0 / 12.0 |');
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
