/** client/webhooks.ts: verifyWebhook against the shared signature vectors and every way to get it wrong. */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeSecret, isV2Event, verifyWebhook, WebhookVerificationError, type WebhookVerificationReason } from '../../../client/webhooks.ts';
import { exampleOf, referenceJcs, vectors } from '../../support/webhooks.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const signatures = JSON.parse(readFileSync(join(vectors, 'hmac-signature-vectors.json'), 'utf8')) as {
  secret_b64url: string;
  key_hex: string;
  vectors: { file: string; input: string; canonical_utf8: string; header: string }[];
};
const secret = `${signatures.secret_b64url}=`;
const key = Buffer.from(signatures.key_hex, 'hex');
const sign = (value: unknown, k: Buffer = key) => `sha256=${createHmac('sha256', k).update(referenceJcs(value), 'utf8').digest('hex')}`;

async function reason(promise: Promise<unknown>): Promise<WebhookVerificationReason | 'verified'> {
  try {
    await promise;
    return 'verified';
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  }
}

describe('verifyWebhook', () => {
  it('accepts every object vector of the shared file, from its pretty-printed input', async () => {
    for (const vector of signatures.vectors.filter((v) => v.canonical_utf8.startsWith('{'))) {
      const body = readFileSync(join(vectors, vector.input));
      await expect(verifyWebhook({ body, signature: vector.header, secret })).resolves.toEqual(JSON.parse(body.toString('utf8')));
    }
  });

  it('returns a v2 event typed and recognised, from raw text, bytes or a parsed body', async () => {
    const event = exampleOf('orderUpdated');
    const signature = sign(event);
    for (const body of [JSON.stringify(event, null, 2), new TextEncoder().encode(JSON.stringify(event)), structuredClone(event)]) {
      const verified = await verifyWebhook({ body, signature, secret });
      expect(isV2Event(verified)).toBe(true);
      if (isV2Event(verified)) expect(verified.eventId).toBe(event.eventId);
    }
    expect(await reason(verifyWebhook({ body: JSON.stringify(event), signature: [signature], secret }))).toBe('verified');
  });

  it('returns a v1 event as its single-key object', async () => {
    const event = exampleOf('order_updated');
    const verified = await verifyWebhook({ body: JSON.stringify(event), signature: sign(event), secret });
    expect(isV2Event(verified)).toBe(false);
    expect(verified).toEqual(event);
  });

  it('refuses a changed body, another secret, or a signature of something else', async () => {
    const event = exampleOf('kycUpdated');
    const signature = sign(event);
    const tampered = { ...event, kyc: { ...event.kyc, userMessage: 'Upload a clearer photo.' }, occurredAt: '2030-01-01T00:00:00Z' };
    expect(await reason(verifyWebhook({ body: JSON.stringify(tampered), signature, secret }))).toBe('signature-mismatch');
    const otherKey = Buffer.alloc(32, 7);
    expect(await reason(verifyWebhook({ body: JSON.stringify(event), signature: sign(event, otherKey), secret }))).toBe('signature-mismatch');
    expect(await reason(verifyWebhook({ body: JSON.stringify(event), signature: `sha256=${'0'.repeat(64)}`, secret }))).toBe('signature-mismatch');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['without the prefix', '0'.repeat(64)],
    ['another algorithm', `sha1=${'0'.repeat(40)}`],
    ['uppercase hex', `sha256=${'A'.repeat(64)}`],
    ['short', `sha256=${'0'.repeat(63)}`],
    ['long', `sha256=${'0'.repeat(65)}`],
    ['with spaces', ` sha256=${'0'.repeat(64)}`],
    ['twice', [`sha256=${'0'.repeat(64)}`, `sha256=${'0'.repeat(64)}`]],
  ])('refuses a signature header %s', async (_, signature) => {
    const event = exampleOf('kybUpdated');
    expect(await reason(verifyWebhook({ body: JSON.stringify(event), signature: signature as string, secret }))).toBe('invalid-signature-header');
  });

  it.each([
    ['unpadded (43 characters)', signatures.secret_b64url],
    ['padded twice', `${signatures.secret_b64url}==`],
    ['in the standard alphabet', `${signatures.secret_b64url.slice(0, 42)}+=`],
    ['with non-zero padding bits', `${signatures.secret_b64url.slice(0, 42)}9=`],
    ['of 16 bytes', `${Buffer.alloc(16).toString('base64url')}==`],
    ['empty', ''],
    ['with a newline', `${secret}\n`],
  ])('refuses a secret %s, before looking at the body', async (_, bad) => {
    expect(() => decodeSecret(bad)).toThrow(WebhookVerificationError);
    expect(await reason(verifyWebhook({ body: 'not even json', signature: 'nope', secret: bad }))).toBe('invalid-secret');
  });

  it('decodes the vector secret to the bytes 00..1f', () => {
    expect(Buffer.from(decodeSecret(secret)).toString('hex')).toBe(signatures.key_hex);
  });

  it('refuses bodies that are not UTF-8 JSON objects, or have no canonical form', async () => {
    const signature = `sha256=${'0'.repeat(64)}`;
    expect(await reason(verifyWebhook({ body: '{"a":', signature, secret }))).toBe('invalid-body');
    expect(await reason(verifyWebhook({ body: new Uint8Array([0x7b, 0xff, 0x7d]), signature, secret }))).toBe('invalid-body');
    expect(await reason(verifyWebhook({ body: '{"k":"\\ud800"}', signature, secret }))).toBe('invalid-body');
    // A correctly signed array is still not an event.
    expect(await reason(verifyWebhook({ body: '[1]', signature: sign([1]), secret }))).toBe('invalid-body');
  });
});
