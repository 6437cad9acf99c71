/**
 * What the request log keeps of a body (features/requestLog/rules.ts), with no server: every
 * secret redacted before a body is cut, wherever the cut falls; a successful read's answer
 * kept to less than a write's or a refusal's; and `truncated` set whenever anything was left
 * out, even where redaction made the rest short.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureBytes, isRead, keptAnswer, keptBody, postedReads, redact, requestLogLimits } from '../../../server/features/requestLog/rules.ts';
import { loadContract } from '../../../server/shared/contract.ts';

const { bodyBytes, readAnswerBytes } = requestLogLimits;
const webhookSecret = `whsec_${'s'.repeat(40)}`;
const token = `eyJhbGciOiJFUzI1NiJ9.${'e'.repeat(300)}.${'x'.repeat(86)}`;
const apiKey = `api_sand:${'k'.repeat(60)}`;
const presigned = `https://files.sandbox.example/kyc/doc.pdf?expires=1&signature=${'f'.repeat(64)}`;

/** A JSON answer of `length` bytes or more: items, then the given member. */
const answer = (length: number, member: Record<string, string> = {}) =>
  JSON.stringify({ items: Array.from({ length: Math.ceil(length / 40) }, (_, i) => ({ id: `item-${i}`, note: 'x'.repeat(20) })), ...member });

const chunks = (text: string) => [Buffer.from(text, 'utf8')];

describe('which requests are reads', () => {
  it('takes the reads v1 sends as POST from the contract’s `x-safe`', () => {
    const contract = loadContract();
    const posted = new Set(postedReads(contract));
    expect(isRead('GET', 'listOrders', posted)).toBe(true);
    expect(isRead('POST', 'createOrder', posted)).toBe(false);
    for (const read of ['v1ListOrders', 'v1ListCustomerSwaps', 'v1ListWebhooks', 'v1SearchCustomers']) expect(isRead('POST', read, posted)).toBe(true);
    for (const write of ['v1CreateOrder', 'v1CancelOrder', 'v1CreateWebhook', 'v1OnboardBankAccounts']) expect(isRead('POST', write, posted)).toBe(false);
    // Each is a POST the contract marks, none a GET (a GET is a read by its method).
    for (const operationId of postedReads(contract)) {
      const operation = contract.operations.find((o) => o.operationId === operationId)!;
      expect(operation.method).toBe('post');
      expect(contract.document.paths[operation.path].post['x-safe']).toBe(true);
    }
  });

  it('follows the mark, not the name', () => {
    const post = (operationId: string, safe: boolean) => ({ post: { operationId, ...(safe ? { 'x-safe': true } : {}), responses: { 200: { description: 'ok' } } } });
    const file = join(mkdtempSync(join(tmpdir(), 'contract-')), 'ramp.json');
    writeFileSync(file, JSON.stringify({ openapi: '3.1.0', paths: { '/a': post('v1ListThings', false), '/b': post('exportThings', true) } }));
    const contract = loadContract(file);
    expect(postedReads(contract)).toEqual(['exportThings']);
    expect(isRead('POST', 'v1ListThings', new Set(postedReads(contract)))).toBe(false);
  });
});

describe('what the request log keeps of a body', () => {
  it('redacts every kind of secret, and leaves bodies without one as they are', () => {
    const body = JSON.stringify({ secret: webhookSecret, accessToken: token, key: apiKey, url: presigned, assertion: token, note: 'a=b' });
    const clean = redact(body);
    for (const secret of [webhookSecret, token, apiKey.slice(16), 'f'.repeat(64)]) expect(clean).not.toContain(secret);
    expect(JSON.parse(clean)).toMatchObject({ secret: '[redacted]', accessToken: '[redacted]', key: `${apiKey.slice(0, 16)}[redacted]`, assertion: '[redacted]', note: 'a=b' });
    expect(JSON.parse(clean).url).toContain('signature=[redacted]');
    // Every name of a credential member, each alone in its text.
    for (const name of ['password', 'code_verifier', 'client_assertion', 'client_secret', 'webhookSecret', 'refresh_token', 'idToken']) {
      expect(JSON.parse(redact(JSON.stringify({ id: 'o-1', [name]: 'hunter2' })))).toEqual({ id: 'o-1', [name]: '[redacted]' });
    }
    const plain = answer(3000);
    expect(redact(plain)).toBe(plain);
  });

  it('keeps a write’s answer up to 16 KiB and a successful read’s up to 2 KiB, and says it cut them', () => {
    const long = answer(40 * 1024);
    const written = keptAnswer(chunks(long), { read: false, status: 201 });
    expect(written).toMatchObject({ truncated: true });
    expect(Buffer.byteLength(written.body!)).toBe(bodyBytes);
    expect(long.startsWith(written.body!)).toBe(true);

    const read = keptAnswer(chunks(long), { read: true, status: 200 });
    expect(read).toMatchObject({ truncated: true });
    expect(Buffer.byteLength(read.body!)).toBe(readAnswerBytes);
    // A refused read is kept as a refusal is.
    expect(Buffer.byteLength(keptAnswer(chunks(long), { read: true, status: 422 }).body!)).toBe(bodyBytes);

    const short = answer(500);
    expect(keptAnswer(chunks(short), { read: true, status: 200 })).toEqual({ body: short, truncated: false });
  });

  it('never keeps part of a secret the cut falls in, nor one beyond what it keeps', () => {
    for (const limit of [bodyBytes, readAnswerBytes]) {
      // The token starts 100 bytes before the limit, so a cut before redaction would keep its start.
      const pad = 'p'.repeat(limit - 100 - '{"pad":"","accessToken":"'.length);
      const text = `{"pad":"${pad}","accessToken":"${token}","more":"${'m'.repeat(limit)}"}`;
      expect(text.indexOf(token)).toBe(limit - 100);
      const kept = keptAnswer(chunks(text), { read: limit === readAnswerBytes, status: 200 });
      expect(kept.truncated).toBe(true);
      expect(kept.body!.includes(token.slice(0, 60))).toBe(false);
      // What is kept is the start of the redacted answer (a little less of it where a secret was redacted near the cut).
      expect(redact(text).startsWith(kept.body!)).toBe(true);
      expect(Buffer.byteLength(kept.body!)).toBeGreaterThan(limit - 1024);
    }
  });

  it('says an answer was cut even where redacting made what it held short', () => {
    // Secrets make up most of what is held, so the redacted text is shorter than the limit.
    const text = JSON.stringify({ tokens: Array.from({ length: 40 }, () => ({ refreshToken: `r${'t'.repeat(500)}` })), tail: 'z'.repeat(captureBytes) });
    const kept = keptAnswer(chunks(text), { read: false, status: 200 });
    expect(Buffer.byteLength(kept.body!)).toBeLessThanOrEqual(bodyBytes);
    expect(kept.truncated).toBe(true);
    expect(kept.body!.includes('t'.repeat(100))).toBe(false);
  });

  it('keeps the same of an answer written as text as of its bytes, in one chunk or more', () => {
    const secretNearCut = (limit: number) => `{"pad":"${'p'.repeat(limit - 200)}","accessToken":"${token}","more":"${'m'.repeat(limit)}"}`;
    const texts = [answer(500), answer(40 * 1024), `"${'ñ'.repeat(bodyBytes)}"`, `"${'€'.repeat(readAnswerBytes)}"`, secretNearCut(bodyBytes), secretNearCut(readAnswerBytes), 'x'.repeat(captureBytes)];
    for (const text of texts) {
      for (const request of [{ read: false, status: 201 }, { read: true, status: 200 }]) {
        const expected = keptAnswer(chunks(text), request);
        expect(keptAnswer([text], request)).toEqual(expected);
        const half = Math.floor(text.length / 2);
        expect(keptAnswer([text.slice(0, half), text.slice(half)], request)).toEqual(expected);
        expect(keptAnswer([text.slice(0, half), Buffer.from(text.slice(half), 'utf8')], request)).toEqual(expected);
      }
    }
  });

  it('cuts on a character boundary', () => {
    const text = `"${'ñ'.repeat(bodyBytes)}"`;
    const kept = keptBody(text);
    expect(kept.truncated).toBe(true);
    expect(kept.body!.includes('\uFFFD')).toBe(false);
    expect(Buffer.byteLength(kept.body!)).toBeLessThanOrEqual(bodyBytes);
    expect(Buffer.byteLength(kept.body!)).toBeGreaterThan(bodyBytes - 2);
  });
});
