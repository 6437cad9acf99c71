import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedDeprecated, seedOperations, seedProblems, seedWebhooks } from './seed-operations.ts';
import { bundleNames, deref, loadBundle, operationsOf, reachableRefs, root, surfaces, type Json } from '../support/documents.ts';

const bundles = Object.fromEntries(surfaces.map((s) => [s, loadBundle(s)])) as Record<(typeof surfaces)[number], Json>;
const joined = loadBundle('ramp');
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const pascal = (slug: string) => slug.split('-').map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');

describe('the operations the service publishes (x-provenance: seed)', () => {
  for (const surface of surfaces) {
    it(`${surface} holds every seed operation at its exact path and method, marked seed`, () => {
      const byKey = new Map(operationsOf(bundles[surface]).map((o) => [key(o.method, o.path), o.operation]));
      for (const wanted of seedOperations[surface]) {
        expect(byKey.has(wanted), `${wanted} is missing from ${surface}`).toBe(true);
        expect(byKey.get(wanted)!['x-provenance'], wanted).toBe('seed');
      }
    });
  }

  it('counts 40 operations: 3 auth, 7 lookup, 18 v1, 12 v2', () => {
    expect(Object.values(seedOperations).flat()).toHaveLength(40);
    const all = new Set(operationsOf(joined).map((o) => key(o.method, o.path)));
    for (const wanted of Object.values(seedOperations).flat()) expect(all).toContain(wanted);
  });

  it('marks deprecated what the service deprecates, and nothing else', () => {
    const deprecated = operationsOf(joined).filter((o) => o.operation.deprecated).map((o) => key(o.method, o.path));
    expect(deprecated.sort()).toEqual([...seedDeprecated].sort());
  });
});

describe('every operation', () => {
  const all = surfaces.flatMap((s) => operationsOf(bundles[s]).map((o) => ({ ...o, surface: s })));

  it('has an operationId unique across the four documents', () => {
    const ids = all.map((o) => o.operation.operationId);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('says where it comes from (x-provenance seed or designed)', () => {
    const unmarked = all.filter((o) => !['seed', 'designed'].includes(o.operation['x-provenance']));
    expect(unmarked.map((o) => key(o.method, o.path))).toEqual([]);
  });

  it('has a request example for each body and a response example for each response with content', () => {
    const missing: string[] = [];
    for (const { method, path, operation, surface } of all) {
      const doc = bundles[surface];
      const body = operation.requestBody && deref(doc, operation.requestBody);
      for (const [type, media] of Object.entries<Json>(body?.content ?? {})) {
        if (!media.example && !Object.keys(media.examples ?? {}).length) missing.push(`${key(method, path)} request ${type}`);
      }
      for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
        for (const [type, media] of Object.entries<Json>(deref(doc, response).content ?? {})) {
          if (!media.example && !Object.keys(media.examples ?? {}).length) missing.push(`${key(method, path)} ${status} ${type}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('in v2 documents 401 as problem details, with Allow on 405 and Retry-After on 429', () => {
    for (const { path, method, operation, webhook } of operationsOf(bundles.v2)) {
      // The sandbox console's page and files take no key (security: []): nothing to refuse with 401.
      if (webhook || (Array.isArray(operation.security) && operation.security.length === 0)) continue;
      const responses = operation.responses;
      const label = key(method, path);
      expect(responses['401'], `${label} documents 401`).toBeDefined();
      expect(Object.keys(deref(bundles.v2, responses['401']).content), label).toEqual(['application/problem+json']);
      if (responses['405']) expect(deref(bundles.v2, responses['405']).headers?.Allow, label).toBeDefined();
      if (responses['429']) expect(deref(bundles.v2, responses['429']).headers?.['Retry-After'], label).toBeDefined();
      for (const [status, response] of Object.entries<Json>(responses)) {
        if (Number(status) >= 400) expect(Object.keys(deref(bundles.v2, response).content ?? {}), `${label} ${status}`).toEqual(['application/problem+json']);
      }
    }
  });

  it('documents 503 with Retry-After wherever the database is read: behind a key or a session, and at sign-in', () => {
    // Sign-in looks the JWT's issuer or the refresh token up; the lookups and the launch page read no database.
    const signIn = ['createToken', 'launchSession'];
    const missing: string[] = [];
    for (const surface of ['v1', 'v2', 'auth'] as const) {
      for (const { path, method, operation, webhook } of operationsOf(bundles[surface])) {
        const security = operation.security ?? bundles[surface].security ?? [];
        if (webhook || (security.length === 0 && !signIn.includes(operation.operationId))) continue;
        const unavailable = operation.responses['503'] && deref(bundles[surface], operation.responses['503']);
        if (!unavailable?.headers?.['Retry-After']) missing.push(key(method, path));
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('the webhooks', () => {
  for (const surface of ['v1', 'v2'] as const) {
    it(`${surface} documents its ${seedWebhooks[surface].length} events, each signed with X-Signature`, () => {
      const webhooks = bundles[surface].webhooks ?? {};
      expect(Object.keys(webhooks).sort()).toEqual([...seedWebhooks[surface]].sort());
      for (const [name, item] of Object.entries<Json>(webhooks)) {
        const parameters = (item.post.parameters ?? []).map((p: Json) => deref(bundles[surface], p));
        const signature = parameters.find((p: Json) => p.in === 'header' && p.name === 'X-Signature');
        expect(signature, name).toBeDefined();
        expect(signature.required, name).toBe(true);
        expect(item.post.description, name).toMatch(/RFC 8785/);
      }
    });
  }
});

describe('the problem types', () => {
  const schemas = joined.components.schemas as Json;

  it('has one schema per seed slug with its fixed type, title and status', () => {
    for (const [slug, status] of Object.entries(seedProblems)) {
      const schema = schemas[`${pascal(slug)}Problem`];
      expect(schema, slug).toBeDefined();
      // One flat object (openapi-zod-client cannot discriminate allOf intersections).
      expect(schema.allOf).toBeUndefined();
      const fixed = schema;
      expect(fixed.required).toEqual(expect.arrayContaining(['type', 'title', 'status', 'detail', 'instance']));
      expect(fixed.properties.type.enum).toEqual([`https://docs.ramp.example/errors/${slug}`]);
      expect([fixed.properties.status.minimum, fixed.properties.status.maximum]).toEqual([status, status]);
      expect(fixed.properties.title.enum).toEqual([expect.any(String)]);
    }
  });

  it('makes every slug reachable from some v2 operation', () => {
    const v2 = bundles.v2;
    const reached = new Set<string>();
    for (const { operation } of operationsOf(v2)) {
      for (const ref of reachableRefs(v2, operation.responses ?? {})) reached.add(ref);
    }
    const unreached = Object.keys(seedProblems).filter((slug) => !reached.has(`#/components/schemas/${pascal(slug)}Problem`));
    expect(unreached).toEqual([]);
  });
});

describe('the source files', () => {
  const files = readdirSync(join(root, 'openapi'), { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile() && f.name.endsWith('.yaml'))
    .map((f) => join(f.parentPath, f.name));

  it('use 3.1 nullables and one schema per file (no `nullable:`, no `$defs`)', () => {
    const offending = files.filter((file) => /^\s*(nullable|\$defs):/m.test(readFileSync(file, 'utf8')));
    expect(offending).toEqual([]);
  });

  it('give every component schema its provenance', () => {
    const unmarked = Object.entries<Json>(joined.components.schemas)
      .filter(([, schema]) => !['seed', 'designed'].includes(schema['x-provenance']))
      .map(([name]) => name);
    expect(unmarked).toEqual([]);
  });

  it('write decimal amounts as strings, never numbers', () => {
    const numeric: string[] = [];
    const visit = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const properties = (node as Json).properties as Json | undefined;
      for (const [name, schema] of Object.entries<Json>(properties ?? {})) {
        const types = [schema.type].flat();
        if (/amount|cost|price|fee|exchange_rate|^rate$/i.test(name) && (types.includes('number') || types.includes('integer'))) {
          numeric.push(`${at}.${name}`);
        }
      }
      for (const [k, v] of Object.entries(node)) visit(v, `${at}/${k}`);
    };
    visit(joined, '#');
    expect(numeric).toEqual([]);
  });
});

describe('fixed values', () => {
  it('are single-value enums, never `const`, in every schema (client generators drop or reject `const`)', () => {
    const consts: string[] = [];
    const visit = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      if ('const' in node && at.includes('/schemas/')) consts.push(at);
      for (const [k, v] of Object.entries(node)) visit(v, `${at}/${k}`);
    };
    visit(joined.components, '#/components');
    expect(consts).toEqual([]);
  });
});

describe('the form bodies of /auth/token and /auth/launch', () => {
  // A form has no union, and neither has the JSON body (a Kotlin client cannot build a oneOf:
  // docs/clients.md): both are one flat object with the grants' fields, each holding every
  // grant to its variant with the same if/then, so both are answered alike. The three must not
  // drift apart.
  for (const path of ['/auth/token', '/auth/launch']) {
    it(`${path}: the form and JSON schemas have the fields of the grants' variants, as they are there, and the same branches`, () => {
      const content = joined.paths[path].post.requestBody.content;
      const form = deref(joined, content['application/x-www-form-urlencoded'].schema);
      const json = deref(joined, content['application/json'].schema);
      const variants: Json[] = [json.then, json.else.then].map((v: Json) => deref(joined, v));
      expect(variants.map((v) => v.properties.grant_type.enum)).toEqual([[json.if.properties.grant_type.enum[0]], [json.else.if.properties.grant_type.enum[0]]]);
      const fields = new Set(variants.flatMap((v) => Object.keys(v.properties)));
      const branches = ({ if: when, then, else: otherwise }: Json) => ({ if: when, then, else: otherwise });
      expect(branches(form)).toEqual(branches(json));
      for (const body of [form, json]) {
        expect(body.oneOf).toBeUndefined();
        expect(body.type).toBe('object');
        expect(body.properties.grant_type.enum).toEqual(variants.flatMap((v) => v.properties.grant_type.enum));
        expect(new Set(Object.keys(body.properties))).toEqual(fields);
        for (const variant of variants) {
          for (const [name, schema] of Object.entries<Json>(variant.properties)) {
            if (name === 'grant_type') continue;
            const { description: _a, ...rule } = schema;
            const { description: _b, 'x-provenance': _c, ...bodyRule } = body.properties[name];
            const { 'x-provenance': _d, ...variantRule } = rule;
            expect(bodyRule, `${name} of ${variant.title}`).toEqual(variantRule);
          }
        }
        // Required in every variant, so required in the flat object; the rest is checked by grant_type.
        const always = [...fields].filter((name) => variants.every((v) => v.required.includes(name)));
        expect([...body.required].sort()).toEqual(always.sort());
      }
    });
  }
});

describe('the shared responses (openapi/components/responses)', () => {
  it('are each used by some operation: one that no document reaches is rendered nowhere and drifts unseen', () => {
    const files = readdirSync(join(root, 'openapi', 'components', 'responses')).map((file) => file.replace(/\.yaml$/, ''));
    expect(files.filter((name) => !(name in joined.components.responses))).toEqual([]);
  });
});

describe('request bodies', () => {
  it('hold no oneOf, anyOf or discriminator at any depth: a generated Kotlin client cannot build one (docs/clients.md)', () => {
    /** Where a union is, as a pointer of the operation's body or of a schema it reaches. */
    const unions = (node: unknown, at: string): string[] => {
      if (Array.isArray(node)) return node.flatMap((item, i) => unions(item, `${at}/${i}`));
      if (!node || typeof node !== 'object') return [];
      const here = ['oneOf', 'anyOf', 'discriminator'].filter((key) => key in node).map((key) => `${at}/${key}`);
      return [...here, ...Object.entries(node).flatMap(([key, value]) => unions(value, `${at}/${key}`))];
    };
    const found: string[] = [];
    for (const { method, path, operation, webhook } of operationsOf(joined)) {
      // A webhook's body is what the service sends: an answer, read by receivers.
      if (webhook || !operation.requestBody) continue;
      const body = deref(joined, operation.requestBody);
      found.push(...unions(body.content, `${method.toUpperCase()} ${path}`));
      for (const ref of reachableRefs(joined, body.content)) found.push(...unions(deref(joined, { $ref: ref }), ref));
    }
    expect(found).toEqual([]);
  });
});

describe('the client-generation bundles (ramp-clients.yaml, <surface>-clients.yaml)', () => {
  const clients = loadBundle('ramp-clients');

  it('is the joined document without its webhooks, their event schemas kept in components, one request body per operation', () => {
    expect(clients.webhooks).toBeUndefined();
    expect(joined.webhooks).toBeDefined();
    // Sign-in's form body stays in auth.yaml and ramp.yaml; generated clients send JSON.
    const withoutForms = structuredClone(joined.paths);
    for (const path of ['/auth/token', '/auth/launch']) {
      expect(Object.keys(withoutForms[path].post.requestBody.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
      delete withoutForms[path].post.requestBody.content['application/x-www-form-urlencoded'];
    }
    expect(clients.paths).toEqual(withoutForms);
    expect(clients.components.schemas).toEqual(joined.components.schemas);
    for (const [name, item] of Object.entries<Json>(joined.webhooks)) {
      const body = item.post.requestBody.content['application/json'].schema;
      expect(body.$ref, name).toMatch(/^#\/components\/schemas\//);
    }
    // Only what the webhooks alone used is left out.
    const { XSignature: _signature, ...parameters } = joined.components.parameters;
    expect(clients.components.parameters).toEqual(parameters);
    expect(reachableRefs(clients, clients.paths).size).toBeGreaterThan(0);
    const dangling = [...reachableRefs(clients, { paths: clients.paths, components: clients.components })].filter((ref) => deref(clients, { $ref: ref }) === undefined);
    expect(dangling).toEqual([]);
  });

  for (const surface of surfaces) {
    it(`${surface}-clients.yaml is ${surface}.yaml as the joined one is ramp.yaml, and ${surface}.html offers it for download`, () => {
      const document = loadBundle(`${surface}-clients`);
      expect(document.webhooks).toBeUndefined();
      expect(document.components?.schemas).toEqual(bundles[surface].components?.schemas);
      expect(Object.keys(document.paths)).toEqual(Object.keys(bundles[surface].paths));
      const page = readFileSync(join(root, 'generated', 'docs', `${surface}.html`), 'utf8');
      expect(page).toContain(`../openapi/${surface}-clients.yaml`);
    });
  }

  it("gives no link a `requestBody` (openapi-generator's validator takes only a string there): a body is its `x-request-body`", () => {
    for (const name of bundleNames) {
      const document = loadBundle(name);
      for (const { operation } of operationsOf(document)) {
        for (const response of Object.values<Json>(operation.responses ?? {})) {
          for (const [linkName, link] of Object.entries<Json>(deref(document, response)?.links ?? {})) {
            expect(link.requestBody, `${name}: ${linkName}`).toBeUndefined();
          }
        }
      }
    }
    const quote = joined.paths['/organization/{organizationId}/quote'].post.responses['201'];
    expect(quote.links.CreateOrder['x-request-body']).toEqual({ quoteId: '$response.body#/quoteId' });
  });
});

describe('names in generated clients', () => {
  const schemas = Object.entries<Json>(joined.components.schemas);
  const words = (value: string) => value.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^A-Za-z0-9]+/).filter(Boolean);
  /** Every enum of the document: the top-level ones of components and the inline ones of their properties. */
  const enums = (): { where: string; topLevel: boolean; schema: Json }[] => {
    const found: { where: string; topLevel: boolean; schema: Json }[] = [];
    const visit = (node: unknown, where: string, topLevel: boolean) => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray((node as Json).enum)) found.push({ where, topLevel, schema: node as Json });
      for (const [k, v] of Object.entries(node)) if (k !== 'enum' && k !== 'examples' && k !== 'example') visit(v, `${where}/${k}`, false);
    };
    for (const [name, schema] of schemas) visit(schema, name, true);
    return found;
  };

  it("no two enums give a Go constant the same name (openapi-generator's Go client: one package, UPPER_SNAKE names)", () => {
    const owners = new Map<string, string[]>();
    for (const { where, topLevel, schema } of enums()) {
      if (!topLevel || schema.type !== 'string') continue;
      schema.enum.forEach((value: string, i: number) => {
        const name = schema['x-enum-varnames']?.[i] ?? words(value).join('_').toUpperCase();
        owners.set(name, [...(owners.get(name) ?? []), where]);
      });
    }
    expect([...owners].filter(([, where]) => where.length > 1)).toEqual([]);
  });

  it('no enum value names a Go constant like a schema type (oapi-codegen: PascalCase names)', () => {
    const types = new Set(schemas.map(([name]) => name));
    const clashes = enums().flatMap(({ where, schema }) =>
      schema['x-enum-varnames'] || schema.type !== 'string' ? [] : schema.enum.filter((value: string) => types.has(words(value).map((w) => w[0]!.toUpperCase() + w.slice(1)).join(''))).map((value: string) => `${where}: ${value}`),
    );
    expect(clashes).toEqual([]);
  });

  it("no schema is named like oapi-codegen's response wrapper of an operation (<OperationId>Response)", () => {
    const wrappers = operationsOf(joined).map(({ operation }) => `${operation.operationId[0].toUpperCase()}${operation.operationId.slice(1)}Response`);
    expect(wrappers.filter((name) => joined.components.schemas[name])).toEqual([]);
  });
});
