/**
 * npm run test:prism [-- vitest arguments]: the server's API suites (test/server, and the
 * client's tests against the server, by default) with Prism's validating proxy between every
 * test and its server, then the verdict.
 *
 * Fails when a test fails, when Prism reports a violation that matters, when Prism could
 * not relay a server's answer, or when an operation of the contract was never exercised
 * through the proxy. A violation matters when it is about a response (the server answered
 * outside the documents), or about a request the server accepted (status below 400: the
 * server took what the documents forbid). A request Prism finds invalid that the server
 * refused with a 4xx is a test of bad input doing its job; those are counted, not failed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { root } from '../support/documents.ts';
import { testBudget } from '../support/wait.ts';
import { contractOperations, startPrism, startUpstreamRouter, type TapRecord, type Violation } from './prism.ts';

export interface Verdict {
  lines: string[];
  failed: boolean;
  /** "operationId status" of every documented response no test saw. */
  unexercised: string[];
}

const isError = (v: Violation) => v.severity === 'Error';
const where = (v: Violation) => v.location[0];

/** The report of a run from its records (pure, so it is tested on its own). */
export function judge(records: TapRecord[]): Verdict {
  const lines: string[] = [];
  const operations = contractOperations();
  const proxied = records.filter((r) => r.proxied && r.operationId);
  const exercised = new Set(proxied.map((r) => r.operationId!));
  const documented = new Set(operations.flatMap((o) => o.statuses.map((s) => `${o.operationId} ${s}`)));
  const seen = new Set(proxied.map((r) => `${r.operationId} ${r.status}`));
  const responsesExercised = [...seen].filter((k) => documented.has(k));

  const failures: string[] = [];
  const rejected: TapRecord[] = [];
  for (const r of records) {
    const label = `${r.method} ${r.path} → ${r.status}${r.operationId ? ` (${r.operationId})` : ''}${r.test ? `\n      in ${r.test}` : ''}`;
    const errors = r.violations.filter(isError);
    const responseErrors = errors.filter((v) => where(v) === 'response');
    const requestErrors = errors.filter((v) => where(v) === 'request');
    for (const v of responseErrors) failures.push(`response violation: ${label}\n      ${v.location.join('.')}: ${v.message}`);
    if (requestErrors.length && r.status < 400) {
      for (const v of requestErrors) failures.push(`request violation the server accepted: ${label}\n      ${v.location.join('.')}: ${v.message}`);
    } else if (requestErrors.length) rejected.push(r);
    if (r.note?.startsWith('Prism did not relay') || r.note?.startsWith('tap:')) failures.push(`${r.note}: ${label}`);
  }

  const notProxied = records.filter((r) => !r.proxied);
  const byNote = new Map<string, number>();
  for (const r of notProxied) {
    const key = r.note?.replace(/: .*/s, '') ?? 'not proxied';
    byNote.set(key, (byNote.get(key) ?? 0) + 1);
  }
  const missing = operations.filter((o) => !exercised.has(o.operationId));

  lines.push(`Prism proxy: ${records.length} requests, ${proxied.length} proxied and judged by Prism`);
  lines.push(`  operations exercised: ${exercised.size} of ${operations.length}`);
  lines.push(`  responses exercised (operation × documented status): ${responsesExercised.length} of ${documented.size}`);
  // Where the tests could go next: the documented answers no test has seen, by status.
  const unexercised = new Map<string, number>();
  for (const key of documented) if (!seen.has(key)) unexercised.set(key.split(' ')[1]!, (unexercised.get(key.split(' ')[1]!) ?? 0) + 1);
  lines.push(`  documented responses never exercised, by status: ${[...unexercised].sort().map(([status, n]) => `${status} ×${n}`).join(', ') || 'none'}`);
  lines.push(`  invalid requests the server refused (tests of bad input): ${rejected.length}`);
  for (const [note, count] of byNote) lines.push(`  not proxied, ${note}: ${count}`);
  const unrouted = records.filter((r) => !r.operationId).length;
  if (unrouted) lines.push(`  requests matching no operation (passed through): ${unrouted}`);
  if (missing.length) {
    lines.push(`operations never exercised through the proxy (${missing.length}):`);
    for (const o of missing) lines.push(`  ${o.operationId.padEnd(32)} ${o.method} ${o.path}`);
  }
  if (failures.length) {
    lines.push(`violations (${failures.length}):`);
    for (const f of failures) lines.push(`  ${f}`);
  }
  return { lines, failed: failures.length > 0 || missing.length > 0, unexercised: [...documented].filter((key) => !seen.has(key)).sort() };
}

async function main() {
  const vitestArgs = process.argv.slice(2);
  const report = mkdtempSync(join(tmpdir(), 'ramp-prism-report-'));
  const router = await startUpstreamRouter();
  const prism = await startPrism('proxy', { upstream: router.url });
  let status = 1;
  try {
    // Asynchronously: the router lives in this process and must keep answering.
    // Every request takes two more hops and Prism's validation: twice the budget per test and hook.
    const args = ['run', `--testTimeout=${2 * testBudget}`, `--hookTimeout=${2 * testBudget}`, ...(vitestArgs.length ? vitestArgs : ['test/server', 'test/client/server.test.ts'])];
    const vitest = spawn(join(root, 'node_modules', '.bin', 'vitest'), args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, RAMP_TEST_PRISM: '1', RAMP_TEST_PRISM_URL: prism.url, RAMP_TEST_PRISM_ROUTER: router.url, RAMP_TEST_PRISM_REPORT: report },
    });
    const run = { status: await new Promise<number | null>((resolve) => vitest.once('exit', resolve)) };
    const records = readdirSync(report)
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) => readFileSync(join(report, f), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as TapRecord));
    const verdict = judge(records);
    console.log(`\n${verdict.lines.join('\n')}`);
    const list = join(root, 'test-results', 'prism', 'unexercised.txt');
    mkdirSync(dirname(list), { recursive: true });
    writeFileSync(list, `${verdict.unexercised.join('\n')}\n`);
    console.log(`  the list: ${relative(root, list)}`);
    if (run.status !== 0) console.log('the test run itself failed');
    status = run.status === 0 && !verdict.failed ? 0 : 1;
    console.log(status === 0 ? 'test:prism passed' : 'test:prism FAILED');
  } finally {
    await prism.close();
    await router.close();
    if (status === 0) rmSync(report, { recursive: true, force: true });
    else console.log(`records kept in ${report} (one JSON line per request)`);
  }
  process.exit(status);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) await main();
