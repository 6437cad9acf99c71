/**
 * What npm run test:clients reports: one console row per generator, a closing line CI does not
 * mistake for a test runner's, JUnit for the CI tally, and docs/clients.md's matrix after a full run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, stepNames, type StepName } from './matrix.ts';

export interface StepResult {
  status: 'passed' | 'failed' | 'skipped';
  seconds: number;
  message?: string;
}

export interface Row {
  id: string;
  language: string;
  tool: string;
  version: string;
  ci: boolean;
  /** The document it generated from, in generated/openapi/. */
  document: string;
  option?: string;
  steps: Record<StepName, StepResult>;
}

export const label = (g: { language: string; tool: string; version: string }) => `${g.language} (${g.tool} ${g.version})`;
const mark = { passed: '✓', failed: '✗', skipped: '–' } as const;

export function rowText(row: Row, width: number): string {
  const cells = stepNames.map((name) => {
    const s = row.steps[name];
    return `${name} ${mark[s.status]}${s.status === 'skipped' ? '' : ` ${s.seconds.toFixed(0)}s`}`.padEnd(14);
  });
  const failure = stepNames.map((name) => row.steps[name]).find((s) => s.status === 'failed');
  return `clients  ${label(row).padEnd(width)}  ${cells.join('  ')}${failure ? `  ${failure.message} (test-results/clients/${row.id}.log)` : ''}`.trimEnd();
}

/** The closing line: never "N passed, N failed", which CI would read as a test runner's own. */
export const summaryLine = (green: number, total: number, seconds: number) =>
  `clients: ${green} of ${total} generators green in ${Math.round(seconds)} s (test-results/clients/results.json, junit.xml)`;

const xml = (text: string) => text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

export function junit(rows: Row[], seconds: number): string {
  const cases = rows.flatMap((row) =>
    stepNames.map((name) => {
      const s = row.steps[name];
      const body =
        s.status === 'failed' ? `<failure message="${xml(s.message ?? 'failed')}">see test-results/clients/${row.id}.log</failure>` : s.status === 'skipped' ? '<skipped/>' : '';
      return `    <testcase classname="clients.${row.id}" name="${xml(`${label(row)}: ${name}`)}" time="${s.seconds.toFixed(3)}">${body}</testcase>`;
    }),
  );
  const count = (status: StepResult['status']) => rows.flatMap((r) => stepNames.map((n) => r.steps[n])).filter((s) => s.status === status).length;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="clients" tests="${rows.length * stepNames.length}" failures="${count('failed')}" errors="0" skipped="${count('skipped')}" time="${seconds.toFixed(3)}">
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}

/**
 * A full run (--all) rewrites the matrix in docs/clients.md, between its markers, as the bench
 * does with its verdicts in docs/performance.md: the page always shows the latest full table.
 */
export function writeReadmeTable(rows: Row[], seconds: number) {
  const file = join(root, 'docs', 'clients.md');
  const readme = readFileSync(file, 'utf8');
  const start = '<!-- clients matrix: written by npm run test:clients -- --all -->';
  const end = '<!-- end of clients matrix -->';
  if (!readme.includes(start) || !readme.includes(end)) return;
  const cell = (s: StepResult) => (s.status === 'passed' ? `✅ ${s.seconds.toFixed(0)} s` : s.status === 'failed' ? `❌ ${s.message ?? ''}` : '–');
  const table = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${Math.round(seconds)} s in all, one generator at a time on a shared 2-core machine; \`ci\`: in the default run.`,
    '',
    '| generator | version | language | document | option beyond the defaults | generate | compile | flow | ci |',
    '|-|-|-|-|-|-|-|-|-|',
    ...rows.map((r) => `| ${r.tool} | ${r.version} | ${r.language} | \`${r.document}\` | ${r.option ? `\`${r.option}\`` : 'none'} | ${cell(r.steps.generate)} | ${cell(r.steps.compile)} | ${cell(r.steps.flow)} | ${r.ci ? 'yes' : ''} |`),
  ].join('\n');
  writeFileSync(file, `${readme.slice(0, readme.indexOf(start) + start.length)}\n\n${table}\n\n${readme.slice(readme.indexOf(end))}`);
}
