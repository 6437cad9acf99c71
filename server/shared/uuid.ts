/**
 * One UUID, one spelling. The contract's `format: uuid` is RFC 9562's string form (§4),
 * 8-4-4-4-12 hexadecimal digits, which RFC 9562 reads in either case: an upper-case spelling
 * names the same UUID as the lower-case one. The service reads every UUID a client sends in
 * its canonical spelling, lower case (app.ts: the request validator's `uuid` format and its
 * deserializer), so `X` and upper-case `X` name one organization, order or key, and answers
 * and stored rows only ever hold lower case (the Dates and identifiers sections of v1.yaml and
 * v2.yaml).
 *
 * The URN (`urn:uuid:…`), braces and a missing hyphen are other representations, not the
 * string form: ajv-formats accepts the URN as a `uuid`, but JSON Schema validators elsewhere
 * (partners' generated clients, Schemathesis) do not, so the service refuses them with the
 * surface's 400 rather than read them as a UUID a partner's tools would call invalid.
 */

const stringForm = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** RFC 9562's string form, in either case: the request and response validators' `uuid` format. */
export const isUuid = (text: string) => stringForm.test(text);

/** The canonical spelling of a UUID (lower case), or undefined when the text is not its string form. */
export function canonicalUuid(text: string): string | undefined {
  return isUuid(text) ? text.toLowerCase() : undefined;
}
