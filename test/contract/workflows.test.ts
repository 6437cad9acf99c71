/**
 * The service's flows as Arazzo workflows (openapi/workflows/*.arazzo.yaml), run by
 * `redocly respect` against a fresh sandbox: every workflow of every file must pass, each
 * step checked by its success criteria (its status and a field of its answer) and by
 * respect's own checks of the answer against the contract (status listed, content type,
 * schema).
 *
 * Respect prints its report and closing summary; CI reads its own console for other
 * runners' closing lines (.ci/run), so respect's output goes to a file under test-results/
 * and only this file's assertions reach the console.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { root } from '../support/documents.ts';
import { customerClabe } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { newClabe } from '../support/v1Money.ts';
import { waitBudget } from '../support/wait.ts';

const folder = join('openapi', 'workflows');
const files = readdirSync(join(root, folder)).filter((f) => f.endsWith('.arazzo.yaml')).sort().map((f) => join(folder, f));
const results = join(root, 'test-results', 'workflows');

interface Criterion { condition: string; context?: string; type?: string }
interface Step { stepId: string; operationId?: string; workflowId?: string; successCriteria?: Criterion[] }
interface Workflow { workflowId: string; steps: Step[] }
const workflowsOf = (file: string): Workflow[] => (parse(readFileSync(join(root, file), 'utf8'), { merge: true }) as { workflows: Workflow[] }).workflows;

describe('the workflow files', () => {
  it('are found, one per surface or theme', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  it.each(files)('%s checks the status and a field of the answer of every operation step', (file) => {
    const unchecked: string[] = [];
    for (const workflow of workflowsOf(file)) {
      for (const step of workflow.steps) {
        if (step.workflowId) continue;
        const criteria = step.successCriteria ?? [];
        const status = criteria.find((c) => /^\$statusCode == \d{3}$/.test(c.condition));
        const body = criteria.some((c) => (c.context ?? c.condition).startsWith('$response.body'));
        // A 204 has no answer to read.
        if (!status || (!body && status.condition !== '$statusCode == 204')) unchecked.push(`${workflow.workflowId}.${step.stepId}`);
      }
    }
    expect(unchecked).toEqual([]);
  });
});

interface Check { name: string; passed: boolean; message: string; condition?: string }
interface ExecutedStep { stepId: string; type: string; checks?: Check[]; executedSteps?: ExecutedStep[]; response?: { statusCode: number; body: unknown } }
interface ExecutedWorkflow { workflowId: string; status: string; executedSteps: ExecutedStep[] }
interface RespectReport { status: string; files: Record<string, { executedWorkflows: ExecutedWorkflow[] }> }

/** Every failed check of a workflow's steps (a child workflow's too), with the answer it saw. */
function failures(steps: ExecutedStep[]): string[] {
  return steps.flatMap((step) => [
    ...(step.checks ?? []).filter((c) => !c.passed).map((c) => `${step.stepId}: ${c.name} ${c.condition ?? ''} (${step.response?.statusCode} ${JSON.stringify(step.response?.body)?.slice(0, 300)})`),
    ...failures(step.executedSteps ?? []),
  ]);
}

/** Runs `redocly respect` on every file at once, its console output to `log`; resolves to its exit code. */
function respect(args: string[], log: string): Promise<number | null> {
  const out = openSync(log, 'w');
  const child = spawn(process.execPath, [join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'), 'respect', ...args], {
    cwd: root,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', out, out],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      closeSync(out);
      resolve(code);
    });
  });
}

describe('redocly respect against a fresh sandbox', () => {
  let server: TestServer;
  let report: RespectReport;
  let exitCode: number | null;

  beforeAll(async () => {
    server = await startTestServer();
    mkdirSync(results, { recursive: true });
    const json = join(results, 'respect.json');
    // A CLABE is registered once in the whole sandbox: each run brings new ones.
    const inputs = { apiKey: server.key, organizationId: server.partnerId, bankAccountClabe: newClabe(), paymentAccountClabe: customerClabe() };
    exitCode = await respect([
      ...files,
      '--server', `v1=${server.url},v2=${server.url}`,
      '--input', Object.entries(inputs).map(([name, value]) => `${name}=${value}`).join(','),
      '--json-output', json,
      '--execution-timeout', String(2 * waitBudget),
    ], join(results, 'respect.log'));
    report = JSON.parse(readFileSync(json, 'utf8')) as RespectReport;
  }, 3 * waitBudget);
  afterAll(() => server?.close());

  it('exits with 0', () => {
    expect(exitCode, 'see test-results/workflows/respect.log').toBe(0);
  });

  it.each(files)('passes every workflow of %s', (file) => {
    const executed = report.files[file]?.executedWorkflows ?? [];
    expect(executed.map((w) => w.workflowId).sort()).toEqual(workflowsOf(file).map((w) => w.workflowId).sort());
    for (const workflow of executed) {
      expect(failures(workflow.executedSteps), workflow.workflowId).toEqual([]);
      expect(workflow.status, workflow.workflowId).toBe('success');
    }
  });
});
