/**
 * The retry rules of the Webhooks sections of v1.yaml and v2.yaml as one pure function, so the table
 * of outcomes is tested on its own (test/features/webhooks/retry.test.ts).
 *
 * v2: up to 3 attempts; retry after a connection error, a timeout, a 5xx, 408, 429 or any
 * other non-2xx, except that 400, 401, 403, 404, 405, 410 and 422 end the delivery.
 * v1: "retried up to 3 times" on any non-2xx or connection error. The limits table says
 * "3 attempts per delivery", so v1 makes 3 attempts in all too (the contract says so).
 */
export const maxAttempts = 3;

/** v2 answers after which the receiver does not want the delivery again. */
export const finalV2Statuses: ReadonlySet<number> = new Set([400, 401, 403, 404, 405, 410, 422]);

/** How an attempt ended: the receiver's status (and the first bytes of its answer, shown by listSandboxWebhookDeliveries), or why none came. */
export type AttemptOutcome = { statusCode: number; responseExcerpt?: string } | { error: string };

export type Decision = 'delivered' | 'retry' | 'abandoned';

export function decide(surface: 'v1' | 'v2', attemptNumber: number, outcome: AttemptOutcome): Decision {
  if ('statusCode' in outcome) {
    if (outcome.statusCode >= 200 && outcome.statusCode < 300) return 'delivered';
    if (surface === 'v2' && finalV2Statuses.has(outcome.statusCode)) return 'abandoned';
  }
  return attemptNumber < maxAttempts ? 'retry' : 'abandoned';
}
