/**
 * Adds an `x-codeSamples` TypeScript sample to every operation of a bundled document,
 * written from the operation itself (method, path, parameters, first request example),
 * so Redoc shows how to call it with the client and the sample never drifts.
 */
type Json = Record<string, any>;

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;
const packageName = '@ramp/client';

function resolveRef(document: Json, node: Json | undefined): Json | undefined {
  if (!node || typeof node.$ref !== 'string') return node;
  const path = node.$ref.replace(/^#\//, '').split('/');
  return resolveRef(document, path.reduce<Json | undefined>((at, key) => at?.[key], document));
}

function firstExample(document: Json, media: Json | undefined): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0] as Json | undefined;
  return resolveRef(document, first)?.value;
}

function placeholder(parameter: Json): string {
  const example = parameter.example ?? parameter.schema?.example ?? parameter.schema?.default;
  if (example !== undefined) return JSON.stringify(example);
  return `'<${parameter.name}>'`;
}

function indent(text: string, spaces: number) {
  return text.replaceAll('\n', `\n${' '.repeat(spaces)}`);
}

export function sampleFor(document: Json, path: string, method: string, operation: Json, isPublic: boolean): string {
  const parameters = [...(operation.parameters ?? [])]
    .map((p: Json) => resolveRef(document, p)!)
    .filter((p) => p.in === 'path' || p.in === 'query');
  const options: string[] = [];
  const groups = ['path', 'query']
    .map((where) => {
      const inGroup = parameters.filter((p) => p.in === where && (where === 'path' || p.required));
      if (inGroup.length === 0) return '';
      return `${where}: { ${inGroup.map((p) => `${JSON.stringify(p.name).replace(/^"([A-Za-z_$][\w$]*)"$/, '$1')}: ${placeholder(p)}`).join(', ')} }`;
    })
    .filter(Boolean);
  if (groups.length) options.push(`params: { ${groups.join(', ')} }`);
  const body = resolveRef(document, operation.requestBody);
  const media = body?.content?.['application/json'] ?? Object.values(body?.content ?? {})[0];
  const example = firstExample(document, media as Json | undefined);
  if (example !== undefined) options.push(`body: ${indent(JSON.stringify(example, null, 2), 2)}`);
  const call = `ramp.${method.toUpperCase()}('${path}'${options.length ? `, {\n  ${options.join(',\n  ')},\n}` : ''})`;
  const setup = isPublic
    ? `const ramp = createRampClient({ baseUrl: 'https://api.sandbox.ramp.example' });`
    : `const ramp = createRampClient({\n  baseUrl: 'https://api.sandbox.ramp.example',\n  apiKey: process.env.RAMP_API_KEY!, // api_sand:{key_id}:{org_id}\n});`;
  return `import { createRampClient } from '${packageName}';

${setup}

const { data, error } = await ${call};
if (error) throw error; // a typed problem (v2), or the surface's own error body
console.log(data);
`;
}

export function addCodeSamples(document: Json): Json {
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of methods) {
      const operation = item[method];
      if (!operation) continue;
      const security = operation.security ?? document.security ?? [];
      const isPublic = security.length === 0 || security.every((s: Json) => Object.keys(s).length === 0);
      operation['x-codeSamples'] = [
        { lang: 'TypeScript', label: 'TypeScript (@ramp/client)', source: sampleFor(document, path, method, operation, isPublic) },
      ];
    }
  }
  return document;
}
