/**
 * The quickstart (generated/docs/quickstart.html, scripts/docs-quickstart.ts) runs as written
 * (issue 33): each step's snippet in each language is read from the page, checked to be its
 * operation's sample with the step's values, and the steps run in order against a fresh
 * sandbox, each language built once (codeSampleRunners.ts) and each step run as its own
 * program with the ids the steps before printed in its environment, as a partner following
 * the page sets them. Each step must answer its documented status, and the order's
 * `orderUpdated` must reach a real receiver, signed with the secret the subscription step printed.
 *
 * What each step printed is in test-results/samples-code/quickstart/<language>/, the tools'
 * output in test-results/samples-code/quickstart/<language>.log.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyWebhook, type Schema } from '../../client/index.ts';
import { sampleBaseUrl } from '../../scripts/code-samples.ts';
import { operationLink, quickstartSteps, stepSamples } from '../../scripts/docs-quickstart.ts';
import { loadBundle, root } from '../support/documents.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { eventually, testBudget } from '../support/wait.ts';
import { startReceiver, type Receiver } from '../support/webhooks.ts';
import { logs, runners, type SampleRun, type Samples } from './codeSampleRunners.ts';
import { statusOf } from './codeSampleWorld.ts';

const page = readFileSync(join(root, 'generated', 'docs', 'quickstart.html'), 'utf8');
const documents = { v1: loadBundle('v1'), v2: loadBundle('v2') };

/** The page's text as written before escaping (scripts/docs-html.ts escapes with numeric references only). */
const unescape = (html: string) => html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** Every snippet the page shows: step id → language → source. */
function snippetsOf(html: string): Map<string, Map<string, string>> {
  const snippets = new Map<string, Map<string, string>>();
  for (const m of html.matchAll(/<div class="sample" data-step="([^"]+)" data-lang="([^"]+)">[\s\S]*?<pre[^>]*><code>([\s\S]*?)<\/code><\/pre>/g)) {
    if (!snippets.has(m[1]!)) snippets.set(m[1]!, new Map());
    snippets.get(m[1]!)!.set(m[2]!, unescape(m[3]!));
  }
  return snippets;
}
const snippets = snippetsOf(page);

/**
 * A top-level field of the answer a sample printed, as a partner reads it: JSON (curl, Java),
 * a Python dict, Go's `map[…]` or Node's inspection. The match least nested wins, so an `id`
 * of an object inside the answer is never taken for the answer's own.
 */
function printedField(output: string, field: string): string | undefined {
  const pattern = new RegExp(`["']?\\b${field}["']?\\s*[:=]\\s*["']?([^"'\\s,}\\]]+)`, 'g');
  let best: { depth: number; value: string } | undefined;
  for (const match of output.matchAll(pattern)) {
    const before = output.slice(0, match.index);
    const depth = (before.match(/[{[]/g) ?? []).length - (before.match(/[}\]]/g) ?? []).length;
    if (depth >= 1 && (!best || depth < best.depth)) best = { depth, value: match[1]! };
  }
  return best?.value;
}

let server: TestServer | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await server?.close();
  await receiver?.close();
  server = undefined;
  receiver = undefined;
});

describe('the quickstart page', () => {
  it("shows each step's request in the five languages: its operation's own samples, with the step's values", () => {
    expect([...snippets.keys()]).toEqual(quickstartSteps.map((step) => step.id));
    for (const step of quickstartSteps) {
      const shown = snippets.get(step.id)!;
      const samples = stepSamples(documents, step);
      expect([...shown.keys()], step.id).toEqual(['TypeScript', 'Shell', 'Python', 'Go', 'Java']);
      for (const { lang, source } of samples) expect(shown.get(lang), `${step.id} in ${lang}`).toBe(source);
      expect(page, step.id).toContain(`href="${operationLink(documents, step)}"`);
      // Every id a step reads was kept by a step before it.
      const kept = new Set(['RAMP_API_KEY', 'WEBHOOK_URL', ...quickstartSteps.slice(0, quickstartSteps.indexOf(step)).flatMap((s) => Object.keys(s.keep ?? {}))]);
      for (const [, name] of samples.flatMap((s) => [...s.source.matchAll(/\b(?:process\.env\.|os\.environ\["|os\.Getenv\("|System\.getenv\("|\$)\{?([A-Z][A-Z0-9_]+)/g)])) {
        expect(kept, `${step.id} reads ${name}`).toContain(name);
      }
    }
  });

  // Each language builds once (a venv, Go's standard library, javac), then runs the steps one by one.
  it.each(runners)('runs in $lang, step after step, against a fresh sandbox, to a signed webhook', { timeout: testBudget }, async (runner) => {
    const started = Date.now();
    server = await startTestServer();
    receiver = await startReceiver();
    const samples: Samples = quickstartSteps.map((step) => [step.operationId, snippets.get(step.id)!.get(runner.lang)!.replaceAll(sampleBaseUrl, server!.url)]);
    const base = join(logs, 'quickstart');
    const dir = join(base, runner.lang.toLowerCase());
    const log = join(base, `${runner.lang.toLowerCase()}.log`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(log, '');
    const runOne = await runner.build(samples, dir, log);
    const built = Date.now();
    const env: Record<string, string> = { RAMP_API_KEY: server.key, WEBHOOK_URL: `${receiver.url}/quickstart` };
    for (const step of quickstartSteps) {
      const until = step.until;
      const run = async () => {
        const result = await runOne(step.operationId, env);
        writeFileSync(join(dir, `${step.id}.out`), result.output);
        return result;
      };
      // A step the page says to repeat runs again until its answer shows the awaited value.
      const result: SampleRun = until ? await eventually(async () => { const r = await run(); return printedField(r.output, until.field) === until.value && r; }, undefined, `${step.id}: ${until.field} ${until.value}`) : await run();
      expect(statusOf(result.output), `${step.id}: ${result.output.slice(0, 600)}`).toBe(step.status);
      expect(result.code, `${step.id}: ${result.output.slice(0, 600)}`).toBe(0);
      for (const [name, field] of Object.entries(step.keep ?? {})) {
        const value = printedField(result.output, field);
        expect(value, `${step.id} printed no ${field}: ${result.output.slice(0, 600)}`).toBeDefined();
        env[name] = value!;
      }
    }
    // The order's updates reached the receiver, each verified with the secret the subscription step printed.
    const completed = await eventually(async () => {
      for (const delivery of receiver!.to('/quickstart')) {
        const event = (await verifyWebhook({ body: delivery.raw, signature: delivery.headers['x-signature'], secret: env.WEBHOOK_SECRET! })) as Schema<'OrderUpdatedEvent'>;
        if (event.order.id === env.ORDER_ID && event.order.status === 'completed') return event;
      }
      return undefined;
    }, undefined, 'the completed order at the receiver');
    expect(completed.event).toBe('orderUpdated');
    writeFileSync(log, `\n${samples.length} steps built in ${((built - started) / 1000).toFixed(1)} s (with the sandbox's start), run in ${((Date.now() - built) / 1000).toFixed(1)} s\n`, { flag: 'a' });
  });
});
