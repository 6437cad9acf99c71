/**
 * Fetching a JWKS from a `jwksUri` (server/features/auth/jwks.ts) under the address rule of
 * webhook deliveries: in production a name that DNS points inward is refused when connecting,
 * whatever it resolved to before (the registration check cannot see a later answer).
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchJwks, JwksFetchError } from '../../../server/features/auth/jwks.ts';
import { answering, CountingListener } from '../../support/connections.ts';

describe('fetchJwks', () => {
  let listener: CountingListener;
  const key = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }), kid: 'k1' };
  beforeAll(async () => {
    listener = await CountingListener.start();
    listener.answer = { status: 200, body: JSON.stringify({ keys: [key] }) };
  });
  afterAll(() => listener?.close());

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable('fetched'),
      (error: unknown) => {
        expect(error).toBeInstanceOf(JwksFetchError);
        return error as JwksFetchError;
      },
    );

  it('in production, never connects to a name that resolves to loopback', async () => {
    for (const addresses of [['127.0.0.1'], ['::1'], ['::ffff:127.0.0.1', '10.1.2.3']]) {
      const error = await refusal(fetchJwks(`https://jwks.partner.example:${listener.port}/jwks.json`, { publicOnly: true, resolve: answering(...addresses) }));
      expect(error.reason).toBe('address-not-allowed');
      expect(error.message).toBe('the JWKS could not be fetched: its host is not a public address (production fetches from public addresses only)');
    }
    expect(listener.connections).toBe(0);
  });

  it('in production, refuses a literal loopback address, and plain http, before connecting', async () => {
    for (const uri of [`https://127.0.0.1:${listener.port}/jwks.json`, `https://[::1]:${listener.port}/jwks.json`, `https://[::ffff:7f00:1]:${listener.port}/jwks.json`]) {
      expect((await refusal(fetchJwks(uri, { publicOnly: true, resolve: answering('8.8.8.8') }))).reason).toBe('address-not-allowed');
    }
    expect((await refusal(fetchJwks(`http://jwks.partner.example:${listener.port}/jwks.json`, { publicOnly: true, resolve: answering('8.8.8.8') }))).reason).toBe('not-fetched');
    expect(listener.connections).toBe(0);
  });

  it('in the sandbox, fetches from the same name and address', async () => {
    expect(await fetchJwks(`http://jwks.partner.example:${listener.port}/jwks.json`, { publicOnly: false, resolve: answering('127.0.0.1') })).toEqual({ keys: [key] });
    expect(listener.connections).toBe(1);
  });
});
