/**
 * Every problem of a KYC or KYB submission at once (submitKyc, submitKyb, v1SubmitCustomerKyc:
 * every missing or invalid field in one 400). The shape rules come from
 * the contract's own request schema, checked with every error collected; the rules a schema
 * cannot say (age, RFC or CURP form, real and unrestricted countries, representatives and
 * ownership) are checked here. Both lists are merged, one entry per field.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { Decimal } from 'decimal.js';
import type { FieldError } from '../../shared/problems.ts';
import { isCountryCode, restrictedCountries } from '../../shared/countries.ts';
import { componentSchema, schemaValidator } from '../../shared/contractSchemas.ts';
import { segmentsOf } from '../../shared/jsonPointer.ts';

export type SubmissionSchema = 'KycRequest' | 'KybRequest' | 'V1SubmitKycRequest';

type Json = Record<string, any>;

/** The required top-level fields of a submission schema, from the contract. */
export const requiredFields = (document: Json, name: SubmissionSchema): string[] => document.components?.schemas?.[name]?.required ?? [];

// ---- shape errors (the contract schema) ------------------------------------------------

const lastSegment = (pointer: string) => pointer.slice(pointer.lastIndexOf('/') + 1);

function patternDetail(schema: SubmissionSchema, pointer: string, pattern: string): string {
  const field = lastSegment(pointer);
  if (field === 'taxId') {
    // Only the business itself has a company RFC; its representatives are people.
    return schema === 'KybRequest' && pointer === '/taxId' ? 'must be a company RFC (12 characters)' : 'must be an RFC (13 characters) or a CURP (18 characters)';
  }
  if (field === 'phone') return 'must be an E.164 phone number, such as +525512345678';
  if (field.endsWith('IsoCode') || field === 'nationality') return 'must be an ISO 3166-1 alpha-2 code in upper case, such as MX';
  if (field === 'postalCode') return 'must be 5 digits';
  if (field === 'ownershipPercentage') return 'must be a decimal number written as a string, such as "25.5"';
  return `must match the pattern ${pattern}`;
}

function shapeDetail(schema: SubmissionSchema, e: ErrorObject): FieldError {
  const at = e.instancePath;
  const params = e.params as Json;
  switch (e.keyword) {
    case 'required': return { pointer: `${at}/${params.missingProperty}`, detail: 'is required' };
    case 'additionalProperties': return { pointer: `${at}/${params.additionalProperty}`, detail: 'is not allowed' };
    case 'type': return { pointer: at, detail: `must be ${params.type === 'object' || params.type === 'array' ? 'an' : 'a'} ${params.type}` };
    case 'format': {
      const formatDetail: Record<string, string> = {
        date: 'must be a date (YYYY-MM-DD)',
        email: 'must be an email address',
        uri: 'must be an absolute URL',
      };
      return { pointer: at, detail: formatDetail[params.format] ?? `must be a ${params.format}` };
    }
    case 'pattern': return { pointer: at, detail: patternDetail(schema, at, params.pattern) };
    case 'minLength': return { pointer: at, detail: params.limit === 1 ? 'must not be empty' : `must be at least ${params.limit} characters` };
    case 'maxLength': return { pointer: at, detail: `must be at most ${params.limit} characters` };
    case 'minItems': return { pointer: at, detail: `must contain at least ${params.limit} item${params.limit === 1 ? '' : 's'}` };
    case 'maxItems': return { pointer: at, detail: `must contain at most ${params.limit} items` };
    case 'enum': return { pointer: at, detail: `must be one of: ${(params.allowedValues as unknown[]).join(', ')}` };
    default: return { pointer: at, detail: e.message ?? 'is invalid' };
  }
}

// ---- rules beyond the schema ------------------------------------------------------------

const personRfc = /^[A-ZÑ&]{4}[0-9]{6}[A-Z0-9]{3}$/;
const curp = /^[A-Z]{4}[0-9]{6}[HM][A-Z]{5}[A-Z0-9][0-9]$/;
const companyRfc = /^[A-ZÑ&]{3}[0-9]{6}[A-Z0-9]{3}$/;
const isoDate = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const alpha2 = /^[A-Z]{2}$/;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const today = (now: Date) => now.toISOString().slice(0, 10);

/** 18 or older on `now` (dates compare as text in YYYY-MM-DD). */
function isAdult(birthDate: string, now: Date) {
  const year = Number(birthDate.slice(0, 4)) + 18;
  return `${String(year).padStart(4, '0')}${birthDate.slice(4)}` <= today(now);
}

function birthDateErrors(errors: FieldError[], pointer: string, value: unknown, now: Date, who: string) {
  const date = str(value);
  if (!date || !isoDate.test(date)) return;
  if (date > today(now)) errors.push({ pointer, detail: 'must not be in the future' });
  else if (!isAdult(date, now)) errors.push({ pointer, detail: `the ${who} must be 18 or older` });
}

function countryErrors(errors: FieldError[], pointer: string, value: unknown, blocked?: 'kyc' | 'kyb') {
  const code = str(value);
  if (!code || !alpha2.test(code)) return;
  if (!isCountryCode(code)) {
    errors.push({ pointer, detail: 'is not an ISO 3166-1 alpha-2 country code' });
    return;
  }
  const restricted = blocked && restrictedCountries().find((c) => c.alpha2 === code && (blocked === 'kyc' ? c.kyc_blocked : c.kyb_blocked));
  if (restricted) errors.push({ pointer, detail: `${blocked === 'kyc' ? 'identity' : 'business'} verification is not available for ${restricted.name} (see /lookup/restricted-countries)` });
}

function personTaxIdErrors(errors: FieldError[], pointer: string, value: unknown) {
  const taxId = str(value);
  if (!taxId || !/^[A-Z&0-9Ñ]{12,18}$/.test(taxId)) return;
  if (!personRfc.test(taxId) && !curp.test(taxId)) errors.push({ pointer, detail: 'must be an RFC (13 characters) or a CURP (18 characters)' });
}

function kycRules(body: Json, now: Date, v1: boolean): FieldError[] {
  const errors: FieldError[] = [];
  birthDateErrors(errors, '/birthDate', body.birthDate, now, 'customer');
  countryErrors(errors, '/birthCountryIsoCode', body.birthCountryIsoCode);
  if (v1) countryErrors(errors, '/countryIsoCode', body.countryIsoCode, 'kyc');
  else countryErrors(errors, '/nationality', body.nationality, 'kyc');
  if (body.address && typeof body.address === 'object') countryErrors(errors, '/address/countryIsoCode', body.address.countryIsoCode, 'kyc');
  personTaxIdErrors(errors, '/taxId', body.taxId);
  return errors;
}

function kybRules(body: Json, now: Date): FieldError[] {
  const errors: FieldError[] = [];
  const taxId = str(body.taxId);
  if (taxId && /^[A-Z&0-9]{12,18}$/.test(taxId) && !companyRfc.test(taxId)) errors.push({ pointer: '/taxId', detail: 'must be a company RFC (12 characters)' });
  const incorporated = str(body.incorporationDate);
  if (incorporated && isoDate.test(incorporated) && incorporated > today(now)) errors.push({ pointer: '/incorporationDate', detail: 'must not be in the future' });
  countryErrors(errors, '/incorporationCountryIsoCode', body.incorporationCountryIsoCode, 'kyb');
  if (body.address && typeof body.address === 'object') countryErrors(errors, '/address/countryIsoCode', body.address.countryIsoCode, 'kyb');
  const representatives: unknown[] = Array.isArray(body.representatives) ? body.representatives : [];
  let owned = new Decimal(0);
  let legalRepresentatives = 0;
  representatives.forEach((r, i) => {
    if (!r || typeof r !== 'object') return;
    const rep = r as Json;
    const at = `/representatives/${i}`;
    if (rep.role === 'legalRepresentative') legalRepresentatives += 1;
    birthDateErrors(errors, `${at}/birthDate`, rep.birthDate, now, 'representative');
    countryErrors(errors, `${at}/nationality`, rep.nationality);
    personTaxIdErrors(errors, `${at}/taxId`, rep.taxId);
    const share = str(rep.ownershipPercentage);
    if (rep.role === 'beneficialOwner' && rep.ownershipPercentage === undefined) {
      errors.push({ pointer: `${at}/ownershipPercentage`, detail: 'is required for a beneficialOwner' });
    } else if (rep.role === 'legalRepresentative' && rep.ownershipPercentage !== undefined) {
      errors.push({ pointer: `${at}/ownershipPercentage`, detail: 'is only allowed for a beneficialOwner (list an owner who also represents the business twice)' });
    } else if (share !== undefined && /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(share)) {
      const value = new Decimal(share);
      if (value.lte(0) || value.gt(100)) errors.push({ pointer: `${at}/ownershipPercentage`, detail: 'must be more than 0 and at most 100' });
      else if (rep.role === 'beneficialOwner') owned = owned.plus(value);
    }
  });
  if (representatives.length > 0 && legalRepresentatives === 0) errors.push({ pointer: '/representatives', detail: 'must include at least one legalRepresentative' });
  if (owned.gt(100)) errors.push({ pointer: '/representatives', detail: 'the beneficial owners hold more than 100 % together' });
  return errors;
}

/**
 * Every missing or invalid field of a submission, each field once (its shape error first).
 * Empty when the submission can be accepted.
 */
export function submissionErrors(document: Json, schema: SubmissionSchema, body: unknown, now: Date): FieldError[] {
  const validate = schemaValidator(document, componentSchema(schema));
  const shape = validate(body) ? [] : (validate.errors ?? []).map((e) => shapeDetail(schema, e));
  const object = body && typeof body === 'object' && !Array.isArray(body) ? (body as Json) : undefined;
  const rules = !object ? [] : schema === 'KybRequest' ? kybRules(object, now) : kycRules(object, now, schema === 'V1SubmitKycRequest');
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const e of [...shape, ...rules]) {
    if (seen.has(e.pointer)) continue;
    seen.add(e.pointer);
    errors.push(e);
  }
  return errors;
}

/** A JSON Pointer as the dotted path v1 errors use (`/address/postalCode` → `address.postalCode`). */
export function dottedPath(pointer: string): string {
  if (pointer === '' || pointer === '/') return 'body';
  return segmentsOf(pointer)
    .map((s, i) => (/^[0-9]+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
}
