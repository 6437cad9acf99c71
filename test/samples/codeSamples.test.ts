/**
 * Every code sample of the docs runs as written (issue 33): for each language, the samples are
 * read from the bundle (generated/openapi/ramp.yaml, x-codeSamples), given a fresh sandbox's
 * address and ids of a small world built through the API (codeSampleWorld.ts), built once for
 * all operations, run, and each must answer the operation's documented success status, or the
 * documented status the world's table names with its reason (`expectedStatus`). A sample that
 * does not build or run fails its language.
 *
 * What each sample printed is in test-results/samples-code/<language>/results/, the tools'
 * output in test-results/samples-code/<language>.log.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleBaseUrl } from '../../scripts/code-samples.ts';
import { loadBundle, operationsOf, root } from '../support/documents.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { testBudget } from '../support/wait.ts';
import { logs, runners, type Samples } from './codeSampleRunners.ts';
import { buildWorld, expectations, expectedStatus, statusOf } from './codeSampleWorld.ts';

const bundle = loadBundle('ramp');
const operations = operationsOf(bundle).filter(({ webhook }) => !webhook);

/** A sample's source in one language, as the bundle holds it. */
function sourceOf(operation: Record<string, any>, lang: string): string {
  const sample = (operation['x-codeSamples'] ?? []).find((s: { lang: string }) => s.lang === lang);
  if (!sample) throw new Error(`${operation.operationId} has no ${lang} sample`);
  return sample.source;
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the code samples of the docs', () => {
  it('exist in five languages on every operation', () => {
    for (const { operation } of operations) {
      expect(operation['x-codeSamples']?.map((s: { lang: string }) => s.lang), operation.operationId).toEqual(['TypeScript', 'Shell', 'Python', 'Go', 'Java']);
    }
  });

  it('that cannot succeed in a fresh sandbox are listed, with the status they answer, in docs/clients.md', () => {
    const table = readFileSync(join(root, 'docs', 'clients.md'), 'utf8').split('## The code samples of the reference')[1] ?? '';
    for (const [operationId, { status }] of Object.entries(expectations)) {
      expect(table, operationId).toMatch(new RegExp(`^\\| [^\\n]*\`${operationId}\`[^\\n]*\\| ${status.join(' or ')}\\b`, 'm'));
    }
  });

  // Each language builds (first run: a venv, Go's standard library, javac) and runs every operation once.
  it.each(runners)('in $lang run as written against a fresh sandbox', { timeout: testBudget }, async (runner) => {
    const started = Date.now();
    server = await startTestServer();
    const world = await buildWorld(server, bundle);
    const built = Date.now();
    const samples: Samples = operations.map(({ operation, path, method }) => [
      operation.operationId,
      world.substitute(sourceOf(operation, runner.lang), path, method).replaceAll(sampleBaseUrl, server!.url),
    ]);
    const dir = join(logs, runner.lang.toLowerCase());
    const log = join(logs, `${runner.lang.toLowerCase()}.log`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(log, '');
    const results = await runner.run(samples, dir, { RAMP_API_KEY: world.key }, log);
    writeFileSync(log, `\nworld built in ${((built - started) / 1000).toFixed(1)} s; ${samples.length} samples built and run in ${((Date.now() - built) / 1000).toFixed(1)} s\n`, { flag: 'a' });
    const wrong: string[] = [];
    for (const { operation } of operations) {
      const result = results.get(operation.operationId);
      const expected = expectedStatus(operation);
      const status = result && statusOf(result.output);
      // A success exits 0; a documented failure is read by the sample, which then fails.
      const exited = status !== undefined && status < 400 ? 0 : 'non-zero';
      if (!result || status === undefined || !expected.includes(status) || (exited === 0) !== (result.code === 0)) {
        const placeholder = /<[A-Za-z_]+>/.exec(samples.find(([id]) => id === operation.operationId)![1]);
        const hint = placeholder ? ` (it still shows ${placeholder[0]}: give it an object in codeSampleWorld.ts)` : '';
        wrong.push(`${operation.operationId}: expected ${expected.join(' or ')}, got ${status ?? 'no status'} (exit ${result?.code ?? 'none'})${hint}: ${result?.output.slice(0, 300) ?? 'did not run'}`);
      }
    }
    writeFileSync(join(logs, `${runner.lang.toLowerCase()}-results.json`), JSON.stringify(Object.fromEntries(results), null, 1));
    expect(wrong).toEqual([]);
  });
});
