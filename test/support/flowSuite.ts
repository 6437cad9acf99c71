/**
 * The partner flow suite (issue 35, item 6): every flow of the service, run as a partner's
 * integration tests run it, through the typed client (`@ramp/client`) with nothing but a base
 * URL and a sandbox key. KYC and KYB decisions, a payment account becoming ready, v2 onramp,
 * offramp and swap, v1 onramp, offramp and swap, each to its final status, a signed webhook
 * received on a local receiver and verified with the client's `verifyWebhook`, a one-hour
 * funding deadline and a quote's expiry.
 *
 * The partner's sandbox clock is frozen for the whole run, so nothing happens by itself: every
 * timer falls due only when the suite advances the clock (`to` the instant it expects, or the
 * clock's `nextDueAt`), and each run takes the same steps whatever the machine's speed. Only
 * webhook delivery follows real time; its one wait uses the budget of test/support/wait.ts.
 *
 * Each step checks what a partner's test would: the status an answer gives, the counts of an
 * advance, and the object's timeline in the event feed (`GET /sandbox/events?subjectId=`).
 * A failed check throws (node:assert), so the same module serves a vitest test
 * (test/server/flowSuite.test.ts) and the bench (bench/flows.ts). Everything the suite makes
 * belongs to the key's partner; the webhook subscription is deleted and the clock let run
 * again (when it was running) at the end, unless the caller asks to keep them.
 *
 * The answer names what the run made (the ids the flows got back, its subscription, the
 * instants its clock stood at), so the isolation proof of test/features/sandboxPartners runs
 * this suite for eight partners at once and checks that none sees another's.
 */
import assert from 'node:assert/strict';
import { createRampClient, RampError, verifyWebhook } from '../../client/index.ts';
import { startReceiver, type Receiver } from './webhooks.ts';
import { expectStatus } from './api.ts';
import { flows, type FlowContext, type Made } from './flows.ts';

export interface FlowSuiteOptions {
  /** The sandbox's address, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** A sandbox key (`api_sand:{key_id}:{org_id}`): its partner runs the flows. */
  apiKey: string;
  /** Headers added to every request, e.g. `Connection: close` behind a proxy that closes idle connections. */
  headers?: Record<string, string>;
  /** Where the webhooks go, a receiver the caller runs and closes; by default one of the suite's own, for the run. */
  receiver?: Receiver;
  /**
   * `false` leaves the webhook subscription (with its deliveries) and the frozen clock as the
   * run ends, for a test that reads them afterwards; by default both are undone.
   */
  cleanup?: boolean;
}

export interface FlowSuiteResult {
  partnerId: string;
  /** Wall time of each flow, in the order run. */
  flows: { name: string; ms: number }[];
  /** Wall time of the whole suite, setup and cleanup included. */
  ms: number;
  /** Signed deliveries the receiver got and verified. */
  webhooksVerified: number;
  /** Each request the client retried (the contract's rules: 429, 503 and the like), and why. */
  retries: string[];
  /** Every object the flows made, by kind, and each instant they advanced the clock to. */
  made: Made;
  /** The run's `orderUpdated` subscription, and the receiver's path its deliveries went to. */
  webhook: { subscriptionId: string; path: string };
  /** The instant the suite froze the partner's clock at, before the first flow. */
  frozenAt: string;
}

export async function runFlowSuite(options: FlowSuiteOptions): Promise<FlowSuiteResult> {
  const started = performance.now();
  const retries: string[] = [];
  // The contract's retry rules, as a partner's client has them; each retry is counted, since it says the sandbox refused for a while.
  const api = createRampClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, ...(options.headers ? { headers: options.headers } : {}), retry: { onRetry: (e) => retries.push(`${e.request.method} ${new URL(e.request.url).pathname}: ${e.reason}`) } });
  // The key's own organization is its last part (api_{env}:{key_id}:{org_id}).
  const partnerId = options.apiKey.split(':')[2]!;
  const receiver = options.receiver ?? (await startReceiver());
  const undo = options.cleanup ?? true;
  const cleanup: (() => Promise<unknown>)[] = options.receiver ? [] : [() => receiver.close()];
  try {
    const path = `/ramp-webhooks/${partnerId}`;
    const subscription = expectStatus(await api.POST('/webhook_subscription', { body: { url: receiver.url + path, eventType: 'orderUpdated' } }), 201);
    if (undo) cleanup.unshift(() => api.DELETE('/webhook_subscription/{id}', { params: { path: { id: subscription.id } } }));
    const before = expectStatus(await api.GET('/sandbox/clock'), 200);
    if (undo && !before.frozen) cleanup.unshift(() => api.PUT('/sandbox/clock', { body: { frozen: false } }));
    const frozen = expectStatus(await api.PUT('/sandbox/clock', { body: { frozen: true } }), 200);
    assert.equal(frozen.frozen, true);
    const made: Made = { customers: [], quotes: [], orders: [], paymentAccounts: [], v1Orders: [], v1Swaps: [], events: [], clockMoves: [] };
    const context: FlowContext = { api, partnerId, receiver, webhook: { path, secret: subscription.secret }, world: {}, made };
    const timings: FlowSuiteResult['flows'] = [];
    for (const [name, flow] of Object.entries(flows)) {
      const flowStarted = performance.now();
      try {
        await flow(context);
      } catch (error) {
        throw new Error(`flow "${name}" of partner ${partnerId} failed: ${reason(error)}`, { cause: error });
      }
      timings.push({ name, ms: performance.now() - flowStarted });
    }
    const webhooksVerified = await verifiedDeliveries(context);
    return { partnerId, flows: timings, ms: performance.now() - started, webhooksVerified, retries, made, webhook: { subscriptionId: subscription.id, path }, frozenAt: frozen.now };
  } finally {
    for (const step of cleanup) await step();
  }
}

const reason = (error: unknown) => (error instanceof RampError ? `${error.status} ${JSON.stringify(error.body)}` : error instanceof Error ? error.message : String(error));

/** Every delivery the receiver got, each checked as a partner's receiver checks it: a bad signature throws. */
async function verifiedDeliveries(context: FlowContext): Promise<number> {
  const received = context.receiver.to(context.webhook.path);
  for (const delivery of received) await verifyWebhook({ body: delivery.raw, signature: delivery.headers['x-signature'], secret: context.webhook.secret });
  return received.length;
}
