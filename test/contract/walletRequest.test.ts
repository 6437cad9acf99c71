/**
 * `WalletRequest` is one object with both custodies' fields, so that every generated client can
 * build it: openapi-generator's Kotlin client made the `oneOf` an interface that neither member
 * class implements (docs/clients.md). Its `if`/`then`/`else` on `custody` still holds each
 * custody to its own schema, for the contract's ajv as for the server (whose answers
 * test/features/wallets/api.test.ts checks).
 */
import { describe, expect, it } from 'vitest';
import { componentSchema, schemaValidator } from '../../server/shared/contractSchemas.ts';
import { loadBundle } from '../support/documents.ts';
import { solanaAddress } from '../support/fixtures.ts';
import { signerKeys } from '../support/money.ts';

const joined = loadBundle('ramp');
const signerPublicKey = signerKeys().compressedPublicKey;
const external = { custody: 'external', address: solanaAddress(), blockchain: 'solana' };
const embedded = { custody: 'embedded', address: `0x${'ab'.repeat(20)}`, blockchain: 'ethereum', signerPublicKey };
const { address: _address, ...embeddedWithoutAddress } = embedded;
const { signerPublicKey: _key, ...embeddedWithoutKey } = embedded;
const { custody: _custody, ...withoutCustody } = external;

describe('a wallet request', () => {
  const validate = schemaValidator(joined, componentSchema('WalletRequest'));

  it("is one object, each custody's fields in it, and each custody's schema under if/then/else", () => {
    const schema = joined.components.schemas.WalletRequest;
    expect(schema.oneOf).toBeUndefined();
    expect(schema.discriminator).toBeUndefined();
    expect(schema.required).toEqual(['custody', 'address', 'blockchain']);
    expect(schema.properties.custody.$ref).toBe('#/components/schemas/WalletCustody');
    expect(schema.then.$ref).toBe('#/components/schemas/EmbeddedWalletRequest');
    expect(schema.else.then.$ref).toBe('#/components/schemas/ExternalWalletRequest');
    const members = [joined.components.schemas.ExternalWalletRequest, joined.components.schemas.EmbeddedWalletRequest];
    expect(Object.keys(schema.properties).sort()).toEqual([...new Set(members.flatMap((m) => Object.keys(m.properties)))].sort());
  });

  it("passes with each custody's fields, and fails the contract's ajv with a field its custody forbids or lacks", () => {
    expect(validate(external), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(embedded), JSON.stringify(validate.errors)).toBe(true);
    const broken: [string, object][] = [
      ['embedded without its signer key', embeddedWithoutKey],
      ['embedded without an address', embeddedWithoutAddress],
      ['external with a signer key', { ...external, signerPublicKey }],
      ['external with a field of no custody', { ...external, label: 'savings' }],
      ['an undocumented custody', { ...external, custody: 'custodial' }],
      ['no custody', withoutCustody],
    ];
    for (const [what, body] of broken) expect(validate(body), what).toBe(false);
  });
});
