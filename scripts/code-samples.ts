/**
 * Adds `x-codeSamples` to every operation of a bundled document in five languages: TypeScript
 * (the client, @ramp/client) and curl, Python, Go and Java (scripts/code-samples-languages.ts),
 * each written from the operation itself (method, path, parameters, first request example),
 * so Redoc shows how to call it and the samples never drift. Every sample calls the local
 * sandbox (`npm start`) with the key in `RAMP_API_KEY`. Redoc shows a sample only in a
 * language its `codeSamples.languages` lists: redocly.yaml lists them all
 * (test/docs/redoc.test.ts opens an operation and finds each), test/client/samples.test.ts
 * type-checks the TypeScript ones, and test/samples/codeSamples.test.ts runs every sample of
 * every language against a sandbox.
 *
 * Each webhook gets the webhook verification recipes instead (docs-webhooks.ts), in
 * TypeScript, Python, Go and Java.
 *
 * Also writes the list of public operations the client reads (`publicOperationsModule`). The
 * quickstart page (scripts/docs-quickstart.ts) shows its steps with these same samplers.
 */
import { operationMethods as methods } from '../server/shared/contract.ts';
import { samplers, sampleLanguages, spliced, type Json, type SampleRequest } from './code-samples-languages.ts';
import { verificationSamples } from './docs-webhooks.ts';

const packageName = '@ramp/client';
export const codeSampleLanguage = { lang: 'TypeScript', label: 'TypeScript (@ramp/client)' } as const;
/** Where every sample sends its request: the local sandbox `npm start` serves (docs/configuration.md, PORT). */
export const sampleBaseUrl = 'http://localhost:3000';

export function resolveRef(document: Json, node: Json | undefined): Json | undefined {
  if (!node || typeof node.$ref !== 'string') return node;
  const path = node.$ref
    .replace(/^#\//, '')
    .split('/')
    .map((part: string) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  return resolveRef(document, path.reduce<Json | undefined>((at, key) => at?.[key], document));
}

function firstExample(document: Json, media: Json | undefined): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0] as Json | undefined;
  return resolveRef(document, first)?.value;
}

/** A parameter's documented example (`example`, its schema's, its first named one, its default), if any. */
function exampleOf(document: Json, parameter: Json): unknown {
  const named = Object.values<Json>(parameter.examples ?? {}).map((e) => resolveRef(document, e)?.value)[0];
  return parameter.example ?? parameter.schema?.example ?? named ?? parameter.schema?.default;
}

/** A string literal, each `${NAME}` in it read from the environment as the key is (the quickstart's ids). */
const tsString = (text: string) => spliced(text, JSON.stringify, (name) => `process.env.${name}!`, ' + ');

/** JSON text with its strings that read a `${NAME}` written as tsString writes them. */
const tsJson = (text: string) => text.replace(/"(?:[^"\\]|\\.)*\$\{(?:[^"\\]|\\.)*"/g, (token) => tsString(JSON.parse(token) as string));

function placeholder(document: Json, parameter: Json): string {
  const example = exampleOf(document, parameter);
  if (example !== undefined) return tsJson(JSON.stringify(example));
  return `'<${parameter.name}>'`;
}

function indent(text: string, spaces: number) {
  return text.replaceAll('\n', `\n${' '.repeat(spaces)}`);
}

const property = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

/** Path-item parameters, overridden by the operation's own (OpenAPI 3.1 section 4.8.9.1). */
function parametersOf(document: Json, item: Json, operation: Json): Json[] {
  const byKey = new Map<string, Json>();
  for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
    const parameter = resolveRef(document, raw)!;
    byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}

/** Takes no API key: `security: []`, or only schemes of its own (the app pages' `AppSession` cookie). */
export function isPublicOperation(document: Json, operation: Json): boolean {
  const security = operation.security ?? document.security ?? [];
  return security.length === 0 || !security.every((s: Json) => 'ApiKey' in s);
}

/** True when no success response has a JSON body (HTML pages): the client must read text. */
function answersText(document: Json, operation: Json): boolean {
  const success = Object.entries<Json>(operation.responses ?? {}).filter(([status]) => /^2/.test(status));
  const types = success.flatMap(([, response]) => Object.keys(resolveRef(document, response)?.content ?? {}));
  return types.length > 0 && !types.some((type) => /json/.test(type));
}

export function sampleFor(document: Json, path: string, method: string, operation: Json, isPublic: boolean, item: Json = {}): string {
  const setup = isPublic
    ? `const ramp = createRampClient({ baseUrl: '${sampleBaseUrl}' });`
    : `const ramp = createRampClient({\n  baseUrl: '${sampleBaseUrl}',\n  apiKey: process.env.RAMP_API_KEY!, // api_sand:{key_id}:{org_id}\n});`;
  if (operation.operationId === 'createToken') {
    // The token endpoint takes form fields: the client's helpers send them.
    return `import { createRampClient } from '${packageName}';

${setup}

// Throws RampOAuthError (error: invalid_grant, …) when the grant is refused.
const tokens = await ramp.exchangeJwt(process.env.PARTNER_JWT!); // a JWT your issuer signed
const renewed = await ramp.refresh(tokens.refresh_token); // the refresh token is used up: keep the new one
console.log(renewed.access_token, renewed.expires_in);
`;
  }
  const parameters = parametersOf(document, item, operation).filter((p) => p.in === 'path' || p.in === 'query');
  const options: string[] = [];
  const groups = ['path', 'query']
    .map((where) => {
      const inGroup = parameters.filter((p) => p.in === where && (where === 'path' || p.required));
      if (inGroup.length === 0) return '';
      return `${where}: { ${inGroup.map((p) => `${property(p.name)}: ${placeholder(document, p)}`).join(', ')} }`;
    })
    .filter(Boolean);
  if (groups.length) options.push(`params: { ${groups.join(', ')} }`);
  const body = resolveRef(document, operation.requestBody);
  const media = body?.content?.['application/json'] ?? Object.values(body?.content ?? {})[0];
  const example = firstExample(document, media as Json | undefined);
  if (example !== undefined) options.push(`body: ${indent(tsJson(JSON.stringify(example, null, 2)), 2)}`);
  if (answersText(document, operation)) options.push(`parseAs: 'text'`);
  const call = `ramp.${method.toUpperCase()}('${path}'${options.length ? `, {\n  ${options.join(',\n  ')},\n}` : ''})`;
  return `import { createRampClient, RampError } from '${packageName}';

${setup}

const { data, error, response } = await ${call};
console.log(response.status);
// A RampProblem on v2 (slug, status, detail, …); RampApiError on v1 and lookup.
if (!response.ok) throw RampError.from(error, response);
console.log(data);
`;
}

/** A parameter's documented example as text: `example`, its schema's, its first named one, or `<name>`. */
export function exampleText(document: Json, parameter: Json): string {
  const example = exampleOf(document, parameter);
  return example === undefined ? `<${parameter.name}>` : String(example);
}

/** The documented error body's shape, from the media types (and fields) of the 4xx answers. */
function problemShape(document: Json, operation: Json): SampleRequest['problem'] {
  const contents = Object.entries<Json>(operation.responses ?? {})
    .filter(([status]) => /^4/.test(status))
    .flatMap(([, response]) => Object.entries<Json>(resolveRef(document, response)?.content ?? {}));
  if (contents.some(([type]) => type === 'application/problem+json')) return 'problem';
  const json = contents.filter(([type]) => /json/.test(type)).map(([, media]) => resolveRef(document, media.schema) ?? {});
  if (json.some((schema) => schema.properties?.error_description)) return 'oauth';
  return json.length ? 'error' : 'text';
}

/** What every language's sample of an operation sends: one description, from the operation's documented example. */
export function requestOf(document: Json, path: string, method: string, operation: Json, item: Json = {}): SampleRequest {
  const parameters = parametersOf(document, item, operation);
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
    // A `<name>` placeholder and a `${NAME}` read from the environment stay as written.
    return parameter ? encodeURIComponent(exampleText(document, parameter)).replace(/%3C(.*)%3E/, '<$1>').replace(/%24%7B([A-Z][A-Z0-9_]*)%7D/g, '${$1}') : `<${name}>`;
  });
  const query = new URLSearchParams(parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, exampleText(document, p)])).toString();
  const body = resolveRef(document, operation.requestBody);
  const media = body?.content?.['application/json'] ?? Object.values(body?.content ?? {})[0];
  const example = firstExample(document, media as Json | undefined);
  const success = Object.entries<Json>(operation.responses ?? {}).filter(([status]) => /^2/.test(status));
  const answersNothing = success.every(([, response]) => !resolveRef(document, response)?.content);
  return {
    operationId: operation.operationId,
    method: method.toUpperCase(),
    url: `${sampleBaseUrl}${filled}${query ? `?${query}` : ''}`,
    apiKey: !isPublicOperation(document, operation),
    ...(example !== undefined ? { body: example } : {}),
    answers: answersNothing ? 'empty' : answersText(document, operation) ? 'text' : 'json',
    problem: problemShape(document, operation),
  };
}

/** An operation's samples in the five languages, as `x-codeSamples` lists them. */
export function codeSamplesOf(document: Json, path: string, method: string, operation: Json, item: Json = {}): { lang: string; label: string; source: string }[] {
  const request = requestOf(document, path, method, operation, item);
  return [
    { ...codeSampleLanguage, source: sampleFor(document, path, method, operation, isPublicOperation(document, operation), item) },
    ...sampleLanguages.map((language) => ({ ...language, source: samplers[language.lang](request) })),
  ];
}

export function addCodeSamples(document: Json): Json {
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of methods) {
      const operation = item[method];
      if (operation) operation['x-codeSamples'] = codeSamplesOf(document, path, method, operation, item);
    }
  }
  // A webhook is a request the service sends: what a receiver writes is the check of its signature.
  const recipes = verificationSamples();
  for (const item of Object.values<Json>(document.webhooks ?? {})) {
    for (const method of methods) if (item[method]) item[method]['x-codeSamples'] = recipes;
  }
  return document;
}

/** generated/types/public-operations.ts: what the client sends without the API key. */
export function publicOperationsModule(document: Json, header: string): string {
  const entries: string[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    const open = methods.filter((m) => item[m] && isPublicOperation(document, item[m])).map((m) => JSON.stringify(m.toUpperCase()));
    if (open.length) entries.push(`  ${JSON.stringify(path)}: [${open.join(', ')}],`);
  }
  return `// ${header}
/** The operations that take no API key (\`security: []\`, or the app pages' session cookie): path template → methods. */
export const publicOperations: Readonly<Record<string, readonly string[]>> = {
${entries.join('\n')}
};
`;
}
