/**
 * RFC 8785 (JCS) canonical JSON: what webhook signatures are computed over and what the
 * outbox stores, so a delivery's bytes are the signed bytes.
 *
 * Canonicalization is `canonicalize@4.0.0` (erdtman, the implementation RFC 8785 lists):
 * it passes every vector of test/vectors/jcs/ byte for byte, and refuses NaN, Infinity
 * and lone surrogates (test/features/webhooks/signature.test.ts). The wrapper only makes sure the
 * result is a string: the library answers `undefined` for a value JSON cannot hold.
 */
import canonicalize from 'canonicalize';

/** The RFC 8785 canonical JSON text of a value; throws for what JCS cannot represent. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (typeof text !== 'string') throw new TypeError('value has no JSON representation');
  return text;
}
