/**
 * Order authorizations of embedded wallets: ECDSA P-256 with SHA-256 over the exact UTF-8
 * bytes of the message, verified with the wallet's SEC1 `signerPublicKey` (authorizeOrder,
 * `invalid-signature`). Signatures arrive in hex, DER or raw r‖s.
 */
import { ECDH, createPublicKey, verify, type KeyObject } from 'node:crypto';

// SubjectPublicKeyInfo header of an uncompressed P-256 point (id-ecPublicKey, prime256v1).
const spkiPrefix = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

/** The key of a SEC1 hex point (`04…` or `02…`/`03…`), or undefined when it is no P-256 point. */
export function p256PublicKey(sec1Hex: string): KeyObject | undefined {
  if (!/^(04[0-9a-fA-F]{128}|0[23][0-9a-fA-F]{64})$/.test(sec1Hex)) return undefined;
  try {
    // convertKey decodes the point, so a point off the curve throws here.
    const uncompressed = Buffer.from(ECDH.convertKey(sec1Hex.toLowerCase(), 'prime256v1', 'hex', 'hex', 'uncompressed') as string, 'hex');
    return createPublicKey({ key: Buffer.concat([spkiPrefix, uncompressed]), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

export type SignatureCheck = 'valid' | 'not-hex' | 'does-not-verify';

export function checkSignature(sec1Hex: string, message: string, signatureHex: string): SignatureCheck {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(signatureHex)) return 'not-hex';
  const key = p256PublicKey(sec1Hex);
  if (!key) return 'does-not-verify';
  const signature = Buffer.from(signatureHex, 'hex');
  const data = Buffer.from(message, 'utf8');
  // 64 bytes is r‖s; a DER signature of P-256 is 8 to 72 bytes, so try both for 64.
  const encodings = signature.length === 64 ? (['ieee-p1363', 'der'] as const) : (['der'] as const);
  for (const dsaEncoding of encodings) {
    try {
      if (verify('sha256', data, { key, dsaEncoding }, signature)) return 'valid';
    } catch {
      // Malformed DER: it does not verify.
    }
  }
  return 'does-not-verify';
}
