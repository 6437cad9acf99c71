/**
 * The contract's schemas as compiled JSON Schema 2020-12 validators (ajv), for the checks the
 * server makes itself rather than through express-openapi-validator: every field error of a
 * verification submission at once (features/verification/input.ts) and the Order bodies
 * GET /orders lists, checked when stored (features/orders/presenters.ts `orderBody`).
 *
 * One ajv per loaded contract document, holding the whole document, so a schema is reached by
 * its JSON pointer (`#/components/schemas/Order`, or an operation's response schema) with its
 * references resolved in the document; each is compiled on first use and kept.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { components } from '../../generated/types/ramp.ts';
import { escapeSegment, segmentsOf } from './jsonPointer.ts';
import { isDateTime } from './dateTime.ts';
import { isUuid } from './uuid.ts';

// ajv-formats is CommonJS: its default export is the plugin itself.
const addFormats = formats as unknown as typeof formats.default;

type Json = Record<string, any>;

/** A component schema's name, as the contract spells it: another fails `tsc`. */
export type SchemaName = keyof components['schemas'] & string;

const documentId = 'https://contract.ramp.example/ramp';
const compiled = new WeakMap<object, (pointer: string) => ValidateFunction>();

/** The validator of the schema at `pointer` (a JSON pointer into the document, `#/…`). */
export function schemaValidator(document: Json, pointer: string): ValidateFunction {
  let get = compiled.get(document);
  if (!get) {
    // Every error collected (a submission lists them all); formats checked as the request and
    // response validator checks them; OpenAPI's `discriminator` is a hint: its oneOf decides.
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, discriminator: false });
    addFormats(ajv);
    ajv.addFormat('date-time', isDateTime);
    ajv.addFormat('uuid', isUuid);
    ajv.addSchema({ ...document, $id: documentId });
    get = (at) => {
      const validate = ajv.getSchema(`${documentId}${at}`);
      if (!validate) throw new Error(`the contract has no schema at ${at}`);
      return validate;
    };
    compiled.set(document, get);
  }
  return get(pointer);
}

/** The errors of a validator's last refusal, in one line: `/status must be equal to one of the allowed values; …`. */
export const refusal = (validate: ValidateFunction) => (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`).join('; ');

const componentsPrefix = '#/components/schemas/';
/** `#/components/schemas/{name}`. */
export const componentSchema = (name: SchemaName) => `${componentsPrefix}${name}`;

/** The JSON pointer of an operation's response schema: `#/paths/~1orders/get/responses/200/content/application~1json/schema`. */
export function responseSchema(path: string, method: string, status: number | string, mediaType = 'application/json'): string {
  return `#/${['paths', path, method, 'responses', String(status), 'content', mediaType, 'schema'].map(escapeSegment).join('/')}`;
}

const pointed = (document: Json, pointer: string): Json | undefined => segmentsOf(pointer).reduce<Json | undefined>((node, key) => node?.[key], document);

const componentOf = (ref: unknown) => (typeof ref === 'string' && ref.startsWith(componentsPrefix) ? ref.slice(componentsPrefix.length) : undefined);

/** The component schema a response schema is (`Order` for getOrder's 200); undefined when it is not one. */
export function answeredSchema(document: Json, pointer: string): string | undefined {
  return componentOf(pointed(document, pointer)?.$ref);
}

/**
 * The component schema a list response's `items` are (`Order` for OrderPage), following
 * references and the parts of an allOf; undefined when the schema lists no items of a
 * component schema.
 */
export function listedItemSchema(document: Json, pointer: string): string | undefined {
  const find = (schema: Json | undefined): string | undefined => {
    if (!schema) return undefined;
    if (typeof schema.$ref === 'string') return find(pointed(document, schema.$ref));
    const listed = componentOf(schema.properties?.items?.items?.$ref);
    if (listed) return listed;
    for (const part of schema.allOf ?? []) {
      const found = find(part);
      if (found) return found;
    }
    return undefined;
  };
  return find(pointed(document, pointer));
}
