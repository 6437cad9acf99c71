/** Submission checks: every problem at once, from the contract's schema and the rules beyond it. */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../server/shared/contract.ts';
import { dottedPath, submissionErrors } from '../../../server/features/verification/input.ts';
import { company, person, v1Person } from '../../support/verification.ts';

const { document } = loadContract();
const now = new Date('2026-06-15T12:00:00Z');
const pointers = (schema: 'KycRequest' | 'KybRequest' | 'V1SubmitKycRequest', body: unknown) => submissionErrors(document, schema, body, now).map((e) => e.pointer);

describe('submissionErrors', () => {
  it('accepts the contract examples', () => {
    expect(pointers('KycRequest', person)).toEqual([]);
    expect(pointers('V1SubmitKycRequest', v1Person)).toEqual([]);
    expect(pointers('KybRequest', company)).toEqual([]);
  });

  it('names every required field of an empty body, and the body itself when it is not an object', () => {
    expect(pointers('KycRequest', {}).sort()).toEqual(document.components.schemas.KycRequest.required.map((f: string) => `/${f}`).sort());
    expect(submissionErrors(document, 'KycRequest', [], now)).toEqual([{ pointer: '', detail: 'must be an object' }]);
  });

  const ages: [string, string[]][] = [
    ['2008-06-15', []], // 18 today
    ['2008-06-16', ['/birthDate']], // 18 tomorrow
    ['2027-01-01', ['/birthDate']], // not born yet
  ];
  for (const [birthDate, expected] of ages) {
    it(`a person born ${birthDate} is ${expected.length ? 'refused' : 'accepted'} on 2026-06-15`, () => {
      expect(pointers('KycRequest', { ...person, birthDate })).toEqual(expected);
    });
  }

  const taxIds: [string, string[]][] = [
    ['GOMM900101AB3', []], // RFC of a person
    ['GOMM900101MDFRRR09', []], // CURP
    ['GOM900101AB3', ['/taxId']], // RFC of a company
    ['GOMM900101AB', ['/taxId']], // 12 characters, not a company's form either
  ];
  for (const [taxId, expected] of taxIds) {
    it(`a person's taxId ${taxId} is ${expected.length ? 'refused' : 'accepted'}`, () => expect(pointers('KycRequest', { ...person, taxId })).toEqual(expected));
  }

  it('reports one entry per field, the shape error first', () => {
    const errors = submissionErrors(document, 'KycRequest', { ...person, nationality: 'mx' }, now);
    expect(errors).toEqual([{ pointer: '/nationality', detail: 'must be an ISO 3166-1 alpha-2 code in upper case, such as MX' }]);
  });
});

describe('dottedPath', () => {
  const cases: [string, string][] = [
    ['', 'body'],
    ['/taxId', 'taxId'],
    ['/address/postalCode', 'address.postalCode'],
    ['/representatives/0/taxId', 'representatives[0].taxId'],
    ['/a~1b', 'a/b'],
  ];
  for (const [pointer, dotted] of cases) it(`${JSON.stringify(pointer)} → ${dotted}`, () => expect(dottedPath(pointer)).toBe(dotted));
});
