/**
 * Helpers of the v2 money-flow tests that are not fixtures (those are in fixtures.ts): P-256
 * signer keys, a CLABE with a wrong check digit, and a person's KYC submission.
 */
import { ECDH, generateKeyPairSync, sign } from 'node:crypto';
import type { Schema } from '../../client/index.ts';
import { expectStatus } from './api.ts';
import type { TestServer } from './server.ts';

/** The same CLABE with a wrong check digit. */
export const withWrongCheckDigit = (clabe: string) => clabe.slice(0, 17) + String((Number(clabe[17]) + 1) % 10);

/** A P-256 key pair: the SEC1 public key a wallet registers, and signatures in both encodings. */
export function signerKeys() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const uncompressed = `04${Buffer.from(jwk.x!, 'base64url').toString('hex')}${Buffer.from(jwk.y!, 'base64url').toString('hex')}`;
  return {
    publicKey: uncompressed,
    compressedPublicKey: ECDH.convertKey(uncompressed, 'prime256v1', 'hex', 'hex', 'compressed') as string,
    der: (message: string) => sign('sha256', Buffer.from(message, 'utf8'), privateKey).toString('hex'),
    raw: (message: string) => sign('sha256', Buffer.from(message, 'utf8'), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('hex'),
  };
}

/** A valid KYC submission of a person, with this tax id. */
export const kycSubmission = (taxId: string): Schema<'KycRequest'> => ({
  firstName: 'María', lastName: 'Gómez', secondLastName: 'Martínez', birthDate: '1990-01-01', birthCountryIsoCode: 'MX', nationality: 'MX',
  taxId, email: 'maria.gomez@example.com', phone: '+525512345678',
  address: { street: 'Avenida Insurgentes Sur', exteriorNumber: '1602', neighborhood: 'Crédito Constructor', city: 'Ciudad de México', state: 'CDMX', postalCode: '03940', countryIsoCode: 'MX' },
});

/** Gives a person a submitted KYC with this tax id (`PUT …/kyc`). */
export async function submitKyc(server: TestServer, organizationId: string, taxId: string) {
  expectStatus(await server.api.PUT('/organization/{organizationId}/kyc', { params: { path: { organizationId } }, body: kycSubmission(taxId) }), 200);
}
