/**
 * The handling rules of the contract's Errors and Rate limits sections (v2.yaml) as a retry
 * layer under the client:
 *
 *   - `rate-limit-exceeded` (429): wait `Retry-After` seconds, then send again.
 *   - `quote-unavailable`, `internal-error`, `service-unavailable`: send again after an
 *     exponential backoff with jitter. A body that is not a problem (v1, lookup, a proxy) or
 *     a slug this client does not know falls back to the status (rule 1): 500, 502, 503, 504.
 *   - every other 4xx (and 501 `not-implemented`) fails the same way until the request
 *     changes: returned at once, never sent again.
 *   - a connection error is retried only when a repeat cannot do anything twice: GET, HEAD,
 *     PUT, DELETE, and v2 order creation, which is keyed by `quoteId` (rule 5: the same quote
 *     returns the existing order).
 *
 * Attempts are bounded (`maxRetries`); the last answer is returned as it is. It wraps the
 * transport (`fetch`) rather than an openapi-fetch `onResponse`, because by then the request
 * body has been read: the transport sees the exact request every middleware produced and
 * clones it before each attempt.
 */
import { problemSlug, retryAfterSeconds } from './errors.ts';

export interface RetryOptions {
  /** Further attempts after the first; 0 turns retrying off. Default 3. */
  maxRetries?: number;
  /** First backoff step in milliseconds; it doubles on each attempt. Default 250. */
  baseDelayMs?: number;
  /** Cap of one backoff wait. Default 8000. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the 429 is returned. Default 60000. */
  maxRetryAfterMs?: number;
  /** How to wait; tests inject one that does not really sleep. Rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter; Math.random by default. */
  random?: () => number;
  /** Told before each wait, for logs and metrics. */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** The problem slug, `status <n>`, or `network error`. */
  reason: string;
  request: Request;
}

/** The slugs the contract says to retry with backoff (v2.yaml, Errors). */
export const backoffSlugs: readonly string[] = ['quote-unavailable', 'internal-error', 'service-unavailable'];
const backoffStatuses = new Set([500, 502, 503, 504]);
const repeatableMethods = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export interface RetryDecision {
  retry: boolean;
  reason: string;
  /** Set for 429: how long the server asked to wait. */
  retryAfterMs?: number;
}

/** Whether an answer is worth sending again, by the contract's Errors section. Reads a clone of the body. */
export async function retryDecision(response: Response): Promise<RetryDecision> {
  const status = response.status;
  if (status < 400) return { retry: false, reason: `status ${status}` };
  const slug = await slugOf(response);
  if (status === 429 || slug === 'rate-limit-exceeded') {
    const seconds = retryAfterSeconds(response.headers.get('Retry-After'));
    return { retry: true, reason: slug ?? 'status 429', ...(seconds === undefined ? {} : { retryAfterMs: seconds * 1000 }) };
  }
  if (slug && backoffSlugs.includes(slug)) return { retry: true, reason: slug };
  // Every other slug of the contract is a 4xx or 501 and final; an unknown slug or a body
  // that is no problem is judged by its status.
  return { retry: backoffStatuses.has(status), reason: slug ?? `status ${status}` };
}

async function slugOf(response: Response): Promise<string | undefined> {
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes('json')) return undefined;
  try {
    const body = (await response.clone().json()) as { type?: unknown; status?: unknown };
    if (typeof body?.type === 'string' && typeof body.status === 'number') return problemSlug(body.type);
  } catch {
    // Not JSON after all: judged by status.
  }
  return undefined;
}

/** Safe to send twice after a connection error: idempotent methods, and v2 order creation. */
export function repeatable(request: Request, baseUrl: string): boolean {
  if (repeatableMethods.has(request.method)) return true;
  const path = new URL(request.url).pathname.slice(new URL(baseUrl).pathname.replace(/\/$/, '').length);
  return request.method === 'POST' && /^\/organization\/[^/]+\/order$/.test(path);
}

export function backoffDelay(attempt: number, options: Required<Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'>>): number {
  // "Equal jitter": half the exponential step, plus a random part of the other half.
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + options.random() * (step / 2));
}

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

/** `fetch` with the retry rules above. `baseUrl` locates order creation under a prefix. */
export function retryingFetch(fetch: Fetch, baseUrl: string, options: RetryOptions = {}): Fetch {
  const maxRetries = options.maxRetries ?? 3;
  const timing = { baseDelayMs: options.baseDelayMs ?? 250, maxDelayMs: options.maxDelayMs ?? 8000, random: options.random ?? Math.random };
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const sleep = options.sleep ?? defaultSleep;
  return async (request, init) => {
    if (maxRetries <= 0) return fetch(request, init);
    const template = request.clone();
    for (let attempt = 1; ; attempt++) {
      const sent = attempt === 1 ? request : template.clone();
      let response: Response;
      try {
        response = await fetch(sent, init);
      } catch (error) {
        if (attempt > maxRetries || request.signal.aborted || !repeatable(request, baseUrl)) throw error;
        await wait(attempt, backoffDelay(attempt, timing), 'network error');
        continue;
      }
      if (attempt > maxRetries || request.signal.aborted) return response;
      const decision = await retryDecision(response);
      if (!decision.retry) return response;
      if (decision.retryAfterMs !== undefined && decision.retryAfterMs > maxRetryAfterMs) return response;
      const delay = decision.retryAfterMs ?? backoffDelay(attempt, timing);
      // The abandoned answer's body is not needed; free its connection.
      await response.body?.cancel().catch(() => {});
      await wait(attempt, delay, decision.reason);
    }

    async function wait(attempt: number, delayMs: number, reason: string) {
      options.onRetry?.({ attempt, delayMs, reason, request });
      // An abort that came before the wait (while the answer was read, or from onRetry) ends it
      // here: a sleep that only listens for 'abort' would never hear it.
      request.signal.throwIfAborted();
      await sleep(delayMs, request.signal);
    }
  };
}
