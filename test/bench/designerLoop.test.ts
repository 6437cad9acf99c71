/**
 * The designer loop's figures in the bench (bench/designerLoopReport.ts): its target, its
 * section of results.md, and a run of that section alone measured into the last results.
 */
import { describe, expect, it } from 'vitest';
import type { DesignerLoopResult } from '../../bench/designerLoopReport.ts';
import { mergeResults } from '../../bench/partialRun.ts';
import { renderMarkdown, verdicts, type Results } from '../../bench/report.ts';
import { benchResults } from '../support/benchResults.ts';

const loop = (rounds: number[]): DesignerLoopResult => ({ file: 'openapi/paths/v2/health.yaml', startMs: 6000, visibleMs: [...rounds].sort((a, b) => a - b)[Math.floor(rounds.length / 2)]!, rounds });

const results = benchResults;

const verdictOf = (r: Results) => verdicts(r).find((v) => v.target.startsWith('npm run docs: a saved description visible'));

describe('the designer loop target', () => {
  it('holds at 2 s or less (the median save), misses past it, and is not measured without the section', () => {
    expect(verdictOf(results({ designerLoop: loop([900, 550, 1350]) }))).toMatchObject({ measured: '0.90 s (median of 3 saves, slowest 1.35 s)', holds: true });
    expect(verdictOf(results({ designerLoop: loop([2100, 2500, 1900]) }))?.holds).toBe(false);
    expect(verdictOf(results())).toMatchObject({ measured: 'not measured', holds: null });
  });

  it('has its section, beside what a save cost before (npm run generate)', () => {
    const markdown = renderMarkdown(results({ designerLoop: loop([900, 550, 1350]), footprint: { generateSeconds: 24.2 } }));
    expect(markdown).toContain('| save → the served page shows it: median (each save) | 0.90 s (0.90, 0.55, 1.35) |');
    expect(markdown).toContain('| before: `npm run generate` after each save, then a manual reload | 24.2 s |');
  });

  it('is measured alone into the last results (BENCH_ONLY=designer)', () => {
    const merged = mergeResults(results({ footprint: { generateSeconds: 24.2 } }), results({ designerLoop: loop([800]) }), new Set(['designer']));
    expect(merged.designerLoop?.visibleMs).toBe(800);
    expect(merged.footprint?.generateSeconds).toBe(24.2);
  });
});
