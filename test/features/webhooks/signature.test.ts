/**
 * The signing side against the shared vectors (test/vectors/jcs/, a copy of
 * ../shared/vectors/jcs/, see its SOURCES.md):
 * RFC 8785 byte for byte through `canonicalize`, and X-Signature values computed apart with
 * node crypto over the reference output bytes.
 */
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../server/shared/jcs.ts';
import { newSecret, secretKey, signCanonical } from '../../../server/features/webhooks/signature.ts';
import { extraVectors, referenceJcs, sharedVectors, vectors } from '../../support/webhooks.ts';

const read = (...parts: string[]) => readFileSync(join(vectors, ...parts));

/** A double from its IEEE 754 bits written in hex (leading zeros may be left out). */
function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

const canonicalOrError = (value: unknown) => {
  try {
    return canonicalJson(value);
  } catch {
    return 'ERROR';
  }
};

/** Every file under a folder, relative to it. */
const filesUnder = (dir: string, prefix = ''): string[] =>
  readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)])).sort();

describe.skipIf(!existsSync(sharedVectors))('the repository copy of the vectors', () => {
  it('is byte-identical to ../shared/vectors/jcs', () => {
    expect(filesUnder(vectors)).toEqual(filesUnder(sharedVectors));
    for (const file of filesUnder(sharedVectors)) expect(read(file).equals(readFileSync(join(sharedVectors, file))), file).toBe(true);
  });
});

describe('RFC 8785 canonicalization (canonicalize@4.0.0)', () => {
  const files = readdirSync(join(vectors, 'input'));

  it('has the six reference inputs', () => expect(files.sort()).toEqual(['arrays.json', 'french.json', 'structures.json', 'unicode.json', 'values.json', 'weird.json']));

  for (const file of files) {
    it(`input/${file} → output/${file} byte for byte`, () => {
      const canonical = Buffer.from(canonicalJson(JSON.parse(read('input', file).toString('utf8'))), 'utf8');
      expect(canonical.equals(read('output', file))).toBe(true);
      expect(canonical.toString('hex')).toBe(read('outhex', file.replace(/\.json$/, '.txt')).toString('utf8').replace(/\s+/g, '').toLowerCase());
    });
  }

  for (const file of ['es6testfile1k.txt', 'es6testfile10k.txt', 'rfc8785-appendixB.csv']) {
    it(`numbers/${file}: every number serializes as expected, NaN and Infinity refused`, () => {
      const lines = read('numbers', file).toString('utf8').split('\n').filter((l) => l.trim());
      expect(lines.length).toBeGreaterThan(20);
      const wrong: string[] = [];
      for (const line of lines) {
        const [bits, expected] = line.split(',') as [string, string];
        const want = expected.startsWith('ERROR') ? 'ERROR' : expected;
        const got = canonicalOrError(fromBits(bits));
        if (got !== want) wrong.push(`${bits}: ${got} ≠ ${want}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  for (const c of extraVectors()) {
    it(`extra-vectors: ${c.name}`, () => expect(canonicalOrError(c.input)).toBe(c.expect));
  }

  it('refuses lone surrogates wherever they are, and values JSON cannot hold', () => {
    for (const bad of [{ k: '\ud800' }, { '\udc00': 1 }, ['a\udbffb'], 'x\udfff', NaN, -Infinity, undefined, () => 1, 10n]) {
      expect(() => canonicalJson(bad), String(bad)).toThrow();
    }
    expect(canonicalJson({ k: '\ud83d\ude02' })).toBe('{"k":"😂"}');
  });

  it('agrees with the reference JCS of the tests on the vectors', () => {
    for (const file of files) {
      const value = JSON.parse(read('input', file).toString('utf8'));
      expect(referenceJcs(value)).toBe(read('output', file).toString('utf8'));
    }
  });
});

describe('X-Signature', () => {
  const signatures = JSON.parse(read('hmac-signature-vectors.json').toString('utf8')) as {
    secret_b64url: string;
    key_hex: string;
    vectors: { file: string; input: string; canonical_utf8: string; header: string }[];
  };
  // The vector file writes the key without its `=`; the API's secrets always carry it.
  const secret = `${signatures.secret_b64url}=`;

  it('decodes the vector secret to the 32 bytes 00..1f', () => {
    expect(secretKey(secret).toString('hex')).toBe(signatures.key_hex);
  });

  for (const vector of signatures.vectors) {
    it(`${vector.file}: canonical bytes and header match the vector exactly`, () => {
      expect(Buffer.from(vector.canonical_utf8, 'utf8').equals(read('output', vector.file))).toBe(true);
      expect(signCanonical(vector.canonical_utf8, secret)).toBe(vector.header);
      // As the server does: the event stored canonical (outbox.ts), its bytes signed (delivery.ts).
      const stored = canonicalJson(JSON.parse(read(vector.input).toString('utf8')));
      expect(stored).toBe(vector.canonical_utf8);
      expect(signCanonical(stored, secret)).toBe(vector.header);
      // And apart from our code: node crypto over the reference bytes.
      expect(`sha256=${createHmac('sha256', Buffer.from(signatures.key_hex, 'hex')).update(read('output', vector.file)).digest('hex')}`).toBe(vector.header);
    });
  }
});

describe('secrets', () => {
  it('are 32 random bytes, base64url with = padding (44 characters)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const secret = newSecret();
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}=$/);
      expect(secretKey(secret)).toHaveLength(32);
      seen.add(secret);
    }
    expect(seen.size).toBe(200);
  });

  it.each([
    ['no padding', 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8'],
    ['standard alphabet +', 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh+='],
    ['standard alphabet /', 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh/='],
    ['non-zero trailing bits', 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh9='],
    ['45 characters', 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=='],
    ['a space', ' AECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='],
    ['empty', ''],
  ])('refuses a secret with %s', (_, secret) => {
    expect(() => secretKey(secret)).toThrow();
  });
});
