/**
 * The webhook verification recipes of samples/webhooks/ in Python, Go and Java (TypeScript's is
 * client/webhooks.ts, tested in test/features/webhooks/verify.test.ts), each built once and run as a
 * partner would run it:
 *
 *   vectors   its own program checks its RFC 8785 library and its verify function against the
 *             shared vectors (test/vectors/jcs) and the refusals every recipe owes;
 *   delivery  its receiver, subscribed to a sandbox, verifies a real delivery (the sandbox
 *             records the 204), and refuses a tampered body and a foreign signature with 401.
 *
 * Tools' output is in test-results/samples-webhooks/<language>-*.log (recipes.ts says why).
 */
import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { eventually } from '../support/wait.ts';
import { deliveriesOf, exampleOf, extraVectors, referenceJcs, subscribe, vectors } from '../support/webhooks.ts';
import { logs, recipes, run, startReceiver, type RunningReceiver } from './recipes.ts';
import { freePort } from '../support/ports.ts';
import { loadBundle, operationsOf, root } from '../support/documents.ts';

const signatures = JSON.parse(readFileSync(join(vectors, 'hmac-signature-vectors.json'), 'utf8')) as { secret_b64url: string; vectors: { canonical_utf8: string }[] };
const zeros = `sha256=${'0'.repeat(64)}`;

/** What every recipe must refuse, beside the vectors: one list for all languages (cases.json). */
const cases = {
  // The extra RFC 8785 cases a JSON body can carry (NaN and Infinity cannot), as JSON text.
  extra: extraVectors()
    .filter((c) => finite(c.input))
    .map((c) => ({ name: c.name, json: JSON.stringify(c.input), expect: c.expect })),
  badSecrets: [
    signatures.secret_b64url,
    `${signatures.secret_b64url}==`,
    `${signatures.secret_b64url.slice(0, 42)}+=`,
    `${signatures.secret_b64url.slice(0, 42)}9=`,
    `${Buffer.alloc(16).toString('base64url')}==`,
    '',
    `${signatures.secret_b64url}=\n`,
  ],
  badHeaders: [[], [''], ['0'.repeat(64)], [`sha1=${'0'.repeat(40)}`], [`sha256=${'A'.repeat(64)}`], [`sha256=${'0'.repeat(63)}`], [`sha256=${'0'.repeat(65)}`], [` ${zeros}`], [zeros, zeros]],
};

function finite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (value !== null && typeof value === 'object') return Object.values(value).every(finite);
  return true;
}

/** The fewest checks a vectors program makes when it skips none (each may add its own). */
const lineCount = (file: string) => readFileSync(join(vectors, 'numbers', file), 'utf8').split('\n').filter((l) => l.trim()).length;
const fewestChecks =
  readdirSync(join(vectors, 'input')).length +
  readdirSync(join(vectors, 'numbers')).map(lineCount).reduce((a, b) => a + b, 0) +
  cases.extra.length +
  1 +
  3 * signatures.vectors.length +
  signatures.vectors.filter((v) => v.canonical_utf8.startsWith('{')).length +
  cases.badSecrets.length +
  cases.badHeaders.length +
  2;

const casesFile = join(logs, 'cases.json');
let server: TestServer;

beforeAll(async () => {
  mkdirSync(logs, { recursive: true });
  writeFileSync(casesFile, JSON.stringify(cases, null, 2));
  server = await startTestServer();
});
afterAll(() => server?.close());

/** A body signed as the sandbox signs (HMAC-SHA256 over the reference JCS), apart from any recipe. */
const sign = (body: unknown, secret: string) => `sha256=${createHmac('sha256', Buffer.from(secret, 'base64url')).update(referenceJcs(body), 'utf8').digest('hex')}`;

const post = (url: string, body: unknown, signature: string) =>
  fetch(`${url}/webhooks`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Signature': signature }, body: JSON.stringify(body) });

describe.each(recipes)('the $language recipe', (recipe) => {
  let programs: Awaited<ReturnType<typeof recipe.build>>;
  const log = (step: string) => join(logs, `${recipe.language}-${step}.log`);

  beforeAll(async () => {
    for (const step of ['build', 'vectors', 'receiver']) writeFileSync(log(step), '');
    programs = await recipe.build(log('build'));
  });

  it('passes the shared RFC 8785 and signature vectors', async () => {
    const [program, ...args] = programs.vectors as [string, ...string[]];
    await run(program, [...args, vectors, casesFile], log('vectors'));
    const output = readFileSync(log('vectors'), 'utf8');
    const [, checks, wrong] = /vectors: (\d+) checks, (\d+) wrong$/m.exec(output) ?? [];
    expect({ wrong: Number(wrong), enough: Number(checks) >= fewestChecks }).toEqual({ wrong: 0, enough: true });
  });

  it('verifies a live delivery from the sandbox, and refuses a tampered or foreign one', async () => {
    const port = await freePort();
    const subscription = await subscribe(server, `http://127.0.0.1:${port}/webhooks`, 'kycUpdated');
    let receiver: RunningReceiver | undefined;
    try {
      receiver = await startReceiver(programs.receiver, port, subscription.secret, log('receiver'));
      // A customer approved through the sandbox's KYC simulator: a kycUpdated event.
      await createCustomer(server, { approved: true });
      const [delivery] = await eventually(async () => {
        const found = await deliveriesOf(server, subscription.id);
        return found.length > 0 && found.every((d) => d.status !== 'pending') ? found : undefined;
      }, undefined, 'the delivery to settle');
      expect(delivery).toMatchObject({ status: 'delivered', attempts: [{ number: 1, statusCode: 204 }] });
      await receiver.line(new RegExp(`^verified kycUpdated ${delivery!.eventId}$`), 'the delivery verified');

      const event = { ...exampleOf('kycUpdated'), eventId: crypto.randomUUID() };
      const signature = sign(event, subscription.secret);
      expect((await post(receiver.url, event, signature)).status).toBe(204);
      await receiver.line(new RegExp(`^verified kycUpdated ${event.eventId}$`), 'a body the test signed verified');

      const tampered = { ...event, eventId: crypto.randomUUID() };
      expect((await post(receiver.url, tampered, signature)).status).toBe(401);
      const foreign = sign(event, Buffer.alloc(32, 7).toString('base64url'));
      expect((await post(receiver.url, event, foreign)).status).toBe(401);
      await eventually(() => receiver!.lines.filter((l) => l === 'refused signature-mismatch').length === 2, undefined, 'two refusals');
      expect(receiver.lines.filter((l) => l.startsWith('verified'))).toHaveLength(2);
    } finally {
      await receiver?.stop();
    }
  });
});

describe('the reference pages', () => {
  it('show each webhook with the verify function of every recipe, as the repository has it', () => {
    const files = { TypeScript: 'client/webhooks.ts', Python: 'samples/webhooks/python/verify_webhook.py', Go: 'samples/webhooks/go/webhook.go', Java: 'samples/webhooks/java/src/main/java/com/example/ramp/WebhookVerifier.java' };
    for (const surface of ['v1', 'v2', 'ramp'] as const) {
      const webhooks = operationsOf(loadBundle(surface)).filter(({ webhook }) => webhook);
      expect(webhooks.length, surface).toBeGreaterThan(0);
      for (const { webhook, operation } of webhooks) {
        const samples = operation['x-codeSamples'] as { lang: keyof typeof files; source: string }[];
        expect(samples.map((s) => s.lang), `${surface} ${webhook}`).toEqual(Object.keys(files));
        for (const { lang, source } of samples) expect(source, `${webhook} ${lang}`).toBe(readFileSync(join(root, files[lang]), 'utf8'));
      }
    }
  });
});
