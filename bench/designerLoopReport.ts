/**
 * The designer loop's figures (bench/designerLoop.ts) in the report: their shape in
 * results.json, the target of issue 33 judged on them, and their section of results.md.
 */

/** `npm run docs` on a copy of the contract: a description saved, until the served page shows it. */
export interface DesignerLoopResult {
  /** The file changed, relative to the contract. */
  file: string;
  /** From the start of `npm run docs` to its first answered page. */
  startMs: number;
  /** The median save, and every save. */
  visibleMs: number;
  rounds: number[];
}

const seconds = (ms: number) => (ms / 1000).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Issue 33: a one-file change visible in at most 2 s (anchor: `redocly preview`). */
export function designerLoopTargets(loop: DesignerLoopResult | undefined): { target: string; measured: string; holds: boolean | null }[] {
  return [
    {
      target: 'npm run docs: a saved description visible on the served page ≤ 2 s',
      measured: loop ? `${seconds(loop.visibleMs)} s (median of ${loop.rounds.length} saves, slowest ${seconds(Math.max(...loop.rounds))} s)` : 'not measured',
      holds: loop ? loop.visibleMs <= 2000 : null,
    },
  ];
}

export function designerLoopSection(loop: DesignerLoopResult | undefined, generateSeconds: number | undefined): string[] {
  if (!loop) return [];
  return [
    `## The designer's loop (\`npm run docs\`, a description saved in \`${loop.file}\`)`,
    '',
    `| measure | value |`,
    `|-|-:|`,
    `| save → the served page shows it: median (each save) | ${seconds(loop.visibleMs)} s (${loop.rounds.map(seconds).join(', ')}) |`,
    `| \`npm run docs\` start → first page answered | ${seconds(loop.startMs)} s |`,
    ...(generateSeconds === undefined ? [] : [`| before: \`npm run generate\` after each save, then a manual reload | ${generateSeconds.toLocaleString('en', { maximumFractionDigits: 1, minimumFractionDigits: 1 })} s |`]),
    '',
  ];
}
