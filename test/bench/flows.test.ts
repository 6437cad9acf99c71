/**
 * The partner flow suite's figures in the bench (bench/flowsReport.ts) and a run of some
 * sections measured into the last results (bench/partialRun.ts).
 */
import { describe, expect, it } from 'vitest';
import type { FlowsResult } from '../../bench/flowsReport.ts';
import { mergeResults } from '../../bench/partialRun.ts';
import { renderMarkdown, verdicts, withBenchSummary, readmeMarkers, type Results } from '../../bench/report.ts';
import { benchResults } from '../support/benchResults.ts';

const flows = (one: number, parallel: number): FlowsResult => ({
  engine: 'sqlite',
  flows: [{ name: 'v2 onramp, signed webhook verified', ms: 150 }],
  warmupMs: 9000,
  onePartner: { ms: one, rounds: [one, one + 100, one - 100], serverCpuMs: 200, clientCpuMs: 130 },
  parallel: { partners: 8, ms: parallel, rounds: [parallel], slowestSuiteMs: parallel, serverCpuMs: 1200, clientCpuMs: 900 },
  webhooksVerified: 12,
});

const results = benchResults;

const verdictOf = (r: Results, start: string) => verdicts(r).find((v) => v.target.startsWith(start));

describe('the flow suite targets', () => {
  it('hold within 5 s for one partner and 2× for 8, miss past them, and are not measured without the section', () => {
    const quick = results({ flows: flows(1200, 2300) });
    expect(verdictOf(quick, 'partner flow suite, one partner ≤ 5 s')).toMatchObject({ measured: '1.20 s', holds: true });
    expect(verdictOf(quick, 'partner flow suite, 8 isolated partners')).toMatchObject({ measured: '2.30 s, 1.92×', holds: true });
    const slow = results({ flows: flows(5200, 12_000) });
    expect(verdictOf(slow, 'partner flow suite, one partner')?.holds).toBe(false);
    expect(verdictOf(slow, 'partner flow suite, 8 isolated partners')?.holds).toBe(false);
    expect(verdictOf(results(), 'partner flow suite, one partner')?.holds).toBeNull();
    expect(verdictOf(results(), 'partner flow suite, 8 isolated partners')?.measured).toBe('not measured');
  });

  it('render their section with every round, the CPU on both sides and each flow', () => {
    const markdown = renderMarkdown(results({ flows: flows(1200, 2300) }));
    expect(markdown).toContain('| one partner: wall time (each round) | 1.20 s (1.20, 1.30, 1.10) |');
    expect(markdown).toContain("| the server's CPU time: one partner, 8 at once | 0.20 s, 1.20 s |");
    expect(markdown).toContain("| the server's CPU time for 8 ÷ one partner's wall time: about the least the ratio can be with one server process | 1.00× |");
    expect(markdown).toContain('| v2 onramp, signed webhook verified | 150 |');
  });
});

describe('a run of some sections', () => {
  it('replaces their figures in the last results, keeps the others, and says when each was measured', () => {
    const full = results({
      webhooks: { latency: { events: 1, delivered: 1, p50: 1, p99: 2, max: 3 }, drain: { backlog: 1, delivered: 1, seconds: 1, perSecond: 2500 }, attempts: 1, badSignatures: 0 },
      footprint: { coldStartMs: 700, idleRssMb: 120, generateSeconds: 30, generateUpToDate: true },
      flows: flows(3000, 9000),
      notes: ['from the full run'],
    });
    const subset = results({ startedAt: '2026-02-01T10:00:00.000Z', machine: { ...full.machine, loadBefore: 3, loadAfter: 4 }, flows: flows(1200, 2300), notes: ['from the subset'] });
    const merged = mergeResults(full, subset, new Set(['flows']));
    expect(merged.flows).toEqual(subset.flows);
    expect(merged.webhooks).toEqual(full.webhooks);
    expect(merged.footprint).toEqual(full.footprint);
    expect(merged.startedAt).toBe(full.startedAt);
    expect(merged.notes).toEqual(['from the full run', 'from the subset']);
    expect(merged.later).toEqual([{ sections: ['flows'], startedAt: subset.startedAt, loadBefore: 3, loadAfter: 4 }]);
    // Measured once more, the section's earlier run is no longer named.
    const again = mergeResults(merged, results({ startedAt: '2026-02-02T10:00:00.000Z', flows: flows(1100, 2200) }), new Set(['flows', 'webhooks']));
    expect(again.later?.map((l) => [l.startedAt, l.sections])).toEqual([['2026-02-02T10:00:00.000Z', ['flows', 'webhooks']]]);
    // The cold start measured again keeps the generate time, and the other way round.
    const starts = mergeResults(full, results({ footprint: { coldStartMs: 650, idleRssMb: 118 } }), new Set(['footprint']));
    expect(starts.footprint).toEqual({ coldStartMs: 650, idleRssMb: 118, generateSeconds: 30, generateUpToDate: true });
    const page = withBenchSummary(`${readmeMarkers.start}\n${readmeMarkers.end}\n`, { ...merged, targets: verdicts(merged) });
    expect(page).toContain('Measured again 2026-02-01 10:00 UTC (load 3.00 before, 4.00 after): flows.');
    expect(page).toContain('[bench/results.md](../bench/results.md)');
    expect(page).toContain('| partner flow suite, one partner ≤ 5 s | 1.20 s | ✅ holds |');
  });
});
