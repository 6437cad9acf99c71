/**
 * What every request must be, beyond each operation's schema: checked once for all
 * operations, before anything is looked up or stored.
 *
 * Text. Every string a request carries (body values and property names, JSON or form; query
 * and path parameters; the claims of a JWT read before its issuer is looked up) must be
 * well-formed Unicode without U+0000. PostgreSQL cannot store or even compare a NUL in text
 * (SQLite can), and a lone surrogate (`"\ud800"` in JSON) has no UTF-8 form: each engine
 * stores a different replacement, so the 201 would echo one string and every later read and
 * webhook show another, and RFC 8785 canonical JSON, which the webhook signatures are made
 * over, is only defined for well-formed strings. Refusing both keeps what a client writes
 * what it reads, the same on both engines. Headers need no check here: Node's HTTP parser
 * refuses a NUL in a header with a 400 before the app, and a header value is Latin-1 text,
 * which has no surrogates.
 *
 * Shape. The body is already bounded in bytes (`bodyLimitBytes`), but checking a long array against the
 * contract costs more than linear time (every item's errors are gathered), so one 96 kB body
 * of empty objects could hold the process for minutes. The longest list the contract takes
 * has 20 items.
 */
import { escapeSegment } from './jsonPointer.ts';
import { Problem, type FieldError } from './problems.ts';

export const maxArrayItems = 100;

/** The largest request body, JSON or form: no request of the contract comes near it (PayloadTooLarge.yaml). */
export const bodyLimitBytes = 256 * 1024;

/** Why a string is refused (`<field> <reason>` reads as a sentence), or undefined when it is accepted. */
export function refusedText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (!text.isWellFormed()) return 'must be well-formed Unicode: it contains a lone surrogate (an unpaired \\uD800-\\uDFFF escape)';
  return undefined;
}


/**
 * The first refused part of a parsed value, as a field error with its JSON Pointer: an array
 * longer than `limit`, a refused string, or a refused property name (pointed at by its
 * object, so the answer never repeats the bad text). Undefined when all of it is accepted.
 */
export function refusedValue(value: unknown, limit = maxArrayItems): FieldError | undefined {
  // Iterative, so a deeply nested body cannot exhaust the stack here either.
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [item, pointer] = stack.pop()!;
    if (typeof item === 'string') {
      const reason = refusedText(item);
      if (reason) return { pointer: pointer || '/', detail: reason };
    } else if (Array.isArray(item)) {
      if (item.length > limit) return { pointer: pointer || '/', detail: `must not have more than ${limit} items` };
      item.forEach((element, i) => stack.push([element, `${pointer}/${i}`]));
    } else if (item && typeof item === 'object') {
      for (const [key, element] of Object.entries(item)) {
        const reason = refusedText(key);
        if (reason) return { pointer: pointer || '/', detail: `has a property name that ${reason}` };
        stack.push([element, `${pointer}/${escapeSegment(key)}`]);
      }
    }
  }
  return undefined;
}

/**
 * Why the first refused query or path parameter is refused, naming it as the contract does
 * (`The query parameter email must not contain …`); undefined when all are accepted.
 */
export function refusedParameter(where: 'query' | 'path', parameters: Record<string, unknown> | undefined): string | undefined {
  for (const [name, value] of Object.entries(parameters ?? {})) {
    const nameReason = refusedText(name);
    if (nameReason) return `A ${where} parameter name ${nameReason}.`;
    // A repeated query parameter is a list of strings (Express's simple query parser).
    const values = Array.isArray(value) ? value : [value];
    for (const text of values) {
      const reason = typeof text === 'string' ? refusedText(text) : undefined;
      if (reason) return `The ${where} parameter ${name} ${reason}.`;
    }
  }
  return undefined;
}

/**
 * The query string's names and values as the client sent them. Checked on the raw string,
 * not on `req.query`: the validator reads brackets in a name as an object's keys
 * (`?[a<NUL>=1`), and what it cannot read that way it leaves out, NUL and all.
 */
export function refusedQueryString(url: string): string | undefined {
  const start = url.indexOf('?');
  if (start === -1) return undefined;
  // Without a prototype: a client's `__proto__` or `constructor` is a name like any other.
  const parameters: Record<string, string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(url.slice(start + 1))) (parameters[name] ??= []).push(value);
  return refusedParameter('query', parameters);
}

/**
 * A parameter refused as text: `invalid-request`, knowing where the parameter was, so a
 * route whose documented 400 names the field (v1SubmitCustomerKyc's `details`) can say it.
 */
export class RefusedParameter extends Problem {
  constructor(
    readonly where: 'query' | 'path',
    detail: string,
  ) {
    super('invalid-request', detail);
  }
}

/**
 * The request's first refused parameter: its path parameters (as decoded), then its query
 * string as sent, then the text of its integer query parameters (`integers`, by name).
 */
export function refusedParameters(pathParameters: Record<string, unknown>, url: string, integers: readonly string[] = []): RefusedParameter | undefined {
  const inPath = refusedParameter('path', pathParameters);
  if (inPath) return new RefusedParameter('path', inPath);
  const inQuery = refusedQueryString(url) ?? refusedIntegerText(url, integers);
  return inQuery ? new RefusedParameter('query', inQuery) : undefined;
}

/**
 * An integer query parameter is written in decimal digits (`max_age=30`, `pageSize=-1` is a
 * range error, not a spelling one). The validator reads the text as a number before it checks
 * the type, so `0.0`, `1e2`, `+5` or ` 5` would pass as the integers they name, though the
 * contract's integer is none of those texts.
 */
export function refusedIntegerText(url: string, integers: readonly string[]): string | undefined {
  const start = url.indexOf('?');
  if (start === -1 || integers.length === 0) return undefined;
  for (const [name, value] of new URLSearchParams(url.slice(start + 1))) {
    if (integers.includes(name) && !/^-?[0-9]+$/.test(value)) return `The query parameter ${name} must be an integer written in decimal digits, not ${JSON.stringify(value.slice(0, 40))}.`;
  }
  return undefined;
}

/** The names of an operation's integer query parameters, as the validator's matched operation gives them (references resolved). */
export function integerQueryNames(operation: { parameters?: unknown } | undefined): string[] {
  const parameters = Array.isArray(operation?.parameters) ? (operation.parameters as { in?: unknown; name?: unknown; schema?: { type?: unknown } }[]) : [];
  return parameters.filter((p) => p.in === 'query' && p.schema?.type === 'integer' && typeof p.name === 'string').map((p) => p.name as string);
}
