/**
 * Requests and judgements derived from the joined contract (generated/openapi/ramp.yaml):
 * fast-check arbitraries of valid requests from each operation's parameters and body schema,
 * mutations that make them invalid, and the check that a response is documented (status,
 * content type, required headers, body schema with ajv 2020).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import fc from 'fast-check';
import { operationMethods as methods } from '../../server/shared/contract.ts';
import { deref, loadBundle, type Json } from '../support/documents.ts';

const addFormats = formats as unknown as typeof formats.default;

export const document = loadBundle('ramp');

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
  style?: string;
  explode?: boolean;
}

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  keyed: boolean;
  parameters: Parameter[];
  /** The JSON body schema, when the operation takes one. */
  body?: { schema: Json; required: boolean; mediaTypes: string[] };
  responses: Record<string, Json>;
}

export function operations(): Operation[] {
  const found: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => deref(document, p) as Parameter);
      const security = op.security ?? document.security ?? [];
      const content = op.requestBody ? deref(document, op.requestBody).content ?? {} : undefined;
      const json = content?.['application/json'];
      found.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        // The app pages' AppSession cookie is not the API key.
        keyed: security.length > 0 && security.every((s: Json) => 'ApiKey' in s),
        parameters,
        ...(json ? { body: { schema: json.schema, required: Boolean(deref(document, op.requestBody).required), mediaTypes: Object.keys(content) } } : {}),
        responses: Object.fromEntries(Object.entries<Json>(op.responses).map(([status, r]) => [status, deref(document, r)])),
      });
    }
  }
  return found;
}

/** A schema with its `$ref`s and `allOf`s followed (enough of JSON Schema for this contract). */
export function resolve(schema: Json): Json {
  let s = deref(document, schema);
  if (s.allOf) {
    const parts = s.allOf.map((p: Json) => resolve(p));
    const merged: Json = { ...s, allOf: undefined, type: s.type ?? parts.find((p: Json) => p.type)?.type, properties: {}, required: [...(s.required ?? [])] };
    for (const part of [...parts, s]) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
      if (part.additionalProperties !== undefined) merged.additionalProperties = part.additionalProperties;
      if (part.discriminator) merged.discriminator = part.discriminator;
    }
    delete merged.allOf;
    s = merged;
  }
  return s;
}

/** Addresses that reach nothing outside this machine: URLs the server might fetch are never real hosts. */
const loopbackUrl = fc.webSegment().map((segment) => `http://127.0.0.1:9/${encodeURIComponent(segment)}`);

const textOf = (s: Json) =>
  fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 24, Math.max(s.minLength ?? 0, 24)), unit: fc.constantFrom('a', 'Z', '0', ' ', 'ñ', 'é', '🙂', '-', '_', '.') });

/**
 * Strings that are not text, which every operation refuses (server/shared/requestLimits.ts):
 * text around a NUL, or around a lone surrogate (high or low, unpaired whatever surrounds
 * it: the text units hold only whole pairs). A URL cannot carry a lone surrogate (its bytes
 * are UTF-8), a JSON body can, as a `\ud800` escape.
 */
export const notText = {
  nul: fc.tuple(textOf({}), textOf({})).map(([a, b]) => `${a}\u0000${b}`),
  loneSurrogate: fc.tuple(textOf({}), fc.integer({ min: 0xd800, max: 0xdfff }), textOf({})).map(([a, unit, b]) => `${a}${String.fromCharCode(unit)}${b}`),
};

/** A UUID in the spellings a client may send (v1.yaml and v2.yaml, Dates and identifiers): lower case most often, else upper or mixed case, one object whatever the case. */
export const spelledUuid = (id: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(id) },
    { weight: 1, arbitrary: fc.constant(id.toUpperCase()) },
    { weight: 1, arbitrary: fc.array(fc.boolean(), { minLength: 36, maxLength: 36 }).map((upper) => [...id].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')) },
  );

/** Representations of a UUID that are not the string form `format: uuid` means: each the surface's 400. */
export const notUuidStringForms = (id: string): string[] => [`urn:uuid:${id}`, `URN:UUID:${id.toUpperCase()}`, `{${id}}`, id.replaceAll('-', '')];

const two = (n: number) => String(n).padStart(2, '0');
const instants = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true });

/**
 * RFC 3339 date-times the contract accepts (v1.yaml and v2.yaml, Dates and identifiers): UTC
 * as the service writes it, any offset up to ±23:59, `t` and `z` in lower case, any number of
 * fractional digits, and leap seconds (23:59:60 UTC on the last day of a month).
 */
export const dateTimeSpellings: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: instants.map((d) => d.toISOString()) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(instants, fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }), fc.stringMatching(/^(\.\d{1,12})?$/), fc.boolean())
      .map(([d, offset, fraction, lower]) => {
        const local = new Date(d.getTime() + offset * 60_000).toISOString().slice(0, 19);
        const sign = offset < 0 ? '-' : '+';
        const text = `${local}${fraction}${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
        return lower ? text.replace('T', 't') : text;
      }),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 2020, max: 2030 }), fc.integer({ min: 1, max: 12 }), fc.stringMatching(/^(\.\d{1,9})?$/), fc.constantFrom('Z', 'z')).map(([year, month, fraction, zone]) => {
      const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
      return `${year}-${two(month)}-${two(lastDay)}T23:59:60${fraction}${zone}`;
    }),
  },
);

/**
 * Date-times `format: date-time` spells (ajv-formats' fast check takes them) that name no
 * instant: each is the surface's 400, never read (server/shared/dateTime.ts).
 */
export const notAnInstant: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 13, max: 19 }).map((month) => `2026-${month}-01T00:00:00Z`),
  fc.integer({ min: 32, max: 39 }).map((day) => `2026-12-${day}T00:00:00Z`),
  fc.constantFrom('2026-02-29T00:00:00Z', '2026-04-31T12:00:00Z', '2026-12-00T00:00:00Z', '2026-00-10T00:00:00Z'),
  fc.integer({ min: 24, max: 29 }).map((hour) => `2026-12-01T${hour}:00:00Z`),
  fc.integer({ min: 60, max: 99 }).map((minute) => `2026-12-01T00:${minute}:00Z`),
  fc.tuple(fc.integer({ min: 24, max: 99 }), fc.integer({ min: 0, max: 99 })).map(([h, m]) => `2026-12-01T00:00:00+${h}:${two(m)}`),
  fc.integer({ min: 0, max: 22 }).map((hour) => `2026-12-31T${two(hour)}:59:60Z`),
  fc.integer({ min: 1, max: 30 }).map((day) => `2026-12-${two(day)}T23:59:60Z`),
);

/** Valid values of a schema. */
export function valueOf(schema: Json, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.oneOf) return fc.oneof(...s.oneOf.map((part: Json) => valueOf(part, depth + 1)));
  const types: string[] = Array.isArray(s.type) ? s.type : [s.type ?? (s.properties ? 'object' : 'string')];
  return fc.oneof(...types.map((type) => valueOfType(s, type, depth)));
}

function valueOfType(s: Json, type: string, depth: number): fc.Arbitrary<unknown> {
  const example = s.example ?? s.examples?.[0];
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : Math.max(min, 0) + 1000);
      return fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) });
    }
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'array': {
      const items = valueOf(s.items ?? {}, depth + 1);
      const maxLength = Math.min(s.maxItems ?? 3, Math.max(s.minItems ?? 0, 3));
      return s.uniqueItems ? fc.uniqueArray(items, { minLength: s.minItems ?? 0, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength: s.minItems ?? 0, maxLength });
    }
    case 'object': {
      const properties = Object.entries<Json>(s.properties ?? {}).filter(([, p]) => !resolve(p).readOnly);
      const required = new Set<string>(s.required ?? []);
      if (depth > 6) return fc.constant(Object.fromEntries(properties.filter(([k]) => required.has(k)).map(([k, p]) => [k, resolve(p).example ?? ''])));
      const record = fc.record(Object.fromEntries(properties.map(([k, p]) => [k, valueOf(p, depth + 1)])), { requiredKeys: properties.map(([k]) => k).filter((k) => required.has(k)) });
      if (typeof s.additionalProperties === 'object' && properties.length === 0) {
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom('a', 'b', 'c', 'x', '_') }), valueOf(s.additionalProperties, depth + 1), { maxKeys: 3 });
      }
      return record;
    }
    default: {
      // string
      if (s.format === 'uuid') return fc.uuid({ version: 4 }).chain(spelledUuid);
      if (s.format === 'date-time') return dateTimeSpellings;
      if (s.format === 'date') return fc.date({ min: new Date('1940-01-01T00:00:00Z'), max: new Date('2010-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (s.format === 'email') return fc.constantFrom('ana@example.com', 'x.y@partner.example');
      if (s.format === 'uri' || s.format === 'url' || s.format === 'uri-reference') return loopbackUrl;
      if (s.pattern) {
        const matching = fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? 200));
        return example !== undefined ? fc.oneof(fc.constant(example), matching) : matching;
      }
      return example !== undefined ? fc.oneof(fc.constant(example), textOf(s)) : textOf(s);
    }
  }
}

/** A value of another JSON type than the schema allows (undefined when every type is allowed). */
export function wrongTypeOf(schema: Json): unknown {
  const s = resolve(schema);
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ['object'] : s.enum ? [typeof s.enum[0]] : [];
  if (!types.length) return undefined;
  const candidates: [string, unknown][] = [['string', 'not-this'], ['integer', 7], ['boolean', true], ['object', { x: 1 }], ['array', [1]], ['null', null]];
  const allowed = new Set(types.flatMap((t) => (t === 'number' ? ['number', 'integer'] : [t])));
  return candidates.find(([t]) => !allowed.has(t))?.[1];
}

/** The documented response of a status, by exact code, then `4XX`, then `default`. */
export function documentedResponse(op: Operation, status: number): Json | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: false });
addFormats(ajv);
const documentId = 'https://contract.ramp.example/ramp-fuzz';
ajv.addSchema({ ...document, $id: documentId });
const validators = new Map<string, ValidateFunction>();

/** Where the response is not what the documents say: an empty list when it is. */
export function responseProblems(op: Operation, status: number, headers: Headers, text: string): string[] {
  const response = documentedResponse(op, status);
  if (!response) return [`status ${status} is not documented for ${op.operationId} (${Object.keys(op.responses).join(', ')})`];
  const problems: string[] = [];
  for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
    if (deref(document, header).required && !headers.has(name)) problems.push(`required header ${name} is missing`);
  }
  const content = response.content as Json | undefined;
  if (!content) {
    if (text.length > 0) problems.push(`status ${status} documents no body, got ${text.slice(0, 80)}`);
    return problems;
  }
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim();
  const mediaType = Object.keys(content).find((m) => m === type);
  if (!mediaType) return [...problems, `content type ${type || '(none)'} is not documented for ${status} (${Object.keys(content).join(', ')})`];
  if (!/json/.test(mediaType)) return problems;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [...problems, `the ${mediaType} body is not JSON: ${text.slice(0, 80)}`];
  }
  const key = schemaPointer(op, status, mediaType);
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `${documentId}${key}` });
    validators.set(key, validate);
  }
  if (!validate(body)) problems.push(`body does not match the ${status} schema: ${ajv.errorsText(validate.errors)}; body ${text.slice(0, 300)}`);
  return problems;
}

/** The JSON pointer of a response's schema, through its `$ref` when the response is a component. */
function schemaPointer(op: Operation, status: number, mediaType: string): string {
  const escape = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');
  const raw = document.paths[op.path][op.method.toLowerCase()].responses;
  const key = String(status) in raw ? String(status) : `${String(status)[0]}XX` in raw ? `${String(status)[0]}XX` : 'default';
  const node = raw[key];
  const base = typeof node.$ref === 'string' ? node.$ref : `#/paths/${escape(op.path)}/${op.method.toLowerCase()}/responses/${key}`;
  return `${base}/content/${escape(mediaType)}/schema`;
}
