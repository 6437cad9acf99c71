/** The retry rules of the Webhooks sections of v1.yaml and v2.yaml, outcome by outcome and attempt by attempt. */
import { describe, expect, it } from 'vitest';
import { decide, maxAttempts, type AttemptOutcome } from '../../../server/features/webhooks/retry.ts';

const status = (statusCode: number): AttemptOutcome => ({ statusCode });
const error = (message: string): AttemptOutcome => ({ error: message });

describe('v2 retry rules', () => {
  it('makes 3 attempts at most', () => expect(maxAttempts).toBe(3));

  it.each([200, 201, 202, 204, 299])('%i acknowledges at any attempt', (code) => {
    for (const n of [1, 2, 3]) expect(decide('v2', n, status(code))).toBe('delivered');
  });

  it.each([400, 401, 403, 404, 405, 410, 422])('%i ends the delivery at once', (code) => {
    for (const n of [1, 2, 3]) expect(decide('v2', n, status(code))).toBe('abandoned');
  });

  it.each([
    ['408', status(408)], ['429', status(429)], ['500', status(500)], ['502', status(502)], ['503', status(503)], ['504', status(504)],
    ['other 4xx (409)', status(409)], ['other 4xx (418)', status(418)], ['other 4xx (402)', status(402)], ['3xx (301)', status(301)], ['3xx (304)', status(304)], ['1xx (101)', status(101)],
    ['a timeout', error('timeout after 10000 ms')], ['a connection error', error('connection error: connect ECONNREFUSED')],
  ])('%s is retried after attempts 1 and 2, abandoned after 3', (_, outcome) => {
    expect(decide('v2', 1, outcome)).toBe('retry');
    expect(decide('v2', 2, outcome)).toBe('retry');
    expect(decide('v2', 3, outcome)).toBe('abandoned');
  });
});

describe('v1 retry rules', () => {
  it.each([200, 204])('%i acknowledges', (code) => expect(decide('v1', 1, status(code))).toBe('delivered'));

  it.each([400, 401, 403, 404, 405, 410, 422, 408, 429, 500, 503, 301])('%i is retried: v1 retries any non-2xx', (code) => {
    expect(decide('v1', 1, status(code))).toBe('retry');
    expect(decide('v1', 2, status(code))).toBe('retry');
    expect(decide('v1', 3, status(code))).toBe('abandoned');
  });

  it('retries connection errors and timeouts, 3 attempts in all', () => {
    for (const outcome of [error('timeout after 10 ms'), error('connection error: reset')]) {
      expect([1, 2, 3].map((n) => decide('v1', n, outcome))).toEqual(['retry', 'retry', 'abandoned']);
    }
  });
});
