/** Fixtures and probes shared by the verification suites (test/server/verification*.test.ts). */
import { expect } from 'vitest';
import type { Schema } from '../../client/index.ts';
import type { TestServer } from './server.ts';

export const person: Schema<'KycRequest'> = {
  firstName: 'María',
  lastName: 'Gómez',
  birthDate: '1990-01-01',
  birthCountryIsoCode: 'MX',
  nationality: 'MX',
  taxId: 'GOMM900101AB3',
  email: 'maria.gomez@example.com',
  phone: '+525512345678',
  address: { street: 'Avenida Insurgentes Sur', exteriorNumber: '1602', city: 'Ciudad de México', state: 'CDMX', postalCode: '03940', countryIsoCode: 'MX' },
};

export const v1Person: Schema<'V1SubmitKycRequest'> = {
  firstName: 'María Fernanda',
  lastName: 'López',
  birthDate: '1990-07-15',
  birthCountryIsoCode: 'MX',
  countryIsoCode: 'MX',
  taxId: 'LOHM900715AB1',
  email: 'maria.lopez@example.com',
  phone: '+525512345678',
  address: { street: 'Avenida Paseo de la Reforma', exteriorNumber: '222', city: 'Ciudad de México', state: 'CDMX', postalCode: '06600', countryIsoCode: 'MX' },
};

export const company: Schema<'KybRequest'> = {
  legalName: 'Tacos El Güero SA de CV',
  taxId: 'TEG150312QX7',
  incorporationCountryIsoCode: 'MX',
  incorporationDate: '2015-03-12',
  address: { street: 'Calle Durango', exteriorNumber: '245', city: 'Ciudad de México', state: 'CDMX', postalCode: '06700', countryIsoCode: 'MX' },
  email: 'finanzas@tacoselguero.example',
  phone: '+525598765432',
  representatives: [
    { role: 'legalRepresentative', firstName: 'Jorge', lastName: 'Hernández', birthDate: '1982-07-19', nationality: 'MX', taxId: 'HERJ820719K45', email: 'jorge@tacoselguero.example' },
    { role: 'beneficialOwner', firstName: 'Jorge', lastName: 'Hernández', birthDate: '1982-07-19', nationality: 'MX', taxId: 'HERJ820719K45', email: 'jorge@tacoselguero.example', ownershipPercentage: '100' },
  ],
};

/** Everything stored about an organization's verification, and the number of events. */
export async function snapshot(server: TestServer, organizationId: string) {
  const db = server.services.storage.db;
  return {
    organization: await db.selectFrom('organizations').selectAll().where('id', '=', organizationId).executeTakeFirst(),
    verifications: await db.selectFrom('verifications').selectAll().where('organization_id', '=', organizationId).orderBy('kind').execute(),
    events: (await db.selectFrom('events').select('id').execute()).length,
  };
}

/** Asserts that `action` (a refused request) changed nothing stored, and returns its response. */
export async function refusedWithoutTrace<T>(server: TestServer, organizationId: string, action: () => Promise<T>): Promise<T> {
  const before = await snapshot(server, organizationId);
  const result = await action();
  expect(await snapshot(server, organizationId)).toEqual(before);
  return result;
}

